/**
 * The in-memory retriever (the reference implementation of the retrieval port): one BM25F index
 * per knowledge base, kept at a content version and brought forward by what changed
 * (docs/indexing.md, "Indexing: incremental, off the event loop, compact").
 *
 * - A change (an upload, a deletion) reaches the index as its own records: the store says what
 *   changed since the version the index holds (`recordChanges`), and those records are added and
 *   removed, statistics kept exactly (the ranking is a fresh build's). Local changes arrive through
 *   `invalidate`; a change made through another instance (same database) is noticed by the next
 *   query, whose freshly read knowledge base carries a newer version, and is applied the same way.
 * - A cold index (first query after start-up or eviction) loads from its stored form (the
 *   store's index snapshot, index-snapshot.ts: read from the store in parts, inflated on libuv's
 *   pool, made into the index on this thread in slices of a few milliseconds) and is brought
 *   forward by the changes since the snapshot's version, as a held index is. Without a usable snapshot (none, damaged, made by code that analyses text
 *   differently), or when the changes since it cannot be applied (a history gap, a change too
 *   large to apply record by record, a change of the detected language), the index is built on a
 *   worker thread (index-build-threads.ts) from one snapshot of the records: only the queries of
 *   that knowledge base wait, and concurrent ones share the one build.
 * - When a snapshot is written: after every such full build, by the thread that built the index,
 *   once the waiting queries have it (never on their path). Nothing else writes one: a snapshot
 *   left behind by later changes costs the next cold load only those changes (at most
 *   `maxInlineChanges` records and the store's kept history of versions; beyond that the full
 *   build writes a new one).
 * - Indexes are kept up to a budget of approximate bytes (INDEX_CACHE_MB), least recently used
 *   dropped first; an index larger than the whole budget is kept alone.
 */
import { statsWithSynonyms } from '../retrieval/owner-synonyms.js';
import type { SynonymGroups } from '../synonyms.js';
import type { KnowledgeStore } from '../../ports/storage.js';
import { LRUCache } from 'lru-cache';
import type { RetrievedRecord } from '../answering/types.js';
import type { SourcedRecord } from '../model.js';
import { loadIndexSnapshot } from '../retrieval/index-snapshot.js';
import { type IndexableRecord, KnowledgeIndex } from '../retrieval/knowledge-index.js';
import type { Retrieval, RetrievalScope, Retriever } from '../retrieval/port.js';
import { IndexBuildThreads } from './index-build-threads.js';
import { inSlices } from '../../time-slices.js';

interface Entry {
  readonly version: number;
  readonly index: KnowledgeIndex;
}

/** What the registry did, for tests and metrics. */
export interface IndexEvent {
  type: 'build-started' | 'build-finished' | 'changes-applied' | 'snapshot-loaded' | 'snapshot-written';
  ragId: string;
  /** Records built from, loaded, or written; or records added plus removed. */
  records: number;
}

export interface IndexRegistryOptions {
  /** Approximate heap all indexes may hold together, in bytes (default 768 MiB, as INDEX_CACHE_MB's). */
  maxBytes?: number;
  /** Threads that build cold indexes (default: two, started on first use, closed with the registry). */
  threads?: IndexBuildThreads;
  /** Changed records applied on the event loop at most; a larger change is built on a thread (default 2,000). */
  maxInlineChanges?: number;
  /** Whether cold indexes load from, and full builds write, the store's index snapshots (default true). */
  snapshots?: boolean;
  /** An index no query used for this long drops its query caches (KnowledgeIndex.releaseCaches; default 5 minutes). */
  idleMs?: number;
  observer?: (event: IndexEvent) => void;
}

export const DEFAULT_INDEX_CACHE_BYTES = 768 * 1024 * 1024;

export class IndexRegistry implements Retriever {
  readonly kind = 'memory' as const;
  private readonly entries: LRUCache<string, Entry>;
  /** One update (changes applied, or a build) per knowledge base at a time; each leaves when it settles. */
  private readonly updating = new Map<string, Promise<Entry>>();
  private readonly threads: IndexBuildThreads;
  private readonly ownThreads: boolean;
  private readonly maxInlineChanges: number;
  private readonly snapshots: boolean;
  private readonly observer: ((event: IndexEvent) => void) | undefined;
  /** Snapshot writes in progress (awaited by `settled` and `close`). */
  private readonly writing = new Set<Promise<void>>();
  private readonly idleMs: number;
  private sweptAt = Date.now();

  constructor(
    private readonly store: KnowledgeStore,
    options: IndexRegistryOptions = {},
  ) {
    const maxSize = Math.max(1, Math.floor(options.maxBytes ?? DEFAULT_INDEX_CACHE_BYTES));
    this.entries = new LRUCache<string, Entry>({ maxSize, sizeCalculation: (entry) => Math.max(1, Math.min(maxSize, entry.index.approximateBytes())) });
    this.ownThreads = options.threads === undefined;
    this.threads = options.threads ?? new IndexBuildThreads();
    this.maxInlineChanges = options.maxInlineChanges ?? 2000;
    this.snapshots = options.snapshots ?? true;
    this.observer = options.observer;
    this.idleMs = options.idleMs ?? 5 * 60_000;
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
    this.releaseIdle();
    // A current index is searched without waiting on a promise: the query path's common case.
    const entry = this.current(scope);
    if (entry) return Promise.resolve(searchEntry(entry, query, k, scope.synonyms));
    return this.advance(scope.ragId, scope.contentVersion).then((found) => searchEntry(found, query, k, scope.synonyms));
  }

  invalidate(ragId: string, contentVersion: number | undefined): Promise<void> {
    return this.refresh(ragId, contentVersion);
  }

  /** Resolves once the snapshot writes started so far have ended (stored or not). */
  async settled(): Promise<void> {
    while (this.writing.size > 0) await Promise.all(this.writing);
  }

  async close(): Promise<void> {
    this.entries.clear();
    await this.settled();
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
    const start = held ?? (this.snapshots ? await this.loadSnapshot(ragId) : undefined);
    if (start) {
      const advanced = await this.withChanges(ragId, start, held !== undefined);
      if (held && advanced === held) return held;
      if (advanced) return this.keep(ragId, advanced);
      // A gap in the history, a large change or another language: built again from the records.
      if (held) this.entries.delete(ragId);
    }
    const snapshot = await this.store.recordSnapshot(ragId);
    if (!snapshot) return { version: 0, index: KnowledgeIndex.build([]) };
    return this.keep(ragId, { version: snapshot.version, index: await this.build(ragId, snapshot.version, snapshot.records) });
  }

  /**
   * The entry brought forward by what changed since its version; undefined when that cannot be
   * done record by record. `held`: queries may be searching the index (it is kept), so the changes
   * are applied at once; an index just loaded from its snapshot is not searched before this
   * returns, so its changes (up to `maxInlineChanges` records, ~100 ms of analysis) are applied
   * in slices with other work let run between them (issue 14, head of line).
   */
  private async withChanges(ragId: string, entry: Entry, held: boolean): Promise<Entry | undefined> {
    const changes = await this.store.recordChanges(ragId, entry.version);
    if (!changes) return undefined;
    if (changes.version <= entry.version) return entry;
    if (changes.added.length + changes.removedIds.length > this.maxInlineChanges) return undefined;
    const { index } = entry;
    if (held) {
      index.remove(changes.removedIds);
      index.add(changes.added.map(indexable));
    } else {
      await inSlices(batches(changes.removedIds, (ids) => index.remove(ids)));
      await inSlices(batches(changes.added, (records) => index.add(records.map(indexable))));
    }
    this.observer?.({ type: 'changes-applied', ragId, records: changes.added.length + changes.removedIds.length });
    return index.languageHolds() ? { version: changes.version, index } : undefined;
  }

  /** The index in the store's snapshot, at the snapshot's version; undefined when there is none or it cannot be used. */
  private async loadSnapshot(ragId: string): Promise<Entry | undefined> {
    try {
      const stored = await this.store.readIndexSnapshot(ragId);
      if (!stored) return undefined;
      const index = await loadIndexSnapshot(stored.data);
      this.observer?.({ type: 'snapshot-loaded', ragId, records: index.size });
      return { version: stored.version, index };
    } catch {
      // Damaged, made by other code, or unreadable: the records are the truth.
      return undefined;
    }
  }

  /**
   * Idle indexes drop their query caches (issue 14, memory per knowledge base: the question and
   * word memos of a busy index grow to tens of KB). Checked at most once per tenth of `idleMs`:
   * a walk over the indexes held (well under a millisecond for thousands), none of them rebuilt.
   */
  private releaseIdle(): void {
    const now = Date.now();
    if (now - this.sweptAt < this.idleMs / 10) return;
    this.sweptAt = now;
    for (const entry of this.entries.values()) if (now - entry.index.lastUsedAt >= this.idleMs) entry.index.releaseCaches();
  }

  /** Keeps the entry unless a newer one is already kept (its size is counted again: it is a new object). */
  private keep(ragId: string, entry: Entry): Entry {
    const kept = this.entries.peek(ragId);
    if (!kept || kept.version <= entry.version) this.entries.set(ragId, entry);
    return entry;
  }

  /**
   * The index of the records, built on a thread (on this one only when the thread failed); the
   * same thread then makes its stored form, written to the store in the background.
   */
  private async build(ragId: string, version: number, records: readonly SourcedRecord[]): Promise<KnowledgeIndex> {
    const items = records.map(indexable);
    this.observer?.({ type: 'build-started', ragId, records: items.length });
    let index: KnowledgeIndex;
    try {
      const extras = this.snapshots ? { ids: items.map((r) => r.recordId), sources: items.map((r) => r.sourceName), kinds: items.map((r) => r.kind) } : undefined;
      const { compact, snapshot } = await this.threads.buildWithSnapshot({ titles: items.map((r) => r.title), texts: items.map((r) => r.text) }, extras);
      // Made here in slices (20–70 ms at once for 100,000 records); no query sees it before it is done.
      index = await inSlices(KnowledgeIndex.fromCompactInSteps(compact, items, SLICE_BATCH * 16));
      if (snapshot) this.write(ragId, version, items.length, snapshot);
    } catch {
      index = KnowledgeIndex.build(items);
    }
    this.observer?.({ type: 'build-finished', ragId, records: items.length });
    return index;
  }

  /** Stores a snapshot once it is made; a failure only means the next cold load builds again. */
  private write(ragId: string, version: number, records: number, data: Promise<Uint8Array>): void {
    const writing = data
      .then((bytes) => this.store.writeIndexSnapshot(ragId, { version, data: bytes }))
      .then((stored) => {
        if (stored) this.observer?.({ type: 'snapshot-written', ragId, records });
      })
      .catch(() => undefined)
      .finally(() => this.writing.delete(writing));
    this.writing.add(writing);
  }
}

/** Records per batch of `inSlices` (~50 µs each to analyse). */
const SLICE_BATCH = 16;

/** `work` over `items` in batches of `SLICE_BATCH`, in order, a step each. */
function* batches<T>(items: readonly T[], work: (batch: readonly T[]) => void): Generator<void, void> {
  for (let i = 0; i < items.length; i += SLICE_BATCH) {
    work(items.slice(i, i + SLICE_BATCH));
    yield;
  }
}

/** What the index keeps of a stored record: what answers cite (no fingerprint, dates or source id). */
function indexable(r: SourcedRecord): IndexableRecord {
  return { recordId: r.recordId, title: r.title, text: r.text, sourceName: r.sourceName, kind: r.kind };
}

function searchEntry({ index }: Entry, query: string, k: number, synonyms: SynonymGroups | undefined): Retrieval {
  const hits: RetrievedRecord[] = [];
  for (const hit of index.search(query, k, synonyms)) {
    const record = index.get(hit.recordId);
    if (record) hits.push({ recordId: record.recordId, sourceName: record.sourceName, title: record.title, text: record.text, kind: record.kind as RetrievedRecord['kind'], score: hit.score });
  }
  return { hits, stats: statsWithSynonyms(index, synonyms) };
}
