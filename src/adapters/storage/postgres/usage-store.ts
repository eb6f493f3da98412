/**
 * Usage counters and unanswered questions on PostgreSQL, written in batches:
 * one transaction per batch, one multi-row upsert per table. Instances flush
 * concurrently, so the batch is first folded to one row per key (a single
 * INSERT … ON CONFLICT cannot touch a row twice) and the rows are written in
 * key order (two flushes lock shared rows in the same order and cannot
 * deadlock).
 */
import type pg from 'pg';
import type { UsageDelta, UsageReport, UsageStore } from '../port.js';
import { questionHash, type Row, toUnanswered } from '../rows.js';
import { transaction } from './shared.js';

interface DailyRow {
  ragId: string;
  day: string;
  queries: number;
  cacheHits: number;
  unanswered: number;
}

interface QuestionRow {
  ragId: string;
  hash: string;
  question: string;
  count: number;
  at: string;
  atMs: number;
}

const byKey =
  <T>(key: (row: T) => string) =>
  (a: T, b: T) => {
    const x = key(a);
    const y = key(b);
    return x < y ? -1 : x > y ? 1 : 0;
  };

/** Sums the deltas per (knowledge base, day) and per (knowledge base, question), in key order. */
function fold(deltas: UsageDelta[]): { daily: DailyRow[]; questions: QuestionRow[] } {
  const daily = new Map<string, DailyRow>();
  const questions = new Map<string, QuestionRow>();
  for (const delta of deltas) {
    const dayKey = JSON.stringify([delta.ragId, delta.day]);
    const row = daily.get(dayKey);
    if (row) {
      row.queries += delta.queries;
      row.cacheHits += delta.cacheHits;
      row.unanswered += delta.unanswered;
    } else {
      daily.set(dayKey, { ragId: delta.ragId, day: delta.day, queries: delta.queries, cacheHits: delta.cacheHits, unanswered: delta.unanswered });
    }
    const atMs = Date.parse(delta.at);
    for (const question of delta.unansweredQuestions) {
      const hash = questionHash(question);
      const key = JSON.stringify([delta.ragId, hash]);
      const seen = questions.get(key);
      if (!seen) {
        questions.set(key, { ragId: delta.ragId, hash, question, count: 1, at: delta.at, atMs });
        continue;
      }
      seen.count += 1;
      // The latest wording wins; on a tie the later one in the batch, as a row-by-row upsert would do.
      if (!(atMs < seen.atMs)) Object.assign(seen, { question, at: delta.at, atMs });
    }
  }
  return {
    daily: [...daily.entries()].sort(byKey(([key]) => key)).map(([, row]) => row),
    questions: [...questions.entries()].sort(byKey(([key]) => key)).map(([, row]) => row),
  };
}

export class PostgresUsageStore implements UsageStore {
  constructor(private readonly pool: pg.Pool) {}

  async recordUsage(deltas: UsageDelta[]): Promise<void> {
    if (deltas.length === 0) return;
    const ragIds = [...new Set(deltas.map((d) => d.ragId))].sort();
    await transaction(this.pool, async (client) => {
      // FOR KEY SHARE keeps these KBs from being deleted until commit (it does
      // not wait for uploads or key changes, which lock FOR NO KEY UPDATE). A
      // KB deleted meanwhile is not returned, so its deltas are dropped here
      // rather than failing the whole batch on a foreign key — which a plain
      // join could not prevent: its snapshot may still show a KB whose delete
      // commits before the insert's foreign-key check.
      const { rows } = await client.query<{ rag_id: string }>('SELECT rag_id FROM knowledge_bases WHERE rag_id = ANY($1::text[]) FOR KEY SHARE', [ragIds]);
      const live = new Set(rows.map((r) => r.rag_id));
      if (live.size === 0) return;
      const { daily, questions } = fold(deltas.filter((d) => live.has(d.ragId)));
      // Arrays travel as five parameters however long the batch; ORDER BY ord keeps the key order.
      await client.query(
        `INSERT INTO usage_daily (rag_id, day, queries, cache_hits, unanswered)
         SELECT u.rag_id, u.day, u.queries, u.cache_hits, u.unanswered
         FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::int[]) WITH ORDINALITY AS u (rag_id, day, queries, cache_hits, unanswered, ord)
         ORDER BY u.ord
         ON CONFLICT (rag_id, day) DO UPDATE SET queries = usage_daily.queries + excluded.queries,
           cache_hits = usage_daily.cache_hits + excluded.cache_hits, unanswered = usage_daily.unanswered + excluded.unanswered`,
        [daily.map((r) => r.ragId), daily.map((r) => r.day), daily.map((r) => r.queries), daily.map((r) => r.cacheHits), daily.map((r) => r.unanswered)],
      );
      if (questions.length === 0) return;
      // The stored wording and time follow the latest asking, so a batch flushed late by another instance cannot move them back.
      await client.query(
        `INSERT INTO unanswered_questions (rag_id, question_hash, question, count, last_asked_at)
         SELECT q.rag_id, q.question_hash, q.question, q.count, q.last_asked_at
         FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::timestamptz[]) WITH ORDINALITY AS q (rag_id, question_hash, question, count, last_asked_at, ord)
         ORDER BY q.ord
         ON CONFLICT (rag_id, question_hash) DO UPDATE SET count = unanswered_questions.count + excluded.count,
           question = CASE WHEN excluded.last_asked_at >= unanswered_questions.last_asked_at THEN excluded.question ELSE unanswered_questions.question END,
           last_asked_at = GREATEST(unanswered_questions.last_asked_at, excluded.last_asked_at)`,
        [
          questions.map((q) => q.ragId),
          questions.map((q) => q.hash),
          questions.map((q) => q.question),
          questions.map((q) => q.count),
          questions.map((q) => q.at),
        ],
      );
    });
  }

  async usage(ownerId: string, ragId: string, sinceDay: string, unansweredLimit: number): Promise<UsageReport | undefined> {
    const owned = await this.pool.query('SELECT 1 FROM knowledge_bases WHERE rag_id = $1 AND owner_id = $2', [ragId, ownerId]);
    if ((owned.rowCount ?? 0) === 0) return undefined;
    const [days, unanswered] = await Promise.all([
      // `day` is 'YYYY-MM-DD' text in the "C" collation, so text order is date order.
      this.pool.query<Row>('SELECT * FROM usage_daily WHERE rag_id = $1 AND day >= $2 ORDER BY day', [ragId, sinceDay]),
      this.pool.query<Row>('SELECT * FROM unanswered_questions WHERE rag_id = $1 ORDER BY count DESC, last_asked_at DESC LIMIT $2', [ragId, unansweredLimit]),
    ]);
    return {
      days: days.rows.map((r) => ({ day: String(r.day), queries: Number(r.queries), cacheHits: Number(r.cache_hits), unanswered: Number(r.unanswered) })),
      unanswered: unanswered.rows.map(toUnanswered),
    };
  }

  async dismissUnanswered(ownerId: string, ragId: string, question: string): Promise<boolean> {
    // One statement: the owner check is part of the DELETE.
    const result = await this.pool.query(
      `DELETE FROM unanswered_questions q USING knowledge_bases kb
       WHERE q.rag_id = $1 AND q.question_hash = $2 AND kb.rag_id = q.rag_id AND kb.owner_id = $3`,
      [ragId, questionHash(question), ownerId],
    );
    return (result.rowCount ?? 0) > 0;
  }
}
