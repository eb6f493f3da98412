/** Run in a child process by sqlite.test.ts: tries to open a store and prints how it went. */
import { SqliteStore } from '../../src/adapters/storage/sqlite/dialect.js';

export function probe(file: string): void {
  try {
    new SqliteStore(file);
    process.stdout.write('opened\n');
  } catch (error) {
    process.stdout.write(`${(error as Error).name}\n`);
  }
}
