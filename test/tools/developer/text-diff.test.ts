import { describe, expect, it } from 'vitest';
import { run } from '../../../src/tools/text-diff/core.js';
import { meta } from '../../../src/tools/text-diff/meta.js';
import { toolRefusal } from '../support.js';
import { closeThreadsAfterAll, expectFirstExampleOverApi, itRunsExamples, runnerRefusal } from './helpers.js';

closeThreadsAfterAll();

describe('text-diff', () => {
  itRunsExamples(meta, run);

  it('honours the context size', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace('line 10', 'LINE 10');
    const patch = run({ before, after, context: 0 }).result;
    expect(patch).toContain('@@ -11,1 +11,1 @@\n-line 10\n+LINE 10\n');
    expect(patch).not.toContain(' line 9');
  });

  it('counts an empty side as all added', () => {
    expect(run({ before: '', after: 'a\nb\n' })).toMatchObject({ added: 2, removed: 0, identical: false });
  });

  it('refuses a side over 1 MB of UTF-8', async () => {
    // 400 000 characters of 3 bytes: under the schema's length, over the byte limit.
    const error = await toolRefusal(() => run({ before: '€'.repeat(400_000), after: '' }));
    expect(error.details).toMatchObject({ field: 'before', kind: 'too_large' });
  });

  it('runs over the API and refuses bad options', async () => {
    await expectFirstExampleOverApi(meta);
    expect((await runnerRefusal('text-diff', { before: 'a', after: 'b', mode: 'char' })).code).toBe('validation_failed');
    expect((await runnerRefusal('text-diff', { before: 'a' })).code).toBe('validation_failed');
  });
});
