/**
 * Usage counters and unanswered questions, written in batches: one
 * transaction per batch, one multi-row upsert per table. The batch is first
 * folded to one row per key (a single INSERT … ON CONFLICT cannot touch a row
 * twice) and written in key order (two instances flushing at once lock shared
 * rows in the same order and cannot deadlock). Questions are grouped by the
 * domain's one definition of "the same question" (questionHash).
 */
import { sql } from 'kysely';
import { questionHash } from '../../knowledge/query/same-question.js';
import type { UsageDelta, UsageReport, UsageStore } from '../../ports/storage.js';
import { reaches } from './knowledge-store.js';
import { type Row, toUnanswered } from './rows.js';
import { chunks, type SqlContext } from './sql.js';

interface DailyRow {
  rag_id: string;
  day: string;
  queries: number;
  cache_hits: number;
  unanswered: number;
}

interface QuestionRow {
  rag_id: string;
  question_hash: string;
  question: string;
  count: number;
  last_asked_at: string;
}

const byKey = <T>([a]: [string, T], [b]: [string, T]) => (a < b ? -1 : a > b ? 1 : 0);

/** Sums the deltas per (knowledge base, day) and per (knowledge base, question), in key order; the latest wording wins. */
export function foldUsage(deltas: UsageDelta[]): { daily: DailyRow[]; questions: QuestionRow[] } {
  const daily = new Map<string, DailyRow>();
  const questions = new Map<string, QuestionRow & { atMs: number }>();
  for (const delta of deltas) {
    const dayKey = `${delta.ragId}\n${delta.day}`;
    const row = daily.get(dayKey);
    if (row) {
      row.queries += delta.queries;
      row.cache_hits += delta.cacheHits;
      row.unanswered += delta.unanswered;
    } else {
      daily.set(dayKey, { rag_id: delta.ragId, day: delta.day, queries: delta.queries, cache_hits: delta.cacheHits, unanswered: delta.unanswered });
    }
    const atMs = Date.parse(delta.at);
    for (const question of delta.unansweredQuestions) {
      const hash = questionHash(question);
      const key = `${delta.ragId}\n${hash}`;
      const seen = questions.get(key);
      if (!seen) {
        questions.set(key, { rag_id: delta.ragId, question_hash: hash, question, count: 1, last_asked_at: delta.at, atMs });
        continue;
      }
      seen.count += 1;
      // The latest wording wins; on a tie the later one in the batch, as a row-by-row upsert would do.
      if (!(atMs < seen.atMs)) Object.assign(seen, { question, last_asked_at: delta.at, atMs });
    }
  }
  return {
    daily: [...daily.entries()].sort(byKey).map(([, row]) => row),
    questions: [...questions.entries()].sort(byKey).map(([, { atMs: _, ...row }]) => row),
  };
}

export class SqlUsageStore implements UsageStore {
  constructor(private readonly ctx: SqlContext) {}

  async recordUsage(deltas: UsageDelta[]): Promise<void> {
    if (deltas.length === 0) return;
    const ragIds = [...new Set(deltas.map((d) => d.ragId))].sort();
    // Only usage tables are written: SQLite's cached knowledge-base rows stay valid.
    await this.ctx.writeBesideKnowledgeBases(async (tx) => {
      // On PostgreSQL FOR KEY SHARE keeps these knowledge bases from being deleted until commit (it
      // does not wait for uploads or key changes, which lock FOR NO KEY UPDATE); one deleted
      // meanwhile is not returned, so its deltas are dropped rather than failing the whole batch on
      // a foreign key. On SQLite the write transaction already excludes the delete.
      const live = new Set<string>();
      for (const batch of chunks(ragIds)) {
        const query = tx.selectFrom('knowledge_bases').select('rag_id').where('rag_id', 'in', batch);
        for (const row of await (this.ctx.kind === 'postgres' ? query.forKeyShare() : query).execute()) live.add(row.rag_id);
      }
      if (live.size === 0) return;
      const { daily, questions } = foldUsage(deltas.filter((d) => live.has(d.ragId)));
      for (const batch of chunks(daily)) {
        await tx
          .insertInto('usage_daily')
          .values(batch)
          .onConflict((oc) =>
            oc.columns(['rag_id', 'day']).doUpdateSet((eb) => ({
              queries: eb('usage_daily.queries', '+', eb.ref('excluded.queries')),
              cache_hits: eb('usage_daily.cache_hits', '+', eb.ref('excluded.cache_hits')),
              unanswered: eb('usage_daily.unanswered', '+', eb.ref('excluded.unanswered')),
            })),
          )
          .execute();
      }
      // The stored wording and time follow the latest asking, so a batch flushed late by another instance cannot move them back.
      for (const batch of chunks(questions)) {
        await tx
          .insertInto('unanswered_questions')
          .values(batch)
          .onConflict((oc) =>
            oc.columns(['rag_id', 'question_hash']).doUpdateSet((eb) => ({
              count: eb('unanswered_questions.count', '+', eb.ref('excluded.count')),
              question: sql<string>`CASE WHEN ${eb.ref('excluded.last_asked_at')} >= ${eb.ref('unanswered_questions.last_asked_at')} THEN ${eb.ref('excluded.question')} ELSE ${eb.ref('unanswered_questions.question')} END`,
              last_asked_at: this.ctx.greatest(eb.ref('unanswered_questions.last_asked_at'), eb.ref('excluded.last_asked_at')) as never,
            })),
          )
          .execute();
      }
    });
  }

  async usage(ownerId: string, ragId: string, sinceDay: string, unansweredLimit: number): Promise<UsageReport | undefined> {
    const owned = await this.ctx.db.selectFrom('knowledge_bases').select('rag_id').where('rag_id', '=', ragId).where(reaches(ownerId)).executeTakeFirst();
    if (!owned) return undefined;
    const [days, unanswered] = await Promise.all([
      // `day` is 'YYYY-MM-DD' text compared byte-wise (COLLATE "C" on PostgreSQL), so text order is date order.
      this.ctx.db.selectFrom('usage_daily').selectAll().where('rag_id', '=', ragId).where('day', '>=', sinceDay).orderBy('day').execute(),
      this.ctx.db
        .selectFrom('unanswered_questions')
        .selectAll()
        .where('rag_id', '=', ragId)
        .orderBy('count', 'desc')
        .orderBy('last_asked_at', 'desc')
        .limit(unansweredLimit)
        .execute(),
    ]);
    return {
      days: days.map((r) => ({ day: String(r.day), queries: Number(r.queries), cacheHits: Number(r.cache_hits), unanswered: Number(r.unanswered) })),
      unanswered: unanswered.map((row) => toUnanswered(row as Row)),
    };
  }

  async dismissUnanswered(ownerId: string, ragId: string, question: string): Promise<boolean> {
    // One statement: the owner check is part of the DELETE.
    const result = await this.ctx.db
      .deleteFrom('unanswered_questions')
      .where('rag_id', '=', ragId)
      .where('question_hash', '=', questionHash(question))
      .where((eb) => eb.exists(eb.selectFrom('knowledge_bases').select('rag_id').where('rag_id', '=', ragId).where(reaches(ownerId))))
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
