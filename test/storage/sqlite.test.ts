import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe } from 'vitest';
import { SqliteStore } from '../../src/adapters/storage/sqlite/sqlite-store.js';
import { storeContract } from './contract.js';

describe('SQLite store contract', () => {
  storeContract(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-sqlite-'));
    return new SqliteStore(path.join(dir, 'groundwork.db'));
  });
});
