/**
 * One process per SQLite database. The embedded store serves one instance:
 * its row cache, answer cache and limiters live in that process, so a second
 * process on the same files would miss the first one's writes and double the
 * limits. The lock is an exclusive SQLite transaction held open on a small
 * lock file next to the database: the operating system drops it when the
 * process ends, however it ends, so a crash never leaves a stale lock.
 */
import Database from 'better-sqlite3';

export class DataDirInUseError extends Error {
  constructor(file: string) {
    super(
      `Another Groundwork process is using ${file}. The embedded SQLite store serves one instance; ` +
        'stop the other process, give this one its own DATA_DIR, or set DATABASE_URL (PostgreSQL) to run several instances.',
    );
    this.name = 'DataDirInUseError';
  }
}

export interface DataDirLock {
  release(): void;
}

/** Takes the lock for the database at `databaseFile`, or throws DataDirInUseError at once. */
export function claimDataDir(databaseFile: string): DataDirLock {
  const lockFile = `${databaseFile}.lock`;
  const db = new Database(lockFile, { timeout: 0 });
  try {
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new DataDirInUseError(databaseFile);
    throw error;
  }
  return {
    release() {
      if (db.open) db.close();
    },
  };
}
