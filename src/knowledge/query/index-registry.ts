/**
 * The in-memory retriever (the reference implementation of the retrieval port): one BM25F index
 * per knowledge base, built lazily from the store and kept while its content version is current.
 * Every query passes the freshly read knowledge base, so a change made through another instance
 * (same database) is seen by the next query here: the version differs and the index is rebuilt.
 * Local changes warm the index at once (see `refresh`). The least recently used indexes are
 * dropped past `capacity`.
 */
import type { KnowledgeStore } from '../../ports/storage.js';
import { LRUCache } from 'lru-cache';
import type { RetrievedRecord } from '../answering/types.js';
import type { SourcedRecord } from '../model.js';
import { KnowledgeIndex } from '../retrieval/knowledge-index.js';
import type { Retrieval, RetrievalScope, Retriever } from '../retrieval/port.js';

interface Entry {
  version: number;
  index: KnowledgeIndex;
  records: Map<string, SourcedRecord>;
}

export class IndexRegistry implements Retriever {
  readonly kind = 'memory' as const;
  /** Indexes by ragId, least recently used dropped past `capacity`. */
  private readonly entries: LRUCache<string, Entry>;
  /** Builds in flight (not a cache: each one leaves when it settles). */
  private readonly building = new Map<string, Promise<Entry>>();

  constructor(
    private readonly store: KnowledgeStore,
    capacity = 2000,
  ) {
    this.entries = new LRUCache<string, Entry>({ max: capacity });
  }

  /** The index for the knowledge base at its current content version. */
  async get(kb: RetrievalScope): Promise<Entry> {
    return this.current(kb) ?? this.build(kb.ragId, kb.contentVersion);
  }

  search(scope: RetrievalScope, query: string, k: number): Promise<Retrieval> {
    // A current index is searched without waiting on a promise: the query path's common case.
    const entry = this.current(scope);
    if (entry) return Promise.resolve(searchEntry(entry, query, k));
    return this.build(scope.ragId, scope.contentVersion).then((built) => searchEntry(built, query, k));
  }

  invalidate(ragId: string, contentVersion: number | undefined): Promise<void> {
    return this.refresh(ragId, contentVersion);
  }

  close(): Promise<void> {
    this.entries.clear();
    return Promise.resolve();
  }

  /** The cached entry when it is at least at the scope's version, marked recently used. */
  private current(scope: RetrievalScope): Entry | undefined {
    // `get` marks it recently used.
    const entry = this.entries.get(scope.ragId);
    if (!entry || entry.version < scope.contentVersion) return undefined;
    return entry;
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
      const current = this.entries.peek(ragId);
      if (!current || current.version <= version) this.entries.set(ragId, entry);
      return entry;
    })().finally(() => this.building.delete(key));
    this.building.set(key, promise);
    return promise;
  }
}

function searchEntry({ index, records }: Entry, query: string, k: number): Retrieval {
  const hits: RetrievedRecord[] = [];
  for (const hit of index.search(query, k)) {
    const record = records.get(hit.recordId);
    if (record) hits.push({ recordId: record.recordId, sourceName: record.sourceName, title: record.title, text: record.text, kind: record.kind, score: hit.score });
  }
  return { hits, stats: index };
}
