/**
 * Rows read on every query (a knowledge base by id), served from memory while
 * nothing has been written. SQLite's `total_changes()` counts every row this
 * connection has inserted, updated or deleted; asking for it touches no table,
 * so it takes no lock and no system call (about 0.1 µs against about 3–10 µs
 * and two `fcntl` calls for the row itself). Any write empties the cache.
 *
 * Exact only while this connection is the database's one writer, which
 * `claimDataDir` guarantees for the files under DATA_DIR: the embedded store
 * serves one instance (several instances use PostgreSQL).
 *
 * Writes that change none of the cached rows (the usage counters, flushed every
 * few seconds) go through `besideWrite` and leave the cache as it is: otherwise
 * every flush emptied it, and with thousands of knowledge bases in use most
 * queries read their row again (~40 µs through Kysely).
 *
 * A miss is read with `read`, synchronously on the connection (a prepared
 * statement, a few µs), when no transaction is open on it: then the read sees
 * exactly the committed rows Kysely's read would, and nothing can be written
 * while it runs. Inside a transaction (its writes not yet committed, or rolled
 * back later) the miss waits for Kysely's queue with `load` instead. With more
 * knowledge bases in use than the cache holds, the oldest cached row makes
 * room (it used to empty the whole cache, so a round robin over one more
 * knowledge base than the capacity read every row through Kysely).
 */
import type Database from 'better-sqlite3';
import type { MaybePromise } from '../../../maybe-promise.js';

export class RowCache<T> {
  private readonly rows = new Map<string, T | undefined>();
  private readonly changes: Database.Statement;
  /** The change count last looked at. */
  private seen = -1;
  /** Bumped whenever the cache is emptied: a load that spans a bump is not kept. */
  private generation = 0;
  /** While above 0, a write that leaves the cached rows alone is running (`besideWrite`). */
  private beside = 0;

  constructor(
    private readonly db: Database.Database,
    private readonly capacity = 10_000,
    /** Reads a row synchronously on `db` (outside transactions only, see above); without it every miss uses `load`. */
    private readonly read?: (key: string) => T | undefined,
  ) {
    this.changes = db.prepare('SELECT total_changes()').pluck();
  }

  /** The cache's generation, after emptying it if anything was written since the last look. */
  private stamp(): number {
    const changes = this.changes.get() as number;
    if (changes !== this.seen) {
      this.seen = changes;
      if (this.beside === 0) {
        this.rows.clear();
        this.generation++;
      }
    }
    return this.generation;
  }

  /**
   * Runs `write`, which must change no row this cache holds and must run inside a write
   * transaction (it then has the one connection to itself, so every change counted meanwhile is
   * its own), without emptying the cache. Writes before it empty the cache as usual.
   */
  async besideWrite<R>(write: () => Promise<R>): Promise<R> {
    this.stamp();
    this.beside++;
    try {
      return await write();
    } finally {
      this.stamp();
      this.beside--;
    }
  }

  /**
   * The cached value for `key` (synchronously: a hit costs a map lookup and the change count), or
   * `load()`'s (cached, misses included) when absent or after any write. A loaded value is kept
   * only if nothing was written while it loaded (the load may wait for another caller's
   * transaction), so a cached row is never older than the last write.
   */
  get(key: string, load: () => Promise<T | undefined>): MaybePromise<T | undefined> {
    const before = this.stamp();
    if (this.rows.has(key)) return this.rows.get(key);
    if (this.read && !this.db.inTransaction) {
      // Synchronous: nothing is written between the stamp above and the read.
      const value = this.read(key);
      this.keep(key, value);
      return value;
    }
    return this.fill(key, before, load);
  }

  private async fill(key: string, before: number, load: () => Promise<T | undefined>): Promise<T | undefined> {
    const value = await load();
    if (this.stamp() !== before) return value;
    this.keep(key, value);
    return value;
  }

  private keep(key: string, value: T | undefined): void {
    // The oldest row makes room (a Map iterates in insertion order).
    if (this.rows.size >= this.capacity) this.rows.delete(this.rows.keys().next().value as string);
    this.rows.set(key, value);
  }

  /** Rows held (tests). */
  get size(): number {
    return this.rows.size;
  }
}
