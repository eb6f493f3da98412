/**
 * The in-memory retriever (the reference implementation of the retrieval port): one BM25F index
 * per knowledge base, kept at a content version and brought forward by what changed
 * (docs/performance.md, "Indexing: incremental, off the event loop, compact").
 *
 * - A change (an upload, a deletion) reaches the index as its own records: the store says what
 *   changed since the version the index holds (`recordChanges`), and those records are added and
 *   removed, statistics kept exactly (the ranking is a fresh build's). Local changes arrive through
 *   `invalidate`; a change made through another instance (same database) is noticed by the next
 *   query, whose freshly read knowledge base carries a newer version, and is applied the same way.
 * - A cold index (first query after start-up or eviction, a history gap, a change too large to
 *   apply record by record, or a change of the detected language) is built on a worker thread
 *   (index-build-threads.ts) from one snapshot of the records: only the queries of that knowledge
 *   base wait, and concurrent ones share the one build.
 * - Indexes are kept up to a budget of approximate bytes (INDEX_CACHE_MB), least recently used
 *   dropped first; an index larger than the whole budget is kept alone.
 */
import type { KnowledgeStore } from '../../ports/storage.js';
import { LRUCache } from 'lru-cache';
import type { RetrievedRecord } from '../answering/types.js';
import type { SourcedRecord } from '../model.js';
import { type IndexableRecord, KnowledgeIndex } from '../retrieval/knowledge-index.js';
import type { Retrieval, RetrievalScope, Retriever } from '../retrieval/port.js';
import { IndexBuildThreads } from './index-build-threads.js';

interface Entry {
  readonly version: number;
  readonly index: KnowledgeIndex;
}

/** What the registry did, for tests and metrics. */
export interface IndexEvent {
  type: 'build-started' | 'build-finished' | 'changes-applied';
  ragId: string;
  /** Records built from, or records added plus removed. */
  records: number;
}

export interface IndexRegistryOptions {
  /** Approximate heap all indexes may hold together, in bytes (default 256 MiB). */
  maxBytes?: number;
  /** Threads that build cold indexes (default: two, started on first use, closed with the registry). */
  threads?: IndexBuildThreads;
  /** Changed records applied on the event loop at most; a larger change is built on a thread (default 2,000). */
  maxInlineChanges?: number;
  observer?: (event: IndexEvent) => void;
}

export const DEFAULT_INDEX_CACHE_BYTES = 256 * 1024 * 1024;

export class IndexRegistry implements Retriever {
  readonly kind = 'memory' as const;
  private readonly entries: LRUCache<string, Entry>;
  /** One update (changes applied, or a build) per knowledge base at a time; each leaves when it settles. */
  private readonly updating = new Map<string, Promise<Entry>>();
  private readonly threads: IndexBuildThreads;
  private readonly ownThreads: boolean;
  private readonly maxInlineChanges: number;
  private readonly observer: ((event: IndexEvent) => void) | undefined;

  constructor(
    private readonly store: KnowledgeStore,
    options: IndexRegistryOptions = {},
  ) {
    const maxSize = Math.max(1, Math.floor(options.maxBytes ?? DEFAULT_INDEX_CACHE_BYTES));
    this.entries = new LRUCache<string, Entry>({ maxSize, sizeCalculation: (entry) => Math.max(1, Math.min(maxSize, entry.index.approximateBytes())) });
    this.ownThreads = options.threads === undefined;
    this.threads = options.threads ?? new IndexBuildThreads();
    this.maxInlineChanges = options.maxInlineChanges ?? 2000;
    this.observer = options.observer;
  }

  /** Approximate heap the kept indexes hold, in bytes. */
  get heldBytes(): number {
    return this.entries.calculatedSize;
  }

  /** The index for the knowledge base at (at least) its current content version. */
  async get(kb: RetrievalScope): Promise<Entry> {
    return this.current(kb) ?? this.advance(kb.ragId, kb.contentVersion);
  }

  search(scope: RetrievalScope, query: string, k: number): Promise<Retrieval> {
    // A current index is searched without waiting on a promise: the query path's common case.
    const entry = this.current(scope);
    if (entry) return Promise.resolve(searchEntry(entry, query, k));
    return this.advance(scope.ragId, scope.contentVersion).then((found) => searchEntry(found, query, k));
  }

  invalidate(ragId: string, contentVersion: number | undefined): Promise<void> {
    return this.refresh(ragId, contentVersion);
  }

  async close(): Promise<void> {
    this.entries.clear();
    if (this.ownThreads) await this.threads.close();
  }

  /** Brings the index forward after a local change so the next query finds it ready (or drops it: the knowledge base is gone). */
  async refresh(ragId: string, version: number | undefined): Promise<void> {
    if (version === undefined) {
      this.entries.delete(ragId);
      return;
    }
    await this.advance(ragId, version);
  }

  /** The cached entry when it is at least at the scope's version, marked recently used. */
  private current(scope: RetrievalScope): Entry | undefined {
    const entry = this.entries.get(scope.ragId);
    if (!entry || entry.version < scope.contentVersion) return undefined;
    return entry;
  }

  /** The entry at `version` or later: waits for the update in progress, or starts one. */
  private async advance(ragId: string, version: number): Promise<Entry> {
    // Twice at most: an update that started before the version was written may end just short of it.
    for (let attempt = 0; ; attempt++) {
      const held = this.current({ ragId, contentVersion: version });
      if (held) return held;
      const entry = await (this.updating.get(ragId) ?? this.update(ragId));
      if (entry.version >= version || attempt >= 2) return entry;
    }
  }

  private update(ragId: string): Promise<Entry> {
    const promise = this.updateNow(ragId).finally(() => this.updating.delete(ragId));
    this.updating.set(ragId, promise);
    return promise;
  }

  private async updateNow(ragId: string): Promise<Entry> {
    const held = this.entries.peek(ragId);
    if (held) {
      const changes = await this.store.recordChanges(ragId, held.version);
      if (changes && changes.version <= held.version) return held;
      if (changes && changes.added.length + changes.removedIds.length <= this.maxInlineChanges) {
        const { index } = held;
        index.remove(changes.removedIds);
        index.add(changes.added.map(indexable));
        this.observer?.({ type: 'changes-applied', ragId, records: changes.added.length + changes.removedIds.length });
        if (index.languageHolds()) return this.keep(ragId, { version: changes.version, index });
      }
      // A gap in the history, a large change or another language: built again from the records.
      this.entries.delete(ragId);
    }
    const snapshot = await this.store.recordSnapshot(ragId);
    if (!snapshot) return { version: 0, index: KnowledgeIndex.build([]) };
    return this.keep(ragId, { version: snapshot.version, index: await this.build(ragId, snapshot.records) });
  }

  /** Keeps the entry unless a newer one is already kept (its size is counted again: it is a new object). */
  private keep(ragId: string, entry: Entry): Entry {
    const kept = this.entries.peek(ragId);
    if (!kept || kept.version <= entry.version) this.entries.set(ragId, entry);
    return entry;
  }

  /** The index of the records, built on a thread (on this one only when the thread failed). */
  private async build(ragId: string, records: readonly SourcedRecord[]): Promise<KnowledgeIndex> {
    const items = records.map(indexable);
    this.observer?.({ type: 'build-started', ragId, records: items.length });
    let index: KnowledgeIndex;
    try {
      const compact = await this.threads.build({ titles: items.map((r) => r.title), texts: items.map((r) => r.text) });
      index = KnowledgeIndex.fromCompact(compact, items);
    } catch {
      index = KnowledgeIndex.build(items);
    }
    this.observer?.({ type: 'build-finished', ragId, records: items.length });
    return index;
  }
}

/** What the index keeps of a stored record: what answers cite (no fingerprint, dates or source id). */
function indexable(r: SourcedRecord): IndexableRecord {
  return { recordId: r.recordId, title: r.title, text: r.text, sourceName: r.sourceName, kind: r.kind };
}

function searchEntry({ index }: Entry, query: string, k: number): Retrieval {
  const hits: RetrievedRecord[] = [];
  for (const hit of index.search(query, k)) {
    const record = index.get(hit.recordId);
    if (record) hits.push({ recordId: record.recordId, sourceName: record.sourceName, title: record.title, text: record.text, kind: record.kind as RetrievedRecord['kind'], score: hit.score });
  }
  return { hits, stats: index };
}
