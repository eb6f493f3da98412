/** One line of the server registry: a tool's metadata and a lazy loader of what runs it on the server. */
import type { ToolCore, ToolMeta, ToolWeight } from '../types.js';

export interface ToolEntry {
  meta: ToolMeta;
  /** `<id>/server.ts` when `meta.server` is `server`, else `<id>/core.ts`. */
  load(): Promise<ToolCore>;
  /** Overrides the registry's rule (`toolWeight`) for this tool's server lane. */
  weight?: ToolWeight;
}
