/**
 * A worker thread that runs utilities for the server (thread-pool.ts): one job at a time, each
 * an already validated input with its files as bytes. A thread that overruns its time limit is
 * terminated from outside, which is the only way to end synchronous runaway work in JavaScript.
 */
import { parentPort } from 'node:worker_threads';
import { findTool } from './registry.js';
import { ToolInputError } from './types.js';

export interface ThreadJob {
  job: number;
  tool: string;
  input: unknown;
}

/** Sent when the tool's module is loaded and the run starts: the time limit counts from here. */
export interface ThreadStarted {
  job: number;
  started: true;
}

export type ThreadResult =
  | { job: number; ok: true; output: unknown }
  | { job: number; ok: false; refusal?: { message: string; details: ToolInputError['details'] }; failure?: string };

async function handle({ job, tool, input }: ThreadJob): Promise<ThreadResult> {
  const entry = findTool(tool);
  if (!entry) return { job, ok: false, failure: `unknown tool ${tool}` };
  try {
    const core = await entry.load();
    parentPort?.postMessage({ job, started: true } satisfies ThreadStarted);
    return { job, ok: true, output: await core.run(input as never) };
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
