/**
 * The Web Worker that runs a tool off the main thread, so heavy work never freezes the page and
 * a run over its time limit can be ended by terminating the worker (run.ts).
 */
import { loadToolModule } from './modules.js';
import { type FromWorker, type ToWorker, toMessage, transferables } from './worker-protocol.js';

const scope = self as unknown as { onmessage: ((event: MessageEvent<ToWorker>) => void) | null; postMessage(message: FromWorker, transfer?: Transferable[]): void };

scope.onmessage = async (event) => {
  const { job, meta, input } = event.data;
  try {
    const module = await loadToolModule(meta);
    const output = await module.run(input, { onProgress: (fraction, label) => scope.postMessage({ job, progress: fraction, label }) });
    scope.postMessage({ job, output }, transferables(output));
  } catch (error) {
    scope.postMessage({ job, error: toMessage(error) });
  }
};
