/**
 * Start-up makes the question path ready before the server listens (docs/decisions.md, "The
 * question path is loaded and warmed at start-up"): the language data every English question may
 * read is held once `start` returns, other languages' misspelling indexes are not made, and the
 * warm-up's own questions go through the answering path (answered, not only refused). Checked on
 * the compiled service in a process of its own: the test workers share modules across files, so
 * earlier tests may have loaded the data already in this one.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { warmUpAnswering } from '../../src/knowledge/query/warm-up.js';
import { LANGUAGES } from '../../src/knowledge/language/languages.js';
import type { languageDataHeld } from '../../src/knowledge/language/preload.js';
import { compiledService } from '../support/compiled-service.js';

describe('start-up warm-up', () => {
  it('holds the language data before the first question', { timeout: 150_000 }, async () => {
    const dir = await compiledService();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-warm-up-'));
    const url = (file: string) => JSON.stringify(`file://${path.join(dir, file)}`);
    const script = `
      const { languageDataHeld } = await import(${url('knowledge/language/preload.js')});
      const before = languageDataHeld();
      const { start } = await import(${url('main.js')});
      const { loadConfig } = await import(${url('config.js')});
      const running = await start(loadConfig({ DATA_DIR: ${JSON.stringify(dataDir)}, PORT: '0', HOST: '127.0.0.1', PUBLIC_URL: 'http://127.0.0.1:1', LOG_LEVEL: 'info', SECRET_KEY: 'test-secret-key-test-secret-key-0123456789' }));
      const after = languageDataHeld();
      await running.stop();
      process.stdout.write('HELD ' + JSON.stringify({ before, after }) + '\\n');
      process.exit(0);
    `;
    try {
      const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' }, timeout: 120_000 });
      expect(result.status, result.stderr).toBe(0);
      const held = JSON.parse(result.stdout.split('\n').find((line) => line.startsWith('HELD '))?.slice(5) ?? 'null') as Record<'before' | 'after', ReturnType<typeof languageDataHeld>>;
      // Nothing is read by importing the modules.
      expect(held.before).toEqual({ places: false, commonWords: [], typoIndexes: [], wordNet: false });
      expect(held.after.places).toBe(true);
      expect(held.after.wordNet).toBe(true);
      expect([...held.after.commonWords].sort()).toEqual(LANGUAGES.map((l) => l.code).sort());
      expect(held.after.typoIndexes).toEqual(['en']);
      // The start-up log says how long it took.
      const running = result.stdout.split('\n').find((line) => line.includes('Groundwork is running'));
      expect(JSON.parse(running ?? '{}').warmUpMs).toEqual(expect.any(Number));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('answers its own questions, not only refuses them', () => {
    expect(warmUpAnswering()).toBeGreaterThanOrEqual(2);
  });
});
