/**
 * The utilities catalogue: every tool's metadata, and a lazy loader for its
 * core, so a page, a Worker or the API pays only for the tools it runs. To
 * add a tool: create `src/tools/<id>/meta.ts` and `core.ts` and list it here;
 * the catalogue endpoint, the API route, the MCP tools and the table-driven
 * tests pick it up.
 */
import { meta as base64 } from './base64/meta.js';
import { meta as hash } from './hash/meta.js';
import { meta as jsonFormat } from './json-format/meta.js';
import type { ToolCore, ToolMeta } from './types.js';
import { meta as urlEncode } from './url-encode/meta.js';
import { meta as uuid } from './uuid/meta.js';
import { meta as wordCount } from './word-count/meta.js';

export interface ToolEntry {
  meta: ToolMeta;
  load(): Promise<ToolCore>;
}

export const toolEntries: readonly ToolEntry[] = [
  { meta: jsonFormat, load: () => import('./json-format/core.js') },
  { meta: base64, load: () => import('./base64/core.js') },
  { meta: hash, load: () => import('./hash/core.js') },
  { meta: uuid, load: () => import('./uuid/core.js') },
  { meta: urlEncode, load: () => import('./url-encode/core.js') },
  { meta: wordCount, load: () => import('./word-count/core.js') },
];

const byId = new Map(toolEntries.map((entry) => [entry.meta.id, entry]));

export function findTool(id: string): ToolEntry | undefined {
  return byId.get(id);
}

export const toolCatalogue: readonly ToolMeta[] = toolEntries.map((entry) => entry.meta);
