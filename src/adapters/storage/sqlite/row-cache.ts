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
 */
import type Database from 'better-sqlite3';

export class RowCache<T> {
  private readonly rows = new Map<string, T | undefined>();
  private readonly changes: Database.Statement;
  private seen = -1;

  constructor(
    db: Database.Database,
    private readonly capacity = 10_000,
  ) {
    this.changes = db.prepare('SELECT total_changes()').pluck();
  }

  /** The cached value for `key`, or `load()`'s (cached, misses included) when absent or after any write. */
  get(key: string, load: () => T | undefined): T | undefined {
    const changes = this.changes.get() as number;
    if (changes !== this.seen) {
      this.rows.clear();
      this.seen = changes;
    }
    if (this.rows.has(key)) return this.rows.get(key);
    const value = load();
    if (this.rows.size >= this.capacity) this.rows.clear();
    this.rows.set(key, value);
    return value;
  }
}
