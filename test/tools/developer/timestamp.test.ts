import { describe, expect, it } from 'vitest';
import { run } from '../../../src/tools/timestamp/core.js';
import { meta } from '../../../src/tools/timestamp/meta.js';
import { toolRefusal } from '../support.js';
import { closeThreadsAfterAll, expectFirstExampleOverApi, itRunsExamples, runnerRefusal } from './helpers.js';

closeThreadsAfterAll();

describe('timestamp', () => {
  itRunsExamples(meta, run);

  it('reads an ISO date-time without an offset as UTC', () => {
    expect(run({ value: '2026-01-31T09:00:00' }).iso).toBe('2026-01-31T09:00:00.000Z');
    expect(run({ value: '2026-01-31' }).unixSeconds).toBe(1769817600);
  });

  it('honours an explicit unit and negative times', () => {
    expect(run({ value: '1700000000', unit: 'milliseconds' }).iso).toBe('1970-01-20T16:13:20.000Z');
    expect(run({ value: '-86400' }).iso).toBe('1969-12-31T00:00:00.000Z');
  });

  it.each([['tomorrow'], ['31/01/2026'], ['1e999'], ['99999999999999999999'], ['']])('refuses "%s"', async (value) => {
    expect((await toolRefusal(() => run({ value }))).details.field).toBe('value');
  });

  it('refuses an unknown time zone', async () => {
    expect((await toolRefusal(() => run({ value: '0', timezone: 'Europe/Atlantis' }))).details.field).toBe('timezone');
  });

  it('answers 422 over the API for a bad date', async () => {
    await expectFirstExampleOverApi(meta);
    expect((await runnerRefusal('timestamp', { value: 'not a date' })).code).toBe('validation_failed');
  });
});
