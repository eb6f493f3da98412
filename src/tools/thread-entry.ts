/**
 * A worker thread that runs utilities for the server (thread-pool.ts): one job at a time, each
 * an already validated input with its files as bytes. A thread that overruns its time limit is
 * terminated from outside, which is the only way to end synchronous runaway work in JavaScript.
 */
import { parentPort } from 'node:worker_threads';
import { findTool } from './registry.js';
import { ToolInputError, type ToolCore } from './types.js';

export interface ThreadJob {
  job: number;
  tool: string;
  input: unknown;
  /** A run whose output is larger (strings as UTF-16 units ×2, bytes as bytes) is refused: 413. */
  maxOutputBytes?: number;
}

/** Sent when the tool's module is loaded and the run starts: the time limit counts from here. */
export interface ThreadStarted {
  job: number;
  started: true;
}

/**
 * `runMs` is how long the run took on the thread's own clock: the pool holds a result that arrives
 * after the limit to the limit, even when both messages reach a busy main thread in the same turn.
 */
export type ThreadResult =
  | { job: number; ok: true; output: unknown; runMs?: number }
  | { job: number; ok: false; refusal?: { message: string; details: ToolInputError['details'] }; failure?: string; runMs?: number };

/** About what an output costs to send back and encode: string lengths and byte lengths, summed; stops past `limit`. */
function outputSize(value: unknown, limit: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && total <= limit) {
    const item = stack.pop();
    if (typeof item === 'string') total += item.length * 2;
    else if (ArrayBuffer.isView(item)) total += item.byteLength;
    else if (Array.isArray(item)) {
      for (const inner of item) stack.push(inner);
    }
    else if (item && typeof item === 'object') {
      for (const [key, inner] of Object.entries(item)) {
        total += key.length * 2;
        stack.push(inner);
      }
    } else total += 8;
  }
  return total;
}

async function handle({ job, tool, input, maxOutputBytes }: ThreadJob): Promise<ThreadResult> {
  const entry = findTool(tool);
  if (!entry) return { job, ok: false, failure: `unknown tool ${tool}` };
  const core = await entry.load().catch((error: unknown) => error instanceof Error ? error : new Error(String(error)));
  if (core instanceof Error) return { job, ok: false, failure: `${core.name}: ${core.message}` };
  parentPort?.postMessage({ job, started: true } satisfies ThreadStarted);
  const startedAt = performance.now();
  const result = await runLoaded(job, core, input, maxOutputBytes);
  return { ...result, runMs: performance.now() - startedAt };
}

async function runLoaded(job: number, core: ToolCore, input: unknown, maxOutputBytes: number | undefined): Promise<ThreadResult> {
  try {
    const output = await core.run(input as never);
    if (maxOutputBytes !== undefined && outputSize(output, maxOutputBytes) > maxOutputBytes) {
      const mb = Math.round(maxOutputBytes / 1024 / 1024);
      return { job, ok: false, refusal: { message: `The output would be larger than ${mb} MB; send a smaller input.`, details: { kind: 'too_large' } } };
    }
    return { job, ok: true, output };
  } catch (error) {
    if (error instanceof ToolInputError) return { job, ok: false, refusal: { message: error.message, details: error.details } };
    return { job, ok: false, failure: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

parentPort?.on('message', (message: ThreadJob) => {
  void handle(message).then((result) => parentPort?.postMessage(result));
});
// Loaded: the thread can take jobs.
parentPort?.postMessage({ ready: true });
