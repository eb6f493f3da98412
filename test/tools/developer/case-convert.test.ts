import { describe, expect, it } from 'vitest';
import { run } from '../../../src/tools/case-convert/core.js';
import { meta } from '../../../src/tools/case-convert/meta.js';
import { toolRefusal } from '../support.js';
import { closeThreadsAfterAll, expectFirstExampleOverApi, itRunsExamples, runnerRefusal } from './helpers.js';

closeThreadsAfterAll();

describe('case-convert', () => {
  itRunsExamples(meta, run);

  it('splits non-Latin words; symbols such as emoji separate words', () => {
    expect(run({ text: 'привет мир' })).toMatchObject({ camel: 'приветМир', constant: 'ПРИВЕТ_МИР' });
    expect(run({ text: 'ΓΕΙΑ σου' }).kebab).toBe('γεια-σου');
    expect(run({ text: 'rocket 🚀 launch' }).snake).toBe('rocket_launch');
  });

  it('does not depend on a Turkish locale for I', () => {
    expect(run({ text: 'ID CARD' }).camel).toBe('idCard');
  });

  it('refuses empty text', async () => {
    expect((await toolRefusal(() => run({ text: ' \n' }))).details.field).toBe('text');
  });

  it('runs over the API', async () => {
    await expectFirstExampleOverApi(meta);
    expect((await runnerRefusal('case-convert', {})).code).toBe('validation_failed');
  });
});
