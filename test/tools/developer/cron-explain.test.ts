import { describe, expect, it } from 'vitest';
import { run } from '../../../src/tools/cron-explain/core.js';
import { meta } from '../../../src/tools/cron-explain/meta.js';
import { toolRefusal } from '../support.js';
import { closeThreadsAfterAll, expectFirstExampleOverApi, itRunsExamples, runnerRefusal } from './helpers.js';

closeThreadsAfterAll();

describe('cron-explain', () => {
  itRunsExamples(meta, run);

  it('takes six fields with seconds', () => {
    expect(run({ expression: '*/30 * * * * *', from: '2026-01-01T00:00:00Z' }).next.slice(0, 2)).toEqual(['2026-01-01T00:00:30.000Z', '2026-01-01T00:01:00.000Z']);
  });

  it('starts from now by default', () => {
    const [first] = run({ expression: '* * * * *' }).next;
    expect(new Date(first as string).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it.each([
    ['61 * * * *', /minute field "61"/],
    ['0 25 * * *', /hour field "25"/],
    ['0 0 32 * *', /day of month field "32"/],
    ['0 0 * 13 *', /month field "13"/],
    ['0 0 * * funday', /day of week field "funday"/],
    ['* * * *', /5 fields/],
    ['', /5 fields|invalid/],
  ])('names the bad field of "%s"', async (expression, message) => {
    const error = await toolRefusal(() => run({ expression, from: '2026-01-01T00:00:00Z' }));
    expect(error.details.field).toBe('expression');
    expect(error.message).toMatch(message);
  });

  it('refuses an unknown time zone and a bad start time', async () => {
    expect((await toolRefusal(() => run({ expression: '* * * * *', timezone: 'Mars/Olympus' }))).details.field).toBe('timezone');
    expect((await toolRefusal(() => run({ expression: '* * * * *', from: 'yesterday' }))).details.field).toBe('from');
  });

  it('runs over the API', async () => {
    await expectFirstExampleOverApi(meta);
    expect((await runnerRefusal('cron-explain', { expression: '99 * * * *' })).code).toBe('validation_failed');
  });
});
