/**
 * Runs a tool in the browser: in a Web Worker (default), which is terminated when the run passes
 * the tool's time limit or the person presses Stop, or on the page for tools that need the main
 * thread (speech, pdf.js rendering).
 */
import { type ToolMeta, toolTimeLimitMs } from '../../tools/types.js';
import { loadToolModule } from './modules.js';
import type { FromWorker, ToWorker } from './worker-protocol.js';

export interface RunHandle {
  result: Promise<unknown>;
  stop(): void;
}

export type Progress = (fraction: number, label?: string) => void;

export class StoppedError extends Error {}

let worker: Worker | undefined;
let nextJob = 1;

function freshWorker(): Worker {
  worker ??= new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'tool-worker' });
  return worker;
}

function endWorker(): void {
  worker?.terminate();
  worker = undefined;
}

export function runTool(meta: ToolMeta, input: Record<string, unknown>, onProgress: Progress = () => undefined): RunHandle {
  if (meta.runsIn === 'page') {
    const result = loadToolModule(meta).then((module) => module.run(input, { onProgress }));
    return { result, stop: () => undefined };
  }
  const job = nextJob++;
  const target = freshWorker();
  let stop: () => void = () => undefined;
  const result = new Promise<unknown>((resolve, reject) => {
    const finish = (): void => {
      clearTimeout(timer);
      target.removeEventListener('message', onMessage);
      target.removeEventListener('error', onError);
    };
    const onMessage = (event: MessageEvent<FromWorker>): void => {
      const message = event.data;
      if (message.job !== job) return;
      if ('progress' in message) return onProgress(message.progress, message.label);
      finish();
      if ('error' in message) reject(new Error(message.error));
      else resolve(message.output);
    };
    const onError = (event: ErrorEvent): void => {
      finish();
      endWorker();
      reject(new Error(event.message || 'The tool failed to load.'));
    };
    const end = (error: Error): void => {
      finish();
      endWorker();
      reject(error);
    };
    const limit = toolTimeLimitMs(meta);
    const timer = setTimeout(() => end(new Error(`${meta.name} took longer than ${limit / 1000} s and was stopped. Try a smaller input.`)), limit);
    stop = () => end(new StoppedError('Stopped.'));
    target.addEventListener('message', onMessage);
    target.addEventListener('error', onError);
    target.postMessage({ job, meta: { id: meta.id, browser: meta.browser }, input } satisfies ToWorker);
  });
  return { result, stop: () => stop() };
}
