/**
 * What every part of the one SQL store shares: the Kysely instance, which
 * dialect it speaks, and the few places where SQLite and PostgreSQL truly
 * differ in how a rule is made exact under concurrency. Everything else is
 * written once, with Kysely's query builder.
 *
 * - Write transactions: on SQLite `BEGIN IMMEDIATE` (the driver in
 *   sqlite/dialect.ts), so a transaction holds the one write lock from its first
 *   statement and no other writer interleaves; on PostgreSQL transactions run
 *   side by side at READ COMMITTED, so a rule that reads then writes first locks
 *   the row that owns it (`lockRow`, `FOR NO KEY UPDATE`), or an advisory lock
 *   on a key with no row (`advisoryLock`: an e-mail address).
 * - The knowledge-base row read by every query comes from memory on SQLite
 *   (`kbCache`, see sqlite/row-cache.ts); PostgreSQL reads the row each time, so
 *   every instance sees a write at once.
 */
import { type Expression, type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { KnowledgeBase } from '../../knowledge/model.js';
import type { MaybePromise } from '../../maybe-promise.js';
import type { Schema } from './schema.js';

export type Db = Kysely<Schema>;
export type DialectKind = 'sqlite' | 'postgres';

/** First key of the two-key advisory locks this store takes, so they cannot collide with other applications' one-key locks. */
export const LOCK_CLASS_MIGRATE = 0x67770001;
export const LOCK_CLASS_SIGN_IN = 0x67770002;
export const LOCK_CLASS_CLAIM_MAIL = 0x67770003;

/** A cache of knowledge-base rows valid until the next write (SQLite only). */
export interface KnowledgeBaseCache {
  /** A hit answers synchronously (no promise to settle on the query path). */
  get(key: string, load: () => Promise<KnowledgeBase | undefined>): MaybePromise<KnowledgeBase | undefined>;
  /** Runs a write that changes no knowledge-base row, inside a write transaction, keeping the cached rows. */
  besideWrite<R>(write: () => Promise<R>): Promise<R>;
}

export class SqlContext {
  constructor(
    readonly kind: DialectKind,
    readonly db: Db,
    readonly kbCache?: KnowledgeBaseCache,
  ) {}

  /** Runs `work` in one write transaction (BEGIN IMMEDIATE on SQLite, see above). */
  write<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /**
   * `write` for work that changes no knowledge-base row (usage counters): on SQLite the cached
   * rows stay (sqlite/row-cache.ts). Writing one there would leave a stale row in the cache.
   */
  writeBesideKnowledgeBases<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    const cache = this.kbCache;
    return this.write((tx) => (cache ? cache.besideWrite(() => work(tx)) : work(tx)));
  }

  /**
   * Runs reads in one snapshot: REPEATABLE READ on PostgreSQL (every statement sees the same
   * committed state); on SQLite a transaction, which no writer interleaves with.
   */
  snapshot<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    return this.kind === 'postgres' ? this.db.transaction().setIsolationLevel('repeatable read').execute(work) : this.db.transaction().execute(work);
  }

  /**
   * Locks the selected rows until the transaction ends: `FOR NO KEY UPDATE` on PostgreSQL (it
   * serialises writers of the rule, but not the `FOR KEY SHARE` locks foreign-key checks take).
   * Nothing on SQLite, where the write transaction already excludes every other writer.
   */
  lockRow<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, of?: TB | TB[]): SelectQueryBuilder<DB, TB, O> {
    if (this.kind === 'sqlite') return query;
    return of === undefined ? query.forNoKeyUpdate() : query.forNoKeyUpdate(of as never);
  }

  /** `FOR UPDATE` on PostgreSQL (a concurrent taker waits, then re-checks the row); nothing on SQLite. */
  lockForUpdate<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> {
    return this.kind === 'sqlite' ? query : query.forUpdate();
  }

  /**
   * A transaction-scoped lock on (class, key) on PostgreSQL, for rules about rows that may not
   * exist yet; nothing on SQLite. Without a class, the one-key lock on `hashtext(key)` (the keys
   * earlier versions took, so instances of both versions still exclude each other during an upgrade).
   */
  async advisoryLock(tx: Db, key: string, lockClass?: number): Promise<void> {
    if (this.kind === 'sqlite') return;
    if (lockClass === undefined) await sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`.execute(tx);
    else await sql`SELECT pg_advisory_xact_lock(${lockClass}::int, hashtext(${key}))`.execute(tx);
  }

  /** The larger of two values (GREATEST on PostgreSQL, the two-argument max() on SQLite). */
  greatest<T>(a: Expression<T>, b: Expression<T>) {
    return this.kind === 'sqlite' ? sql<T>`max(${a}, ${b})` : sql<T>`GREATEST(${a}, ${b})`;
  }
}

/** Rows written per INSERT, well under SQLite's 32,766 and PostgreSQL's 65,535 parameters. */
export const ROWS_PER_INSERT = 500;

export function* chunks<T>(items: readonly T[], size = ROWS_PER_INSERT): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/** Affected rows of an UPDATE/DELETE result as a number. */
export const affected = (result: { numUpdatedRows?: bigint; numDeletedRows?: bigint } | undefined): number =>
  Number(result?.numUpdatedRows ?? result?.numDeletedRows ?? 0n);

/** Timestamps come from the application clock, so both dialects agree with the `now` values callers pass in. */
export const now = (): string => new Date().toISOString();
