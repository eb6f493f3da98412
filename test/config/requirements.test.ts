/**
 * A suite that needs an outside service gives its tests that requirement's timeout
 * (test/support/requirements.ts): browser tests get 90 s on a busy machine, the others the config's.
 */
import { expect, it } from 'vitest';
import { chromium, describeIf } from '../support/requirements.js';

describeIf({ available: true, reason: 'nothing', testTimeoutMs: 123_000 }, 'a requirement with its own timeout', () => {
  it('gives its tests that timeout', (ctx) => {
    expect(ctx.task.timeout).toBe(123_000);
  });
});

describeIf({ available: true, reason: 'nothing' }, 'a requirement without one', () => {
  it("leaves its tests the config's", (ctx) => {
    expect(ctx.task.timeout).toBe(60_000);
  });
});

it('gives browser suites 90 s', () => {
  expect(chromium.testTimeoutMs).toBe(90_000);
});
