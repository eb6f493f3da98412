/**
 * Starts a worker thread on a module beside the caller, the same way from built code and from
 * sources. Built code runs `<entry>.js`. Sources (tsx, Vitest) run `<entry>.ts` through tsx's ESM
 * hooks, registered by a small bootstrap module: `--import tsx` in a worker's execArgv does not
 * apply to the worker's own entry on Node 20.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** `callerUrl` is the caller's `import.meta.url`; `entry` a relative path without extension, e.g. `./thread-entry`. */
export function startWorker(callerUrl: string, entry: string, options: WorkerOptions = {}): Worker {
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(`${entry}.js`, callerUrl), options);
  const source = new URL(`${entry}.ts`, callerUrl).href;
  const tsxApi = pathToFileURL(createRequire(callerUrl).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const bootstrap = `import { register } from ${JSON.stringify(tsxApi)}; register(); await import(${JSON.stringify(source)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`), options);
}
