/**
 * The utilities catalogue: every tool's metadata, and a lazy loader for its
 * core, so a page, a Worker or the API pays only for the tools it runs. To
 * add a tool: create `src/tools/<id>/meta.ts` and `core.ts` and list it in its group;
 * the catalogue endpoint, the API route, the MCP tools and the table-driven
 * tests pick it up. Each group lists its tools in `groups/<group>.ts`; the web
 * pages find the same folders by `import.meta.glob` (src/web/tools/catalogue.ts).
 */
import { aiTools } from './groups/ai.js';
import { developerTools } from './groups/developer.js';
import type { ToolEntry } from './groups/entry.js';
import { imageTools } from './groups/image.js';
import { pdfTools } from './groups/pdf.js';
import type { ToolMeta, ToolWeight } from './types.js';

export type { ToolEntry } from './groups/entry.js';

export const toolEntries: readonly ToolEntry[] = [...developerTools, ...pdfTools, ...imageTools, ...aiTools];

/** Largest input of a light tool: a megabyte of text (text-diff's two texts are heavy). */
const lightInputBytes = 1_000_000;

/**
 * The lane a tool runs on: heavy for PDF and image tools, native server code (sharp, tesseract),
 * a time limit of its own above the default 10 s, or inputs over a megabyte; light otherwise.
 */
export function toolWeight(entry: Pick<ToolEntry, 'meta' | 'weight'>): ToolWeight {
  if (entry.weight) return entry.weight;
  const { meta } = entry;
  const heavy =
    meta.group === 'pdf' ||
    meta.group === 'image' ||
    meta.server === 'server' ||
    (meta.limits.timeoutMs ?? 10_000) > 10_000 ||
    meta.limits.maxInputBytes > lightInputBytes;
  return heavy ? 'heavy' : 'light';
}

const byId = new Map(toolEntries.map((entry) => [entry.meta.id, entry]));

export function findTool(id: string): ToolEntry | undefined {
  return byId.get(id);
}

export const toolCatalogue: readonly ToolMeta[] = toolEntries.map((entry) => entry.meta);
