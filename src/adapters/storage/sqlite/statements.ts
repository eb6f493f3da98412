/**
 * Prepared statements, compiled once per database and SQL text. Preparing
 * costs more than running most of our statements (about 13 µs of 17 µs for a
 * knowledge-base lookup, bench/breakdown.ts), and the query path runs a few
 * per request.
 */
import type Database from 'better-sqlite3';

const caches = new WeakMap<Database.Database, Map<string, Database.Statement>>();

export function prepared(db: Database.Database, sql: string): Database.Statement {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    cache.set(sql, statement);
  }
  return statement;
}
