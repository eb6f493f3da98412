/** Usage counters and unanswered questions in SQLite, written in batches. */
import type Database from 'better-sqlite3';
import type { UsageDelta, UsageReport, UsageStore } from '../port.js';
import { questionHash, type Row, toUnanswered } from '../rows.js';
import { prepared } from './statements.js';

type Db = Database.Database;

export class SqliteUsageStore implements UsageStore {
  constructor(private readonly db: Db) {}

  async recordUsage(deltas: UsageDelta[]): Promise<void> {
    if (deltas.length === 0) return;
    const exists = prepared(this.db, 'SELECT 1 FROM knowledge_bases WHERE rag_id = ?');
    const daily = prepared(this.db, 
      `INSERT INTO usage_daily (rag_id, day, queries, cache_hits, unanswered) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (rag_id, day) DO UPDATE SET queries = queries + excluded.queries, cache_hits = cache_hits + excluded.cache_hits,
         unanswered = unanswered + excluded.unanswered`,
    );
    const question = prepared(this.db, 
      `INSERT INTO unanswered_questions (rag_id, question_hash, question, count, last_asked_at) VALUES (?, ?, ?, 1, ?)
       ON CONFLICT (rag_id, question_hash) DO UPDATE SET count = count + 1, question = excluded.question, last_asked_at = excluded.last_asked_at`,
    );
    this.db
      .transaction(() => {
        for (const delta of deltas) {
          if (!exists.get(delta.ragId)) continue;
          daily.run(delta.ragId, delta.day, delta.queries, delta.cacheHits, delta.unanswered);
          for (const q of delta.unansweredQuestions) question.run(delta.ragId, questionHash(q), q, delta.at);
        }
      })
      .immediate();
  }

  async usage(ownerId: string, ragId: string, sinceDay: string, unansweredLimit: number): Promise<UsageReport | undefined> {
    if (!prepared(this.db, 'SELECT 1 FROM knowledge_bases WHERE rag_id = ? AND owner_id = ?').get(ragId, ownerId)) return undefined;
    const days = prepared(this.db, 'SELECT * FROM usage_daily WHERE rag_id = ? AND day >= ? ORDER BY day').all(ragId, sinceDay) as Row[];
    const unanswered = this.db
      .prepare('SELECT * FROM unanswered_questions WHERE rag_id = ? ORDER BY count DESC, last_asked_at DESC LIMIT ?')
      .all(ragId, unansweredLimit) as Row[];
    return {
      days: days.map((r) => ({ day: String(r.day), queries: Number(r.queries), cacheHits: Number(r.cache_hits), unanswered: Number(r.unanswered) })),
      unanswered: unanswered.map(toUnanswered),
    };
  }

  async dismissUnanswered(ownerId: string, ragId: string, question: string): Promise<boolean> {
    if (!prepared(this.db, 'SELECT 1 FROM knowledge_bases WHERE rag_id = ? AND owner_id = ?').get(ragId, ownerId)) return false;
    return prepared(this.db, 'DELETE FROM unanswered_questions WHERE rag_id = ? AND question_hash = ?').run(ragId, questionHash(question)).changes > 0;
  }
}
