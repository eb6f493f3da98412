/**
 * The SQLite knowledge-base row cache (issue 14, the 10,000-knowledge-base cliff): a miss outside a
 * transaction is read synchronously with a prepared statement instead of through Kysely; inside a
 * transaction it waits for Kysely's queue; past its capacity the oldest row makes room instead of
 * the whole cache being emptied; and the direct read maps a row exactly as the Kysely read does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/adapters/storage/sqlite/dialect.js';
import { knowledgeBaseRowReader } from '../../src/adapters/storage/sqlite/knowledge-base-row.js';
import { RowCache } from '../../src/adapters/storage/sqlite/row-cache.js';

function table(): Database.Database {
  const db = new Database(':memory:');
  db.exec('create table t (k text primary key, v text)');
  for (const k of ['a', 'b', 'c', 'd']) db.prepare('insert into t values (?, ?)').run(k, `value ${k}`);
  return db;
}

describe('RowCache', () => {
  it('reads a miss synchronously outside a transaction, and through `load` inside one', async () => {
    const db = table();
    const reads: string[] = [];
    const read = (k: string) => {
      reads.push(k);
      return (db.prepare('select v from t where k = ?').pluck().get(k) as string | undefined) ?? undefined;
    };
    const cache = new RowCache<string>(db, 10, read);
    const load = async () => 'loaded';
    // A value, not a promise: read now, and kept.
    expect(cache.get('a', load)).toBe('value a');
    expect(cache.get('a', load)).toBe('value a');
    expect(reads).toEqual(['a']);
    // A missing row is remembered as missing too.
    expect(cache.get('zz', load)).toBeUndefined();
    expect(cache.get('zz', load)).toBeUndefined();
    expect(reads).toEqual(['a', 'zz']);
    db.exec('begin');
    db.prepare("update t set v = 'uncommitted' where k = 'b'").run();
    // Inside the transaction the connection would see its uncommitted row: the miss goes to `load`,
    // which (as Kysely's queue does) reads once the transaction has ended.
    let ended = () => {};
    const transactionEnded = new Promise<void>((resolve) => (ended = resolve));
    const queued = async () => {
      await transactionEnded;
      return db.prepare('select v from t where k = ?').pluck().get('b') as string;
    };
    const pending = cache.get('b', queued);
    expect(pending).toBeInstanceOf(Promise);
    expect(reads).toEqual(['a', 'zz']);
    db.exec('rollback');
    ended();
    expect(await pending).toBe('value b');
    expect(cache.get('b', load)).toBe('value b');
    expect(reads).toEqual(['a', 'zz']);
    db.close();
  });

  it('makes room by dropping the oldest row, not every row', () => {
    const db = table();
    let reads = 0;
    const cache = new RowCache<string>(db, 3, (k) => {
      reads++;
      return k;
    });
    const load = async () => 'loaded';
    for (const k of ['a', 'b', 'c', 'd']) cache.get(k, load);
    expect(reads).toBe(4);
    expect(cache.size).toBe(3);
    // b, c and d are still there; a was dropped.
    for (const k of ['b', 'c', 'd']) cache.get(k, load);
    expect(reads).toBe(4);
    cache.get('a', load);
    expect(reads).toBe(5);
    db.close();
  });
});

describe('knowledgeBaseRowReader', () => {
  it('gives the knowledge base that the store reads through Kysely, frozen (property)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-kb-row-'));
    const file = path.join(dir, 'groundwork.db');
    const store = new SqliteStore(file);
    try {
      await store.migrate();
      const owner = (await store.accounts.accountForEmail('kb-row@example.test', 'acc_kb_row')).accountId;
      const reader = new Database(file, { readonly: true });
      const direct = knowledgeBaseRowReader(reader);
      let n = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.string({ maxLength: 40 }),
          fc.option(fc.string({ maxLength: 80 }), { nil: null }),
          fc.option(fc.string({ maxLength: 80 }), { nil: null }),
          fc.dictionary(fc.constantFrom('primaryColor', 'position', 'title'), fc.string({ maxLength: 12 })),
          async (botName, description, greeting, theme) => {
            const ragId = `kb_row_${n++}`;
            await store.knowledge.createKnowledgeBase({ ragId, ownerId: owner, botName, description, greeting, theme }, 100_000);
            const viaKysely = await store.knowledge.getKnowledgeBase(owner, ragId);
            const read = direct(ragId);
            expect(read).toEqual(viaKysely);
            expect(Object.isFrozen(read)).toBe(true);
            expect(Object.isFrozen(read?.theme)).toBe(true);
          },
        ),
        { numRuns: 40 },
      );
      expect(direct('kb_missing')).toBeUndefined();
      reader.close();
    } finally {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
