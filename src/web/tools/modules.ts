/**
 * The code that runs each tool in the browser: `<id>/browser.ts` when the tool has one, else its
 * pure `<id>/core.ts`. Each is its own chunk, loaded only when its tool runs. Server modules
 * (`server.ts`, sharp) are never part of the page.
 */
import type { ToolContext, ToolMeta } from '../../tools/types.js';

export interface RunnableModule {
  run(input: unknown, context?: ToolContext): unknown;
}

const cores = import.meta.glob<RunnableModule>('../../tools/*/core.ts');
const browsers = import.meta.glob<RunnableModule>('../../tools/*/browser.ts');

export function loadToolModule(meta: Pick<ToolMeta, 'id' | 'browser'>): Promise<RunnableModule> {
  const table = meta.browser === 'browser' ? browsers : cores;
  const file = meta.browser === 'browser' ? 'browser' : 'core';
  const load = table[`../../tools/${meta.id}/${file}.ts`];
  if (!load) return Promise.reject(new Error(`No browser code for ${meta.id}.`));
  return load();
}
