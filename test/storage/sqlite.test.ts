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
