import { describe, expect, it } from 'vitest';
import { run } from '../../../src/tools/regex-tester/core.js';
import { meta } from '../../../src/tools/regex-tester/meta.js';
import { toolRefusal } from '../support.js';
import { closeThreadsAfterAll, itRunsExamples, runnerRefusal } from './helpers.js';

closeThreadsAfterAll();

describe('regex-tester', () => {
  itRunsExamples(meta, run);

  it('caps the list at 1000 matches', () => {
    const output = run({ pattern: 'a', flags: 'g', text: 'a'.repeat(1500) });
    expect(output).toMatchObject({ matchCount: 1000, truncated: true });
    expect(output.matches).toHaveLength(1000);
  });

  it('steps over astral characters whole with the u flag', () => {
    const output = run({ pattern: '', flags: 'gu', text: '😀' });
    expect(output.matches.map((m) => m.index)).toEqual([0, 2]);
  });

  it('reports groups that did not take part as null', () => {
    expect(run({ pattern: '(a)|(b)', flags: 'g', text: 'b' }).matches[0]?.groups).toEqual([null, 'b']);
  });

  it("refuses a bad pattern with the engine's message", async () => {
    const error = await toolRefusal(() => run({ pattern: '(', text: 'x' }));
    expect(error.details.field).toBe('pattern');
    expect(error.message).toMatch(/Invalid regular expression/);
  });

  it('refuses repeated flags', async () => {
    expect((await toolRefusal(() => run({ pattern: 'a', flags: 'gg', text: 'x' }))).details.field).toBe('flags');
  });

  it('is never run by the server (ReDoS)', async () => {
    expect(meta.api).toBe(false);
    expect((await runnerRefusal('regex-tester', { pattern: '(a+)+$', text: 'aaaa!' })).code).toBe('not_found');
  });
});
