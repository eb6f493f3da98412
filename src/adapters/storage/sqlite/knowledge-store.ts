/** Knowledge bases, sources and records in SQLite. */
import type Database from 'better-sqlite3';
import type { CandidateRecord, KnowledgeBase } from '../../../knowledge/model.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import type { CommitSourceResult, CreateKnowledgeBaseResult, KnowledgeBasePatch, KnowledgeStore, NewKnowledgeBase, NewSource, PageRequest } from '../port.js';
import { partitionCandidates, type Row, toKnowledgeBase, toRecord, toSource, toSourcedRecord } from '../rows.js';
import { now } from './clock.js';
import { RowCache } from './row-cache.js';
import { prepared } from './statements.js';

type Db = Database.Database;

export class SqliteKnowledgeStore implements KnowledgeStore {
  /** Every query reads its knowledge base: from memory until the next write (see RowCache). */
  private readonly byRagId: RowCache<KnowledgeBase>;

  constructor(private readonly db: Db) {
    this.byRagId = new RowCache(db);
  }

  private owned(ownerId: string, ragId: string): Row | undefined {
    return prepared(this.db, 'SELECT * FROM knowledge_bases WHERE rag_id = ? AND owner_id = ?').get(ragId, ownerId) as Row | undefined;
  }

  private bump(ragId: string, recordDelta: number): void {
    this.db
      .prepare('UPDATE knowledge_bases SET content_version = content_version + 1, record_count = record_count + ?, updated_at = ? WHERE rag_id = ?')
      .run(recordDelta, now(), ragId);
  }

  async createKnowledgeBase(input: NewKnowledgeBase, maxActive: number): Promise<CreateKnowledgeBaseResult> {
    return this.db
      .transaction((): CreateKnowledgeBaseResult => {
        const { n } = prepared(this.db, 'SELECT count(*) AS n FROM knowledge_bases WHERE owner_id = ?').get(input.ownerId) as { n: number };
        if (n >= maxActive) return { kind: 'limit_reached', active: n };
        const at = now();
        this.db
          .prepare(
            `INSERT INTO knowledge_bases (rag_id, owner_id, bot_name, description, greeting, fallback_message, theme, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(input.ragId, input.ownerId, input.botName, input.description, input.greeting, input.fallbackMessage ?? null, JSON.stringify(input.theme), at, at);
        return { kind: 'created', knowledgeBase: toKnowledgeBase(this.owned(input.ownerId, input.ragId) as Row) };
      })
      .immediate();
  }

  async listKnowledgeBases(ownerId: string): Promise<KnowledgeBase[]> {
    const rows = prepared(this.db, 'SELECT * FROM knowledge_bases WHERE owner_id = ? ORDER BY created_at, rag_id').all(ownerId) as Row[];
    return rows.map(toKnowledgeBase);
  }

  async getKnowledgeBase(ownerId: string, ragId: string) {
    const row = this.owned(ownerId, ragId);
    return row ? toKnowledgeBase(row) : undefined;
  }

  async findKnowledgeBase(ragId: string) {
    return this.byRagId.get(ragId, () => {
      const row = prepared(this.db, 'SELECT * FROM knowledge_bases WHERE rag_id = ?').get(ragId) as Row | undefined;
      return row ? frozen(toKnowledgeBase(row)) : undefined;
    });
  }

  async updateKnowledgeBase(ownerId: string, ragId: string, patch: KnowledgeBasePatch) {
    return this.db
      .transaction(() => {
        const row = this.owned(ownerId, ragId);
        if (!row) return undefined;
        const current = toKnowledgeBase(row);
        const next = { ...current, ...patch };
        this.db
          .prepare('UPDATE knowledge_bases SET bot_name = ?, description = ?, greeting = ?, fallback_message = ?, theme = ?, updated_at = ? WHERE rag_id = ?')
          .run(next.botName, next.description, next.greeting, next.fallbackMessage, JSON.stringify(next.theme), now(), ragId);
        return toKnowledgeBase(this.owned(ownerId, ragId) as Row);
      })
      .immediate();
  }

  async deleteKnowledgeBase(ownerId: string, ragId: string): Promise<boolean> {
    // ON DELETE CASCADE removes sources and records in the same statement.
    return prepared(this.db, 'DELETE FROM knowledge_bases WHERE rag_id = ? AND owner_id = ?').run(ragId, ownerId).changes > 0;
  }

  async commitSource(ownerId: string, ragId: string, source: NewSource, candidates: CandidateRecord[], maxRecords: number): Promise<CommitSourceResult> {
    return this.db
      .transaction((): CommitSourceResult => {
        const kbRow = this.owned(ownerId, ragId);
        if (!kbRow) return { kind: 'not_found' };
        const kb = toKnowledgeBase(kbRow);
        const existing = new Set<string>();
        const lookup = prepared(this.db, 'SELECT 1 FROM records WHERE rag_id = ? AND fingerprint = ?');
        for (const candidate of candidates) {
          if (lookup.get(ragId, candidate.fingerprint)) existing.add(candidate.fingerprint);
        }
        const { fresh, duplicates } = partitionCandidates(candidates, existing);
        const available = Math.max(0, maxRecords - kb.recordCount);
        if (fresh.length > available) return { kind: 'quota_exceeded', needed: fresh.length, available };
        const at = now();
        this.db
          .prepare(
            `INSERT INTO sources (source_id, rag_id, source_name, format, byte_size, sha256, added_count, duplicate_count, rejected_count, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(source.sourceId, ragId, source.sourceName, source.format, source.byteSize, source.sha256, fresh.length, duplicates.length, source.rejectedCount, at);
        const insert = prepared(this.db, 
          'INSERT INTO records (record_id, rag_id, source_id, kind, title, text, fingerprint, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        );
        for (const record of fresh) insert.run(record.recordId, ragId, source.sourceId, record.kind, record.title, record.text, record.fingerprint, at);
        this.bump(ragId, fresh.length);
        const stored = prepared(this.db, 'SELECT * FROM sources WHERE source_id = ?').get(source.sourceId) as Row;
        return {
          kind: 'committed',
          source: toSource(stored),
          duplicateFingerprints: duplicates,
          knowledgeBase: toKnowledgeBase(this.owned(ownerId, ragId) as Row),
        };
      })
      .immediate();
  }

  async listSources(ownerId: string, ragId: string, page: PageRequest) {
    if (!this.owned(ownerId, ragId)) return undefined;
    const after = decodeCursor(page.cursor) ?? 0;
    const rows = prepared(this.db, 'SELECT * FROM sources WHERE rag_id = ? AND seq > ? ORDER BY seq LIMIT ?').all(ragId, after, page.limit + 1) as Row[];
    const more = rows.length > page.limit;
    const items = rows.slice(0, page.limit);
    return { items: items.map(toSource), nextCursor: more ? encodeCursor(items.at(-1)?.seq as number) : null };
  }

  async deleteSource(ownerId: string, ragId: string, sourceId: string): Promise<boolean> {
    return this.db
      .transaction(() => {
        if (!this.owned(ownerId, ragId)) return false;
        const removed = prepared(this.db, 'DELETE FROM records WHERE rag_id = ? AND source_id = ?').run(ragId, sourceId).changes;
        const gone = prepared(this.db, 'DELETE FROM sources WHERE rag_id = ? AND source_id = ?').run(ragId, sourceId).changes;
        if (gone === 0) return false;
        this.bump(ragId, -removed);
        return true;
      })
      .immediate();
  }

  async listRecords(ownerId: string, ragId: string, page: PageRequest & { sourceId?: string | undefined }) {
    if (!this.owned(ownerId, ragId)) return undefined;
    const after = decodeCursor(page.cursor) ?? 0;
    const rows = (
      page.sourceId
        ? this.db
            .prepare('SELECT * FROM records WHERE rag_id = ? AND source_id = ? AND seq > ? ORDER BY seq LIMIT ?')
            .all(ragId, page.sourceId, after, page.limit + 1)
        : prepared(this.db, 'SELECT * FROM records WHERE rag_id = ? AND seq > ? ORDER BY seq LIMIT ?').all(ragId, after, page.limit + 1)
    ) as Row[];
    const more = rows.length > page.limit;
    const items = rows.slice(0, page.limit);
    return { items: items.map(toRecord), nextCursor: more ? encodeCursor(items.at(-1)?.seq as number) : null };
  }

  async deleteRecord(ownerId: string, ragId: string, recordId: string): Promise<boolean> {
    return this.db
      .transaction(() => {
        if (!this.owned(ownerId, ragId)) return false;
        const gone = prepared(this.db, 'DELETE FROM records WHERE rag_id = ? AND record_id = ?').run(ragId, recordId).changes;
        if (gone === 0) return false;
        this.bump(ragId, -1);
        return true;
      })
      .immediate();
  }

  async allRecords(ragId: string) {
    const rows = this.db
      .prepare('SELECT r.*, s.source_name FROM records r JOIN sources s ON s.source_id = r.source_id WHERE r.rag_id = ? ORDER BY r.seq')
      .all(ragId) as Row[];
    return rows.map(toSourcedRecord);
  }
}

/** A cached knowledge base is shared by every reader: nobody may change it in place. */
function frozen(kb: KnowledgeBase): KnowledgeBase {
  Object.freeze(kb.theme);
  return Object.freeze(kb);
}
