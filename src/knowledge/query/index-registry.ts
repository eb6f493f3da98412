/**
 * One retrieval index per knowledge base, built lazily from the store and
 * kept while its content version is current. Every query passes the freshly
 * read knowledge base, so a change made through another instance (same
 * database) is seen by the next query here: the version differs and the index
 * is rebuilt. Local changes warm the index at once (see `refresh`).
 */
import type { KnowledgeStore } from '../../adapters/storage/port.js';
import type { KnowledgeBase, SourcedRecord } from '../model.js';
import { KnowledgeIndex } from '../retrieval/knowledge-index.js';

interface Entry {
  version: number;
  index: KnowledgeIndex;
  records: Map<string, SourcedRecord>;
}

export class IndexRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly building = new Map<string, Promise<Entry>>();

  constructor(
    private readonly store: KnowledgeStore,
    private readonly capacity = 2000,
  ) {}

  /** The index for the knowledge base at its current content version. */
  async get(kb: KnowledgeBase): Promise<Entry> {
    const entry = this.entries.get(kb.ragId);
    if (entry && entry.version >= kb.contentVersion) {
      // Map order is insertion order: re-inserting marks it recently used.
      this.entries.delete(kb.ragId);
      this.entries.set(kb.ragId, entry);
      return entry;
    }
    return this.build(kb.ragId, kb.contentVersion);
  }

  /** Rebuilds after a local change so the next query finds the index ready. */
  async refresh(ragId: string, version: number | undefined): Promise<void> {
    if (version === undefined) {
      this.entries.delete(ragId);
      return;
    }
    await this.build(ragId, version);
  }

  private build(ragId: string, version: number): Promise<Entry> {
    const key = `${ragId}@${version}`;
    const inFlight = this.building.get(key);
    if (inFlight) return inFlight;
    const promise = (async () => {
      const records = await this.store.allRecords(ragId);
      const entry: Entry = {
        version,
        index: KnowledgeIndex.build(records.map((r) => ({ recordId: r.recordId, title: r.title, text: r.text, sourceName: r.sourceName }))),
        records: new Map(records.map((r) => [r.recordId, r])),
      };
      const current = this.entries.get(ragId);
      if (!current || current.version <= version) {
        this.entries.delete(ragId);
        this.entries.set(ragId, entry);
        this.evict();
      }
      return entry;
    })().finally(() => this.building.delete(key));
    this.building.set(key, promise);
    return promise;
  }

  private evict(): void {
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) return;
      this.entries.delete(oldest);
    }
  }
}
