/**
 * The utilities the page knows: every `src/tools/<id>/meta.ts`, found at build time (the server
 * lists the same folders in src/tools/groups/*.ts; a test checks both agree). Metadata is small
 * data; the code that runs a tool is loaded only on its page (run.ts, worker.ts).
 */
import { toolGroups, type ToolGroup, type ToolMeta } from '../../tools/types.js';

const found = import.meta.glob<ToolMeta>('../../tools/*/meta.ts', { eager: true, import: 'meta' });

export const tools: ToolMeta[] = Object.values(found).sort((a, b) => a.name.localeCompare(b.name));

export function findTool(id: string): ToolMeta | undefined {
  return tools.find((meta) => meta.id === id);
}

export { toolGroups };
export type { ToolGroup };

/** Lower-case words of a query; a tool matches when every word is in its name, description, keywords or id. */
export function matches(meta: ToolMeta, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = [meta.id, meta.name, meta.description, ...meta.keywords].join(' ').toLowerCase();
  return words.every((word) => haystack.includes(word));
}
