/**
 * Knowledge bases, sources and records. Every rule that reads then writes runs
 * in one write transaction with the row that owns it locked (see sql.ts): the
 * acting account's row for the knowledge-base limit, the knowledge base's row
 * for its record quota and deduplication (concurrent uploads to one knowledge
 * base queue on it).
 */
import type { ExpressionBuilder } from 'kysely';
import type { CandidateRecord, KnowledgeBase, SourcedRecord, WidgetSighting } from '../../knowledge/model.js';
import type {
  CommitPageResult,
  CommitSourceResult,
  CreateKnowledgeBaseResult,
  IndexSnapshot,
  KnowledgeBasePatch,
  KnowledgeStore,
  NewKnowledgeBase,
  NewPageSource,
  NewSource,
  PageRequest,
  RecordChanges,
  RecordSnapshot,
} from '../../ports/storage.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { readIndexSnapshot, writeIndexSnapshot } from './index-snapshot-parts.js';
import { frozenKnowledgeBase, partitionCandidates, type Row, starterQuestionsColumn, synonymsColumn, toKnowledgeBase, toRecord, toSource, toSourcedRecord } from './rows.js';
import type { Schema } from './schema.js';
import { chunks, type Db, now, type SqlContext } from './sql.js';
import { nextTurn } from '../../time-slices.js';
import type { MaybePromise } from '../../maybe-promise.js';

/** Records per statement of `recordSnapshot` (~3–5 ms to read and map on SQLite). */
const SNAPSHOT_PAGE = 500;
/** Paged reads of `recordSnapshot` tried before one snapshot transaction. */
const SNAPSHOT_ATTEMPTS = 3;
/**
 * The records columns read, named rather than `*`: on PostgreSQL `records` also stores each record's
 * full-text document (`tsv`, migration 20), which only the PostgreSQL retriever reads.
 */
const RECORD_COLUMNS = ['seq', 'record_id', 'rag_id', 'source_id', 'kind', 'title', 'text', 'fingerprint', 'created_at', 'content_version'] as const;
const RECORD_COLUMNS_R = RECORD_COLUMNS.map((column) => `r.${column}` as const);

/**
 * Which knowledge bases an acting account reaches: its own, and for an agent adopted with 'own'
 * access the ones it made (see the storage port). Every owner check — here, in the key store and
 * in the usage store — is this one predicate.
 */
export const reaches =
  (accountId: string) =>
  (eb: ExpressionBuilder<Schema, 'knowledge_bases'>) =>
    eb.or([eb('knowledge_bases.owner_id', '=', accountId), eb('knowledge_bases.created_by', '=', accountId)]);

/** The knowledge base if the account reaches it, optionally locked for the rest of the transaction. */
export async function reachable(ctx: SqlContext, db: Db, ownerId: string, ragId: string, lock = false): Promise<Row | undefined> {
  const query = db.selectFrom('knowledge_bases').selectAll().where('rag_id', '=', ragId).where(reaches(ownerId));
  return (await (lock ? ctx.lockRow(query) : query).executeTakeFirst()) as Row | undefined;
}

/**
 * Removals are kept for this many content versions (an instance further behind loads the whole
 * knowledge base again, see `recordChanges`).
 */
export const KEPT_REMOVAL_VERSIONS = 256;

/**
 * New content version and record count, with the ids of the records this change removed; returns
 * the updated row. Removals older than the kept versions go, and `changes_from` follows them.
 */
async function bump(ctx: SqlContext, db: Db, ragId: string, recordDelta: number, removedIds: readonly string[] = []): Promise<Row> {
  const row = (await db
    .updateTable('knowledge_bases')
    .set((eb) => ({
      content_version: eb('content_version', '+', 1),
      changes_from: ctx.greatest(eb.ref('changes_from'), eb(eb.ref('content_version'), '-', KEPT_REMOVAL_VERSIONS - 1)),
      record_count: eb('record_count', '+', recordDelta),
      updated_at: now(),
    }))
    .where('rag_id', '=', ragId)
    .returningAll()
    .executeTakeFirstOrThrow()) as Row;
  const version = Number(row.content_version);
  for (const batch of chunks(removedIds)) {
    await db
      .insertInto('record_removals')
      .values(batch.map((recordId) => ({ rag_id: ragId, content_version: version, record_id: recordId })))
      .execute();
  }
  await db.deleteFrom('record_removals').where('rag_id', '=', ragId).where('content_version', '<=', Number(row.changes_from)).execute();
  return row;
}

/**
 * Inserts a source's new records at content version `version`: multi-row inserts in upload order,
 * so seq (paging order) follows it.
 */
async function insertRecords(db: Db, ragId: string, sourceId: string, fresh: readonly CandidateRecord[], at: string, version: number): Promise<void> {
  for (const batch of chunks(fresh)) {
    await db
      .insertInto('records')
      .values(
        batch.map((r) => ({
          record_id: r.recordId,
          rag_id: ragId,
          source_id: sourceId,
          kind: r.kind,
          title: r.title,
          text: r.text,
          fingerprint: r.fingerprint,
          created_at: at,
          content_version: version,
        })),
      )
      .execute();
  }
}

function page<T>(rows: Row[], limit: number, map: (row: Row) => T) {
  const more = rows.length > limit;
  const items = rows.slice(0, limit);
  // seq is int8 on PostgreSQL, which node-pg returns as a string: the cursor encodes it verbatim.
  return { items: items.map(map), nextCursor: more ? encodeCursor(items.at(-1)?.seq as string) : null };
}

export class SqlKnowledgeStore implements KnowledgeStore {
  constructor(private readonly ctx: SqlContext) {}

  private get db(): Db {
    return this.ctx.db;
  }

  async createKnowledgeBase(input: NewKnowledgeBase, maxActive: number): Promise<CreateKnowledgeBaseResult> {
    return this.ctx.write(async (tx): Promise<CreateKnowledgeBaseResult> => {
      // The acting account's row is locked first: an adoption of it (which locks it too) is then
      // either wholly before this creation or wholly after it. An agent adopted with 'own' access
      // creates into the adopting account, whose row then serialises the count. (A missing account
      // fails on the foreign key at insert.)
      const actor = await this.ctx.lockRow(tx.selectFrom('accounts').select('adopted_into').where('account_id', '=', input.ownerId)).executeTakeFirst();
      const adoptedInto = typeof actor?.adopted_into === 'string' ? actor.adopted_into : null;
      const ownerId = adoptedInto ?? input.ownerId;
      if (adoptedInto) await this.ctx.lockRow(tx.selectFrom('accounts').select('account_id').where('account_id', '=', ownerId)).execute();
      const counted = await tx.selectFrom('knowledge_bases').select((eb) => eb.fn.countAll().as('n')).where('owner_id', '=', ownerId).executeTakeFirst();
      const n = Number(counted?.n ?? 0);
      if (n >= maxActive) return { kind: 'limit_reached', active: n };
      const at = now();
      const inserted = await tx
        .insertInto('knowledge_bases')
        .values({
          rag_id: input.ragId,
          owner_id: ownerId,
          created_by: adoptedInto ? input.ownerId : null,
          bot_name: input.botName,
          description: input.description,
          greeting: input.greeting,
          fallback_message: input.fallbackMessage ?? null,
          synonyms: synonymsColumn(input.synonyms),
          starter_questions: starterQuestionsColumn(input.starterQuestions),
          theme: JSON.stringify(input.theme),
          created_at: at,
          updated_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { kind: 'created', knowledgeBase: toKnowledgeBase(inserted as Row) };
    });
  }

  async listKnowledgeBases(ownerId: string): Promise<KnowledgeBase[]> {
    const rows = await this.db.selectFrom('knowledge_bases').selectAll().where(reaches(ownerId)).orderBy('created_at').orderBy('rag_id').execute();
    return rows.map((row) => toKnowledgeBase(row as Row));
  }

  async getKnowledgeBase(ownerId: string, ragId: string) {
    const row = await reachable(this.ctx, this.db, ownerId, ragId);
    return row ? toKnowledgeBase(row) : undefined;
  }

  findKnowledgeBase(ragId: string): MaybePromise<KnowledgeBase | undefined> {
    // SQLite: from memory until the next write (sqlite/row-cache.ts), the row itself. PostgreSQL: one primary-key read.
    const cache = this.ctx.kbCache;
    if (!cache) return this.loadKnowledgeBase(ragId);
    return cache.get(ragId, () => this.loadKnowledgeBase(ragId));
  }

  private async loadKnowledgeBase(ragId: string): Promise<KnowledgeBase | undefined> {
    const row = await this.db.selectFrom('knowledge_bases').selectAll().where('rag_id', '=', ragId).executeTakeFirst();
    return row ? frozenKnowledgeBase(toKnowledgeBase(row as Row)) : undefined;
  }

  async updateKnowledgeBase(ownerId: string, ragId: string, patch: KnowledgeBasePatch) {
    return this.ctx.write(async (tx) => {
      // Locked so two concurrent patches of different fields do not lose one another.
      const row = await reachable(this.ctx, tx, ownerId, ragId, true);
      if (!row) return undefined;
      const next = { ...toKnowledgeBase(row), ...patch };
      const updated = await tx
        .updateTable('knowledge_bases')
        .set({
          bot_name: next.botName,
          description: next.description,
          greeting: next.greeting,
          fallback_message: next.fallbackMessage,
          synonyms: synonymsColumn(next.synonyms),
          starter_questions: starterQuestionsColumn(next.starterQuestions),
          theme: JSON.stringify(next.theme),
          updated_at: now(),
        })
        .where('rag_id', '=', ragId)
        .returningAll()
        .executeTakeFirstOrThrow();
      return toKnowledgeBase(updated as Row);
    });
  }

  async noteWidgetSeen(ragId: string, sighting: WidgetSighting): Promise<boolean> {
    // One conditional statement: of concurrent first requests, exactly one changes the row.
    const result = await this.db
      .updateTable('knowledge_bases')
      .set({ widget_seen_origin: sighting.origin, widget_seen_at: sighting.at })
      .where('rag_id', '=', ragId)
      .where('widget_seen_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async deleteKnowledgeBase(ownerId: string, ragId: string): Promise<boolean> {
    // ON DELETE CASCADE removes sources, records, keys and usage in the same statement; on
    // PostgreSQL the DELETE waits for any upload holding the knowledge base's row lock.
    const result = await this.db.deleteFrom('knowledge_bases').where('rag_id', '=', ragId).where(reaches(ownerId)).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async commitSource(ownerId: string, ragId: string, source: NewSource, candidates: CandidateRecord[], maxRecords: number): Promise<CommitSourceResult> {
    return this.ctx.write(async (tx): Promise<CommitSourceResult> => {
      // The knowledge base's row lock keeps record_count and the stored fingerprints stable until commit.
      const kbRow = await reachable(this.ctx, tx, ownerId, ragId, true);
      if (!kbRow) return { kind: 'not_found' };
      const kb = toKnowledgeBase(kbRow);
      const existing = new Set<string>();
      for (const wanted of chunks([...new Set(candidates.map((c) => c.fingerprint))])) {
        const rows = await tx.selectFrom('records').select('fingerprint').where('rag_id', '=', ragId).where('fingerprint', 'in', wanted).execute();
        for (const row of rows) existing.add(row.fingerprint);
      }
      const { fresh, duplicates } = partitionCandidates(candidates, existing);
      const available = Math.max(0, maxRecords - kb.recordCount);
      if (fresh.length > available) return { kind: 'quota_exceeded', needed: fresh.length, available };
      const at = now();
      const stored = await tx
        .insertInto('sources')
        .values({
          source_id: source.sourceId,
          rag_id: ragId,
          source_name: source.sourceName,
          format: source.format,
          byte_size: source.byteSize,
          sha256: source.sha256,
          added_count: fresh.length,
          duplicate_count: duplicates.length,
          rejected_count: source.rejectedCount,
          created_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await insertRecords(tx, ragId, source.sourceId, fresh, at, kb.contentVersion + 1);
      const kbAfter = await bump(this.ctx, tx, ragId, fresh.length);
      return { kind: 'committed', source: toSource(stored as Row), duplicateFingerprints: duplicates, knowledgeBase: toKnowledgeBase(kbAfter) };
    });
  }

  async commitPageSource(ownerId: string, ragId: string, page: NewPageSource, candidates: CandidateRecord[], maxRecords: number): Promise<CommitPageResult> {
    return this.ctx.write(async (tx): Promise<CommitPageResult> => {
      // As commitSource: the knowledge base's row lock serialises every change of its records.
      const kbRow = await reachable(this.ctx, tx, ownerId, ragId, true);
      if (!kbRow) return { kind: 'not_found' };
      const kb = toKnowledgeBase(kbRow);
      const previous = (await tx.selectFrom('sources').selectAll().where('rag_id', '=', ragId).where('url', '=', page.url).executeTakeFirst()) as Row | undefined;
      if (previous && previous.sha256 === page.sha256) {
        const source = toSource(previous);
        return { kind: 'unchanged', source, added: 0, removed: 0, kept: source.addedCount, duplicateFingerprints: [], knowledgeBase: kb };
      }
      const sourceId = previous ? String(previous.source_id) : page.sourceId;
      // The page's own records: kept when the new version still has them, deleted otherwise.
      const own = previous ? await tx.selectFrom('records').select(['record_id', 'fingerprint']).where('rag_id', '=', ragId).where('source_id', '=', sourceId).execute() : [];
      const wanted = new Set(candidates.map((c) => c.fingerprint));
      const ownPrints = new Set(own.map((r) => r.fingerprint));
      const removed = own.filter((r) => !wanted.has(r.fingerprint)).map((r) => r.record_id);
      // Stored by other sources: duplicates, as for an upload.
      const elsewhere = new Set<string>();
      for (const batch of chunks([...wanted].filter((f) => !ownPrints.has(f)))) {
        const rows = await tx.selectFrom('records').select('fingerprint').where('rag_id', '=', ragId).where('fingerprint', 'in', batch).execute();
        for (const row of rows) elsewhere.add(row.fingerprint);
      }
      const kept = new Set<string>();
      const fresh: CandidateRecord[] = [];
      const duplicates: string[] = [];
      for (const candidate of candidates) {
        if (ownPrints.has(candidate.fingerprint) && !kept.has(candidate.fingerprint)) kept.add(candidate.fingerprint);
        else if (elsewhere.has(candidate.fingerprint) || kept.has(candidate.fingerprint)) duplicates.push(candidate.fingerprint);
        else {
          elsewhere.add(candidate.fingerprint);
          fresh.push(candidate);
        }
      }
      const available = Math.max(0, maxRecords - (kb.recordCount - removed.length));
      if (fresh.length > available) return { kind: 'quota_exceeded', needed: fresh.length, available };
      const at = now();
      for (const batch of chunks(removed)) await tx.deleteFrom('records').where('rag_id', '=', ragId).where('record_id', 'in', batch).execute();
      const counts = {
        source_name: page.sourceName,
        format: page.format,
        byte_size: page.byteSize,
        sha256: page.sha256,
        added_count: kept.size + fresh.length,
        duplicate_count: duplicates.length,
        rejected_count: page.rejectedCount,
      };
      const stored = previous
        ? await tx.updateTable('sources').set(counts).where('rag_id', '=', ragId).where('source_id', '=', sourceId).returningAll().executeTakeFirstOrThrow()
        : await tx
            .insertInto('sources')
            .values({ source_id: sourceId, rag_id: ragId, url: page.url, created_at: at, ...counts })
            .returningAll()
            .executeTakeFirstOrThrow();
      await insertRecords(tx, ragId, sourceId, fresh, at, kb.contentVersion + 1);
      const kbAfter = await bump(this.ctx, tx, ragId, fresh.length - removed.length, removed);
      return {
        kind: previous ? 'updated' : 'added',
        source: toSource(stored as Row),
        added: fresh.length,
        removed: removed.length,
        kept: kept.size,
        duplicateFingerprints: duplicates,
        knowledgeBase: toKnowledgeBase(kbAfter),
      };
    });
  }

  async listSources(ownerId: string, ragId: string, request: PageRequest) {
    if (!(await reachable(this.ctx, this.db, ownerId, ragId))) return undefined;
    const after = decodeCursor(request.cursor) ?? 0;
    const rows = await this.db
      .selectFrom('sources')
      .selectAll()
      .where('rag_id', '=', ragId)
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(request.limit + 1)
      .execute();
    return page(rows as Row[], request.limit, toSource);
  }

  async deleteSource(ownerId: string, ragId: string, sourceId: string): Promise<boolean> {
    return this.ctx.write(async (tx) => {
      if (!(await reachable(this.ctx, tx, ownerId, ragId, true))) return false;
      // Records first, explicitly, to know which ones go (the cascade would not say).
      const removed = await tx.deleteFrom('records').where('rag_id', '=', ragId).where('source_id', '=', sourceId).returning('record_id').execute();
      const gone = await tx.deleteFrom('sources').where('rag_id', '=', ragId).where('source_id', '=', sourceId).executeTakeFirst();
      if (Number(gone.numDeletedRows) === 0) return false;
      await bump(this.ctx, tx, ragId, -removed.length, removed.map((r) => r.record_id));
      return true;
    });
  }

  async listRecords(ownerId: string, ragId: string, request: PageRequest & { sourceId?: string | undefined }) {
    if (!(await reachable(this.ctx, this.db, ownerId, ragId))) return undefined;
    const after = decodeCursor(request.cursor) ?? 0;
    let query = this.db.selectFrom('records').select(RECORD_COLUMNS).where('rag_id', '=', ragId);
    if (request.sourceId) query = query.where('source_id', '=', request.sourceId);
    const rows = await query
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(request.limit + 1)
      .execute();
    return page(rows as Row[], request.limit, toRecord);
  }

  async deleteRecord(ownerId: string, ragId: string, recordId: string): Promise<boolean> {
    return this.ctx.write(async (tx) => {
      if (!(await reachable(this.ctx, tx, ownerId, ragId, true))) return false;
      const gone = await tx.deleteFrom('records').where('rag_id', '=', ragId).where('record_id', '=', recordId).executeTakeFirst();
      if (Number(gone.numDeletedRows) === 0) return false;
      await bump(this.ctx, tx, ragId, -1, [recordId]);
      return true;
    });
  }

  allRecords(ragId: string) {
    return this.recordsOf(this.db, ragId);
  }

  /**
   * In pages of `SNAPSHOT_PAGE` records, each its own statement, with other work let run between
   * them (issue 14: 100,000 records read by one statement held the HTTP thread ~0.5 s on SQLite).
   * The pages are one state when the content version is the same before and after them: every
   * change of records raises it in the same transaction. A knowledge base changed under every
   * attempt is read in one snapshot transaction instead.
   */
  async recordSnapshot(ragId: string): Promise<RecordSnapshot | undefined> {
    for (let attempt = 0; attempt < SNAPSHOT_ATTEMPTS; attempt++) {
      const before = await this.contentVersion(ragId);
      if (before === undefined) return undefined;
      const records: SourcedRecord[] = [];
      let after: number | string | undefined;
      for (;;) {
        let page = this.db.selectFrom('records as r').innerJoin('sources as s', 's.source_id', 'r.source_id').select(RECORD_COLUMNS_R).select('s.source_name').where('r.rag_id', '=', ragId);
        if (after !== undefined) page = page.where('r.seq', '>', after as number);
        const rows = await page.orderBy('r.seq').limit(SNAPSHOT_PAGE).execute();
        for (const row of rows) records.push(toSourcedRecord(row as Row));
        if (rows.length < SNAPSHOT_PAGE) break;
        after = (rows[rows.length - 1] as { seq: number | string }).seq;
        await nextTurn();
      }
      if ((await this.contentVersion(ragId)) === before) return { version: before, records };
    }
    return this.ctx.snapshot(async (tx) => {
      const kb = await tx.selectFrom('knowledge_bases').select('content_version').where('rag_id', '=', ragId).executeTakeFirst();
      if (!kb) return undefined;
      return { version: Number(kb.content_version), records: await this.recordsOf(tx, ragId) };
    });
  }

  async recordChanges(ragId: string, since: number): Promise<RecordChanges | undefined> {
    return this.ctx.snapshot(async (tx) => {
      const kb = await tx.selectFrom('knowledge_bases').select(['content_version', 'changes_from']).where('rag_id', '=', ragId).executeTakeFirst();
      const version = Number(kb?.content_version);
      if (!kb || since < Number(kb.changes_from) || since > version) return undefined;
      if (since === version) return { version, added: [], removedIds: [] };
      const added = await this.recordsOf(tx, ragId, since);
      const removed = await tx
        .selectFrom('record_removals')
        .select('record_id')
        .where('rag_id', '=', ragId)
        .where('content_version', '>', since)
        .orderBy('content_version')
        .execute();
      return { version, added, removedIds: removed.map((r) => r.record_id) };
    });
  }

  /** In parts, each read by a statement of its own (index-snapshot-parts.ts). */
  readIndexSnapshot(ragId: string): Promise<IndexSnapshot | undefined> {
    return readIndexSnapshot(this.db, ragId);
  }

  /** In parts, each written by a statement of its own, then made the stored one (index-snapshot-parts.ts). */
  writeIndexSnapshot(ragId: string, snapshot: IndexSnapshot): Promise<boolean> {
    return writeIndexSnapshot(this.ctx, ragId, snapshot);
  }

  /** The knowledge base's content version as stored (not the cached row's); undefined when it is gone. */
  private async contentVersion(ragId: string): Promise<number | undefined> {
    const kb = await this.db.selectFrom('knowledge_bases').select('content_version').where('rag_id', '=', ragId).executeTakeFirst();
    return kb ? Number(kb.content_version) : undefined;
  }

  /** The knowledge base's records with their source names, in upload order; only those written after `since` when given. */
  private async recordsOf(db: Db, ragId: string, since?: number) {
    let query = db.selectFrom('records as r').innerJoin('sources as s', 's.source_id', 'r.source_id').select(RECORD_COLUMNS_R).select('s.source_name').where('r.rag_id', '=', ragId);
    if (since !== undefined) query = query.where('r.content_version', '>', since);
    const rows = await query.orderBy('r.seq').execute();
    return rows.map((row) => toSourcedRecord(row as Row));
  }
}
