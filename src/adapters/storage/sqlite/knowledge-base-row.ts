/**
 * The knowledge-base row by id, read synchronously with a prepared statement: what the row cache
 * (row-cache.ts) reads on a miss outside a transaction, without Kysely's query builder, driver queue
 * and promises (~40 µs a row under the profiler against a few µs; with thousands of knowledge bases
 * in use a round robin misses the cache often). The same row and mapping as
 * `KnowledgeStore.findKnowledgeBase`'s read through Kysely (`selectAll`).
 */
import type Database from 'better-sqlite3';
import type { KnowledgeBase } from '../../../knowledge/model.js';
import { frozenKnowledgeBase, type Row, toKnowledgeBase } from '../rows.js';
import { prepared } from './statements.js';

export function knowledgeBaseRowReader(db: Database.Database): (ragId: string) => KnowledgeBase | undefined {
  return (ragId) => {
    // Prepared on first use (the table exists only once the store has migrated), then from statements.ts's cache.
    const row = prepared(db, 'select * from "knowledge_bases" where "rag_id" = ?').get(ragId) as Row | undefined;
    return row ? frozenKnowledgeBase(toKnowledgeBase(row)) : undefined;
  };
}
