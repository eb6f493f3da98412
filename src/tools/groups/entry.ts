/** One line of the server registry: a tool's metadata and a lazy loader of what runs it on the server. */
import type { ToolCore, ToolMeta } from '../types.js';

export interface ToolEntry {
  meta: ToolMeta;
  /** `<id>/server.ts` when `meta.server` is `server`, else `<id>/core.ts`. */
  load(): Promise<ToolCore>;
}
