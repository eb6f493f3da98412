import { describe, expect, it } from 'vitest';
import { run, type GeneratedPasswords } from '../../../src/tools/password-gen/core.js';
import { meta } from '../../../src/tools/password-gen/meta.js';
import { randomIndexes } from '../../../src/tools/password-gen/random.js';
import { toolRefusal } from '../support.js';
import { closeThreadsAfterAll, expectFirstExampleOverApi, itRunsExamples, runnerRefusal } from './helpers.js';

closeThreadsAfterAll();

describe('password-gen', () => {
  itRunsExamples(meta, run);

  it('makes the asked number of passwords with one of each chosen set', () => {
    const output = run({ length: 4, count: 100 }) as GeneratedPasswords;
    expect(output.passwords).toHaveLength(100);
    for (const password of output.passwords) {
      expect(password).toHaveLength(4);
      expect(password).toMatch(/[a-z]/);
      expect(password).toMatch(/[A-Z]/);
      expect(password).toMatch(/\d/);
      expect(password).toMatch(/[^a-zA-Z\d]/);
    }
  });

  it('leaves out look-alikes', () => {
    const output = run({ length: 1024, excludeLookAlikes: true }) as GeneratedPasswords;
    expect(output.result).not.toMatch(/[Il1O0o|]/);
  });

  it('draws indexes in range and roughly uniformly', () => {
    const draws = randomIndexes(3, 30_000);
    const counts = [0, 0, 0];
    for (const i of draws) counts[i] = (counts[i] ?? 0) + 1;
    expect(Math.min(...counts)).toBeGreaterThan(9000);
    expect(draws.every((i) => i >= 0 && i < 3)).toBe(true);
  });

  it('rates a passphrase as strong', () => {
    expect(run({ mode: 'check', password: 'correct horse battery staple' })).toMatchObject({ score: 4 });
  });

  it('refuses no character sets and a missing password', async () => {
    expect((await toolRefusal(() => run({ lowercase: false, uppercase: false, digits: false, symbols: false }))).details.field).toBe('lowercase');
    expect((await toolRefusal(() => run({ mode: 'check' }))).details.field).toBe('password');
  });

  it('runs over the API and holds the limits', async () => {
    await expectFirstExampleOverApi(meta);
    expect((await runnerRefusal('password-gen', { length: 3 })).code).toBe('validation_failed');
    expect((await runnerRefusal('password-gen', { length: 1025 })).code).toBe('validation_failed');
    expect((await runnerRefusal('password-gen', { count: 101 })).code).toBe('validation_failed');
  });
});
