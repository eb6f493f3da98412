import type { IndexableRecord } from '../../src/knowledge/retrieval/knowledge-index.js';

/** Records as the column lists an index snapshot is encoded with. */
export const recordColumns = (list: readonly IndexableRecord[]) => ({
  ids: list.map((r) => r.recordId),
  titles: list.map((r) => r.title),
  texts: list.map((r) => r.text),
  sources: list.map((r) => r.sourceName),
  kinds: list.map((r) => r.kind),
});
