import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirInUseError } from '../../src/adapters/storage/sqlite/data-dir-lock.js';
import { SqliteStore } from '../../src/adapters/storage/sqlite/dialect.js';
import { storeContract } from './contract.js';

const lockProbe = new URL('./lock-probe.ts', import.meta.url).href;

describe('SQLite store contract', () => {
  storeContract(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-sqlite-'));
    return new SqliteStore(path.join(dir, 'groundwork.db'));
  });
});

describe('SQLite data directory', () => {
  it('serves one process: a second store on the same database is refused with a clear error until the first closes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-sqlite-lock-'));
    const file = path.join(dir, 'groundwork.db');
    try {
      const first = new SqliteStore(file);
      await first.migrate();
      expect(() => new SqliteStore(file)).toThrow(DataDirInUseError);
      expect(() => new SqliteStore(file)).toThrow(/DATABASE_URL/);
      // Another process is refused the same way (the lock is the operating system's, not this process's).
      const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', `import('${lockProbe}').then((m) => m.probe(${JSON.stringify(file)}))`], { encoding: 'utf8' });
      expect(child.stdout.trim()).toBe('DataDirInUseError');
      await first.close();
      const second = new SqliteStore(file);
      await second.migrate();
      await second.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SQLite knowledge-base row cache', () => {
  it('keeps cached rows through a usage flush, which writes no knowledge-base row, and still drops them on any other write', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-sqlite-rows-'));
    const store = new SqliteStore(path.join(dir, 'groundwork.db'));
    try {
      await store.migrate();
      const owner = (await store.accounts.accountForEmail('rows@example.test', 'acc_rows')).accountId;
      const ragId = 'kb_rows_cache';
      await store.knowledge.createKnowledgeBase({ ragId, ownerId: owner, botName: 'Rows', description: null, greeting: null, theme: {} }, 1000);
      const first = await store.knowledge.findKnowledgeBase(ragId);
      // A hit is the same (frozen) object; a read from the table makes a new one.
      expect(await store.knowledge.findKnowledgeBase(ragId)).toBe(first);
      await store.usage.recordUsage([{ ragId, day: '2026-11-24', queries: 2, cacheHits: 1, unanswered: 1, unansweredQuestions: [{ question: 'Mars?' }], at: '2026-11-24T10:00:00.000Z' }]);
      expect(await store.knowledge.findKnowledgeBase(ragId)).toBe(first);
      expect((await store.usage.usage(owner, ragId, '2026-11-01', 5))?.days).toEqual([{ day: '2026-11-24', queries: 2, cacheHits: 1, unanswered: 1, helpful: 0, unhelpful: 0 }]);
      // Any other write empties the cache, and the row read next is the new one.
      await store.knowledge.updateKnowledgeBase(owner, ragId, { botName: 'Renamed' });
      const renamed = await store.knowledge.findKnowledgeBase(ragId);
      expect(renamed).not.toBe(first);
      expect(renamed?.botName).toBe('Renamed');
      // A write started while a flush runs is not taken for part of it.
      await Promise.all([
        store.usage.recordUsage([{ ragId, day: '2026-11-24', queries: 1, cacheHits: 0, unanswered: 0, unansweredQuestions: [], at: '2026-11-24T11:00:00.000Z' }]),
        store.knowledge.updateKnowledgeBase(owner, ragId, { botName: 'Again' }),
        store.usage.recordUsage([{ ragId, day: '2026-11-24', queries: 1, cacheHits: 0, unanswered: 0, unansweredQuestions: [], at: '2026-11-24T12:00:00.000Z' }]),
      ]);
      expect((await store.knowledge.findKnowledgeBase(ragId))?.botName).toBe('Again');
    } finally {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SQLite write transactions', () => {
  it('let the event loop turn while a long one runs (each statement runs synchronously), and commit it whole', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-sqlite-turns-'));
    const store = new SqliteStore(path.join(dir, 'groundwork.db'));
    try {
      await store.migrate();
      const owner = (await store.accounts.accountForEmail('turns@example.test', 'acc_turns')).accountId;
      const ragId = 'kb_turns';
      await store.knowledge.createKnowledgeBase({ ragId, ownerId: owner, botName: 'Turns', description: null, greeting: null, theme: {} }, 1000);
      // 20,000 records: 40 inserts of 500 rows and 40 fingerprint look-ups, hundreds of ms on any machine.
      const candidates = Array.from({ length: 20_000 }, (_, i) => {
        const text = `Item ${i} ships within two working days and can be returned for thirty days.`;
        return { recordId: `rec_turns_${i}`, kind: 'qa' as const, title: `Item ${i}?`, text, fingerprint: `fp_turns_${i}` };
      });
      let turns = 0;
      let counting = true;
      const tick = () => {
        turns++;
        if (counting) setImmediate(tick);
      };
      setImmediate(tick);
      const result = await store.knowledge.commitSource(owner, ragId, { sourceId: 'src_turns', sourceName: 'items.json', format: 'json', byteSize: 1, sha256: 'x', rejectedCount: 0 }, candidates, 1_000_000);
      const turnsDuring = turns;
      counting = false;
      expect(result.kind).toBe('committed');
      // Without the pauses the whole transaction ran in one turn of the event loop: none in between.
      expect(turnsDuring).toBeGreaterThanOrEqual(2);
      expect((await store.knowledge.findKnowledgeBase(ragId))?.recordCount).toBe(20_000);
      expect(await store.knowledge.allRecords(ragId)).toHaveLength(20_000);
    } finally {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
