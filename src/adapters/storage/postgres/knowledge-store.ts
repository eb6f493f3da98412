/**
 * Knowledge bases, sources and records on PostgreSQL. Transactions here run
 * side by side at READ COMMITTED, so every rule that reads-then-writes first
 * locks the row that owns it and only then reads: the account row for the KB
 * limit, the knowledge base row for its record quota and dedup (concurrent
 * uploads to one KB queue on it). The lock is `FOR NO KEY UPDATE`, not
 * `FOR UPDATE`: it still serialises those writers, but does not block the
 * `FOR KEY SHARE` locks that foreign-key checks take (inserting a session for
 * the account, a source or record for the KB).
 */
import type pg from 'pg';
import type { CandidateRecord, KnowledgeBase } from '../../../knowledge/model.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import type { CommitSourceResult, CreateKnowledgeBaseResult, KnowledgeBasePatch, KnowledgeStore, NewKnowledgeBase, NewSource, PageRequest } from '../port.js';
import { partitionCandidates, type Row, toKnowledgeBase, toRecord, toSource, toSourcedRecord } from '../rows.js';
import { now, type Queryable, transaction } from './shared.js';

/** The owner's knowledge base row, optionally locked for the rest of the transaction. */
async function owned(db: Queryable, ownerId: string, ragId: string, lock = false): Promise<Row | undefined> {
  const sql = `SELECT * FROM knowledge_bases WHERE rag_id = $1 AND owner_id = $2${lock ? ' FOR NO KEY UPDATE' : ''}`;
  return (await db.query<Row>(sql, [ragId, ownerId])).rows[0];
}

/** New content version and record count; returns the updated row so no re-read is needed. */
async function bump(db: Queryable, ragId: string, recordDelta: number): Promise<Row> {
  const { rows } = await db.query<Row>(
    `UPDATE knowledge_bases SET content_version = content_version + 1, record_count = record_count + $1, updated_at = $2::timestamptz
     WHERE rag_id = $3 RETURNING *`,
    [recordDelta, now(), ragId],
  );
  return rows[0] as Row;
}

function page<T>(rows: Row[], limit: number, map: (row: Row) => T) {
  const more = rows.length > limit;
  const items = rows.slice(0, limit);
  // seq is int8, which node-pg returns as a string: the cursor encodes it verbatim.
  return { items: items.map(map), nextCursor: more ? encodeCursor(items.at(-1)?.seq as string) : null };
}

export class PostgresKnowledgeStore implements KnowledgeStore {
  constructor(private readonly pool: pg.Pool) {}

  async createKnowledgeBase(input: NewKnowledgeBase, maxActive: number): Promise<CreateKnowledgeBaseResult> {
    return transaction(this.pool, async (client): Promise<CreateKnowledgeBaseResult> => {
      // Serialises KB creation per owner, so the count below cannot be stale.
      // (A missing account fails on the foreign key at insert, as in SQLite.)
      await client.query('SELECT 1 FROM accounts WHERE account_id = $1 FOR NO KEY UPDATE', [input.ownerId]);
      const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM knowledge_bases WHERE owner_id = $1', [input.ownerId]);
      const n = Number(rows[0]?.n ?? 0);
      if (n >= maxActive) return { kind: 'limit_reached', active: n };
      const at = now();
      const inserted = await client.query<Row>(
        `INSERT INTO knowledge_bases (rag_id, owner_id, bot_name, description, greeting, fallback_message, theme, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::timestamptz, $8::timestamptz) RETURNING *`,
        [input.ragId, input.ownerId, input.botName, input.description, input.greeting, input.fallbackMessage ?? null, JSON.stringify(input.theme), at],
      );
      return { kind: 'created', knowledgeBase: toKnowledgeBase(inserted.rows[0] as Row) };
    });
  }

  async listKnowledgeBases(ownerId: string): Promise<KnowledgeBase[]> {
    const { rows } = await this.pool.query<Row>('SELECT * FROM knowledge_bases WHERE owner_id = $1 ORDER BY created_at, rag_id', [ownerId]);
    return rows.map(toKnowledgeBase);
  }

  async getKnowledgeBase(ownerId: string, ragId: string) {
    const row = await owned(this.pool, ownerId, ragId);
    return row ? toKnowledgeBase(row) : undefined;
  }

  async findKnowledgeBase(ragId: string) {
    const row = (await this.pool.query<Row>('SELECT * FROM knowledge_bases WHERE rag_id = $1', [ragId])).rows[0];
    return row ? toKnowledgeBase(row) : undefined;
  }

  async updateKnowledgeBase(ownerId: string, ragId: string, patch: KnowledgeBasePatch) {
    return transaction(this.pool, async (client) => {
      // Locked so two concurrent patches of different fields do not lose one another.
      const row = await owned(client, ownerId, ragId, true);
      if (!row) return undefined;
      const next = { ...toKnowledgeBase(row), ...patch };
      const { rows } = await client.query<Row>(
        `UPDATE knowledge_bases SET bot_name = $1, description = $2, greeting = $3, fallback_message = $4, theme = $5::jsonb, updated_at = $6::timestamptz
         WHERE rag_id = $7 RETURNING *`,
        [next.botName, next.description, next.greeting, next.fallbackMessage, JSON.stringify(next.theme), now(), ragId],
      );
      return toKnowledgeBase(rows[0] as Row);
    });
  }

  async deleteKnowledgeBase(ownerId: string, ragId: string): Promise<boolean> {
    // ON DELETE CASCADE removes sources and records in the same statement; the
    // DELETE waits for any upload holding the KB row lock.
    const result = await this.pool.query('DELETE FROM knowledge_bases WHERE rag_id = $1 AND owner_id = $2', [ragId, ownerId]);
    return (result.rowCount ?? 0) > 0;
  }

  async commitSource(ownerId: string, ragId: string, source: NewSource, candidates: CandidateRecord[], maxRecords: number): Promise<CommitSourceResult> {
    return transaction(this.pool, async (client): Promise<CommitSourceResult> => {
      // The KB row lock makes record_count and the stored fingerprints stable
      // until commit: concurrent uploads to one KB queue here.
      const kbRow = await owned(client, ownerId, ragId, true);
      if (!kbRow) return { kind: 'not_found' };
      const kb = toKnowledgeBase(kbRow);
      const existing = new Set<string>();
      if (candidates.length > 0) {
        const wanted = [...new Set(candidates.map((c) => c.fingerprint))];
        const { rows } = await client.query<{ fingerprint: string }>(
          'SELECT fingerprint FROM records WHERE rag_id = $1 AND fingerprint = ANY($2::text[])',
          [ragId, wanted],
        );
        for (const row of rows) existing.add(row.fingerprint);
      }
      const { fresh, duplicates } = partitionCandidates(candidates, existing);
      const available = Math.max(0, maxRecords - kb.recordCount);
      if (fresh.length > available) return { kind: 'quota_exceeded', needed: fresh.length, available };
      const at = now();
      const stored = await client.query<Row>(
        `INSERT INTO sources (source_id, rag_id, source_name, format, byte_size, sha256, added_count, duplicate_count, rejected_count, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::timestamptz) RETURNING *`,
        [source.sourceId, ragId, source.sourceName, source.format, source.byteSize, source.sha256, fresh.length, duplicates.length, source.rejectedCount, at],
      );
      if (fresh.length > 0) {
        // One statement for the whole upload: arrays travel as five parameters
        // however many records there are. ORDER BY ord keeps seq in upload order.
        await client.query(
          `INSERT INTO records (record_id, rag_id, source_id, kind, title, text, fingerprint, created_at)
           SELECT r.record_id, $1, $2, r.kind, r.title, r.text, r.fingerprint, $3::timestamptz
           FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
             WITH ORDINALITY AS r (record_id, kind, title, text, fingerprint, ord)
           ORDER BY r.ord`,
          [
            ragId,
            source.sourceId,
            at,
            fresh.map((r) => r.recordId),
            fresh.map((r) => r.kind),
            fresh.map((r) => r.title),
            fresh.map((r) => r.text),
            fresh.map((r) => r.fingerprint),
          ],
        );
      }
      const kbAfter = await bump(client, ragId, fresh.length);
      return {
        kind: 'committed',
        source: toSource(stored.rows[0] as Row),
        duplicateFingerprints: duplicates,
        knowledgeBase: toKnowledgeBase(kbAfter),
      };
    });
  }

  async listSources(ownerId: string, ragId: string, request: PageRequest) {
    if (!(await owned(this.pool, ownerId, ragId))) return undefined;
    const after = decodeCursor(request.cursor) ?? 0;
    const { rows } = await this.pool.query<Row>('SELECT * FROM sources WHERE rag_id = $1 AND seq > $2 ORDER BY seq LIMIT $3', [
      ragId,
      after,
      request.limit + 1,
    ]);
    return page(rows, request.limit, toSource);
  }

  async deleteSource(ownerId: string, ragId: string, sourceId: string): Promise<boolean> {
    return transaction(this.pool, async (client) => {
      if (!(await owned(client, ownerId, ragId, true))) return false;
      // Records first, explicitly, to know how many to take off record_count
      // (the cascade from sources would not report it).
      const removed = (await client.query('DELETE FROM records WHERE rag_id = $1 AND source_id = $2', [ragId, sourceId])).rowCount ?? 0;
      const gone = (await client.query('DELETE FROM sources WHERE rag_id = $1 AND source_id = $2', [ragId, sourceId])).rowCount ?? 0;
      if (gone === 0) return false;
      await bump(client, ragId, -removed);
      return true;
    });
  }

  async listRecords(ownerId: string, ragId: string, request: PageRequest & { sourceId?: string | undefined }) {
    if (!(await owned(this.pool, ownerId, ragId))) return undefined;
    const after = decodeCursor(request.cursor) ?? 0;
    const { rows } = request.sourceId
      ? await this.pool.query<Row>('SELECT * FROM records WHERE rag_id = $1 AND source_id = $2 AND seq > $3 ORDER BY seq LIMIT $4', [
          ragId,
          request.sourceId,
          after,
          request.limit + 1,
        ])
      : await this.pool.query<Row>('SELECT * FROM records WHERE rag_id = $1 AND seq > $2 ORDER BY seq LIMIT $3', [ragId, after, request.limit + 1]);
    return page(rows, request.limit, toRecord);
  }

  async deleteRecord(ownerId: string, ragId: string, recordId: string): Promise<boolean> {
    return transaction(this.pool, async (client) => {
      if (!(await owned(client, ownerId, ragId, true))) return false;
      const gone = (await client.query('DELETE FROM records WHERE rag_id = $1 AND record_id = $2', [ragId, recordId])).rowCount ?? 0;
      if (gone === 0) return false;
      await bump(client, ragId, -1);
      return true;
    });
  }

  async allRecords(ragId: string) {
    const sql = 'SELECT r.*, s.source_name FROM records r JOIN sources s ON s.source_id = r.source_id WHERE r.rag_id = $1 ORDER BY r.seq';
    return (await this.pool.query<Row>(sql, [ragId])).rows.map(toSourcedRecord);
  }
}
