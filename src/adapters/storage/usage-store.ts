/**
 * Usage counters, unanswered questions and visitors' feedback on answers, written in batches: one
 * transaction per batch, one multi-row upsert per table. The batch is first
 * folded to one row per key (a single INSERT … ON CONFLICT cannot touch a row
 * twice) and written in key order (two instances flushing at once lock shared
 * rows in the same order and cannot deadlock). Questions are grouped by the
 * domain's one definition of "the same question" (questionHash); a follow-up together with the
 * questions it was asked after (questionInContext).
 */
import { sql } from 'kysely';
import { questionHash, questionInContext } from '../../knowledge/query/same-question.js';
import type { AskedQuestion, StoredFeedback, UsageDelta, UsageReport, UsageStore } from '../../ports/storage.js';
import { reaches } from './knowledge-store.js';
import { askedAfterOf, type Row, text, toUnanswered } from './rows.js';
import { chunks, type SqlContext } from './sql.js';

interface DailyRow {
  rag_id: string;
  day: string;
  queries: number;
  cache_hits: number;
  unanswered: number;
  helpful: number;
  unhelpful: number;
}

/** The identity of an asked question (a follow-up's includes what it was asked after). */
const hashOf = (asked: AskedQuestion): string => questionHash(questionInContext(asked.question, asked.askedAfter));

interface FeedbackRow {
  rag_id: string;
  question_hash: string;
  question: string;
  asked_after: string | null;
  /** JSON array of record ids. */
  record_ids: string;
  helpful: number;
  unhelpful: number;
  last_at: string;
}

interface QuestionRow {
  rag_id: string;
  question_hash: string;
  question: string;
  asked_after: string | null;
  count: number;
  last_asked_at: string;
}

const byKey = <T>([a]: [string, T], [b]: [string, T]) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Sums the deltas per (knowledge base, day), per (knowledge base, unanswered question) and per
 * (knowledge base, question given feedback), in key order; the latest wording (and cited records) wins.
 */
export function foldUsage(deltas: UsageDelta[]): { daily: DailyRow[]; questions: QuestionRow[]; feedback: FeedbackRow[] } {
  const daily = new Map<string, DailyRow>();
  const questions = new Map<string, QuestionRow & { atMs: number }>();
  const feedback = new Map<string, FeedbackRow & { atMs: number }>();
  for (const delta of deltas) {
    const dayKey = `${delta.ragId}\n${delta.day}`;
    const row = daily.get(dayKey);
    const helpful = delta.helpful ?? 0;
    const unhelpful = delta.unhelpful ?? 0;
    if (row) {
      row.queries += delta.queries;
      row.cache_hits += delta.cacheHits;
      row.unanswered += delta.unanswered;
      row.helpful += helpful;
      row.unhelpful += unhelpful;
    } else {
      daily.set(dayKey, { rag_id: delta.ragId, day: delta.day, queries: delta.queries, cache_hits: delta.cacheHits, unanswered: delta.unanswered, helpful, unhelpful });
    }
    const atMs = Date.parse(delta.at);
    for (const given of delta.feedback ?? []) {
      const hash = hashOf(given);
      const key = `${delta.ragId}\n${hash}`;
      const latest = { question: given.question, asked_after: given.askedAfter ?? null, record_ids: JSON.stringify(given.recordIds), last_at: delta.at, atMs };
      const seen = feedback.get(key);
      if (!seen) {
        feedback.set(key, { rag_id: delta.ragId, question_hash: hash, helpful: given.helpful, unhelpful: given.unhelpful, ...latest });
        continue;
      }
      seen.helpful += given.helpful;
      seen.unhelpful += given.unhelpful;
      if (!(atMs < seen.atMs)) Object.assign(seen, latest);
    }
    for (const asked of delta.unansweredQuestions) {
      const hash = hashOf(asked);
      const key = `${delta.ragId}\n${hash}`;
      const latest = { question: asked.question, asked_after: asked.askedAfter ?? null, last_asked_at: delta.at, atMs };
      const seen = questions.get(key);
      if (!seen) {
        questions.set(key, { rag_id: delta.ragId, question_hash: hash, count: 1, ...latest });
        continue;
      }
      seen.count += 1;
      // The latest wording wins; on a tie the later one in the batch, as a row-by-row upsert would do.
      if (!(atMs < seen.atMs)) Object.assign(seen, latest);
    }
  }
  return {
    daily: [...daily.entries()].sort(byKey).map(([, row]) => row),
    questions: [...questions.entries()].sort(byKey).map(([, { atMs: _, ...row }]) => row),
    feedback: [...feedback.entries()].sort(byKey).map(([, { atMs: _, ...row }]) => row),
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
      const { daily, questions, feedback } = foldUsage(deltas.filter((d) => live.has(d.ragId)));
      for (const batch of chunks(daily)) {
        await tx
          .insertInto('usage_daily')
          .values(batch)
          .onConflict((oc) =>
            oc.columns(['rag_id', 'day']).doUpdateSet((eb) => ({
              queries: eb('usage_daily.queries', '+', eb.ref('excluded.queries')),
              cache_hits: eb('usage_daily.cache_hits', '+', eb.ref('excluded.cache_hits')),
              unanswered: eb('usage_daily.unanswered', '+', eb.ref('excluded.unanswered')),
              helpful: eb('usage_daily.helpful', '+', eb.ref('excluded.helpful')),
              unhelpful: eb('usage_daily.unhelpful', '+', eb.ref('excluded.unhelpful')),
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
            oc.columns(['rag_id', 'question_hash']).doUpdateSet((eb) => {
              const latest = <T>(column: 'question' | 'asked_after') =>
                sql<T>`CASE WHEN ${eb.ref('excluded.last_asked_at')} >= ${eb.ref('unanswered_questions.last_asked_at')} THEN ${eb.ref(`excluded.${column}`)} ELSE ${eb.ref(`unanswered_questions.${column}`)} END`;
              return {
                count: eb('unanswered_questions.count', '+', eb.ref('excluded.count')),
                question: latest<string>('question'),
                asked_after: latest<string | null>('asked_after'),
                last_asked_at: this.ctx.greatest(eb.ref('unanswered_questions.last_asked_at'), eb.ref('excluded.last_asked_at')) as never,
              };
            }),
          )
          .execute();
      }
      // As the questions: the wording and the cited records follow the latest feedback.
      for (const batch of chunks(feedback)) {
        await tx
          .insertInto('answer_feedback')
          .values(batch)
          .onConflict((oc) =>
            oc.columns(['rag_id', 'question_hash']).doUpdateSet((eb) => {
              const latest = <T>(column: 'question' | 'asked_after' | 'record_ids') =>
                sql<T>`CASE WHEN ${eb.ref('excluded.last_at')} >= ${eb.ref('answer_feedback.last_at')} THEN ${eb.ref(`excluded.${column}`)} ELSE ${eb.ref(`answer_feedback.${column}`)} END`;
              return {
                helpful: eb('answer_feedback.helpful', '+', eb.ref('excluded.helpful')),
                unhelpful: eb('answer_feedback.unhelpful', '+', eb.ref('excluded.unhelpful')),
                question: latest<string>('question'),
                asked_after: latest<string | null>('asked_after'),
                record_ids: latest<string>('record_ids'),
                last_at: this.ctx.greatest(eb.ref('answer_feedback.last_at'), eb.ref('excluded.last_at')) as never,
              };
            }),
          )
          .execute();
      }
    });
  }

  async usage(ownerId: string, ragId: string, sinceDay: string, listLimit: number): Promise<UsageReport | undefined> {
    const owned = await this.ctx.db.selectFrom('knowledge_bases').select('rag_id').where('rag_id', '=', ragId).where(reaches(ownerId)).executeTakeFirst();
    if (!owned) return undefined;
    const [days, unanswered, feedback] = await Promise.all([
      // `day` is 'YYYY-MM-DD' text compared byte-wise (COLLATE "C" on PostgreSQL), so text order is date order.
      this.ctx.db.selectFrom('usage_daily').selectAll().where('rag_id', '=', ragId).where('day', '>=', sinceDay).orderBy('day').execute(),
      this.ctx.db
        .selectFrom('unanswered_questions')
        .selectAll()
        .where('rag_id', '=', ragId)
        .orderBy('count', 'desc')
        .orderBy('last_asked_at', 'desc')
        .limit(listLimit)
        .execute(),
      this.ctx.db
        .selectFrom('answer_feedback')
        .selectAll()
        .where('rag_id', '=', ragId)
        .where('unhelpful', '>', 0)
        .orderBy('unhelpful', 'desc')
        .orderBy('last_at', 'desc')
        .limit(listLimit)
        .execute(),
    ]);
    return {
      days: days.map((r) => ({
        day: String(r.day),
        queries: Number(r.queries),
        cacheHits: Number(r.cache_hits),
        unanswered: Number(r.unanswered),
        helpful: Number(r.helpful),
        unhelpful: Number(r.unhelpful),
      })),
      unanswered: unanswered.map((row) => toUnanswered(row as Row)),
      feedback: await this.withRecords(ragId, feedback),
    };
  }

  /** Feedback rows with their record ids resolved to the records the knowledge base still holds (one read for all). */
  private async withRecords(ragId: string, rows: readonly Row[]): Promise<StoredFeedback[]> {
    const idsOf = (row: Row): string[] => {
      try {
        const ids: unknown = JSON.parse(text(row.record_ids));
        return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
      } catch {
        return [];
      }
    };
    const ids = rows.map(idsOf);
    const wanted = [...new Set(ids.flat())];
    const found = new Map<string, StoredFeedback['records'][number]>();
    for (const batch of chunks(wanted)) {
      const records = await this.ctx.db
        .selectFrom('records')
        .innerJoin('sources', 'sources.source_id', 'records.source_id')
        .select(['records.record_id', 'records.title', 'sources.source_name'])
        .where('records.rag_id', '=', ragId)
        .where('records.record_id', 'in', batch)
        .execute();
      for (const r of records) found.set(r.record_id, { recordId: r.record_id, title: r.title ?? null, sourceName: r.source_name });
    }
    return rows.map((row, i) => ({
      question: text(row.question),
      ...askedAfterOf(row),
      helpful: Number(row.helpful),
      unhelpful: Number(row.unhelpful),
      lastAt: text(row.last_at),
      records: (ids[i] ?? []).flatMap((id) => found.get(id) ?? []),
    }));
  }

  dismissUnanswered(ownerId: string, ragId: string, asked: AskedQuestion): Promise<boolean> {
    return this.dismiss('unanswered_questions', ownerId, ragId, asked);
  }

  dismissFeedback(ownerId: string, ragId: string, asked: AskedQuestion): Promise<boolean> {
    return this.dismiss('answer_feedback', ownerId, ragId, asked);
  }

  private async dismiss(table: 'unanswered_questions' | 'answer_feedback', ownerId: string, ragId: string, asked: AskedQuestion): Promise<boolean> {
    // One statement: the owner check is part of the DELETE.
    const result = await this.ctx.db
      .deleteFrom(table)
      .where('rag_id', '=', ragId)
      .where('question_hash', '=', hashOf(asked))
      .where((eb) => eb.exists(eb.selectFrom('knowledge_bases').select('rag_id').where('rag_id', '=', ragId).where(reaches(ownerId))))
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
