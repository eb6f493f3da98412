import { afterEach, describe, expect, it } from 'vitest';
import { ToolThreadPool } from '../../src/tools/thread-pool.js';

/** About 900 kB of structured JSON: formatting it takes far longer than a millisecond on any machine. */
function bigJson(): string {
  return JSON.stringify(Array.from({ length: 12_000 }, (_, i) => ({ id: i, tags: ['a', 'b', 'c'], nested: { deep: { value: i } } })));
}

describe('the utility thread pool', () => {
  let pool: ToolThreadPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it('holds a run to its limit even when the result reaches a busy main thread before the timer fires', async () => {
    pool = new ToolThreadPool({ size: 1 });
    // Load the tool's module first, so the measured run is the formatting alone.
    expect(await pool.run({ tool: 'json-format', input: { text: '{}', indent: 2 } }, 60_000)).toMatchObject({ ok: true });
    const text = bigJson();
    const outcome = pool.run({ tool: 'json-format', input: { text, indent: 2 } }, 1);
    // The job is posted from a microtask (after the thread reports ready): let it go out first.
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
    // Keep the event loop busy with the same work the thread does: the thread's "started" and its
    // result then tend to arrive in one turn, the race that once let an overlong run through.
    for (let i = 0; i < 3; i += 1) JSON.stringify(JSON.parse(text), null, 2);
    expect(await outcome).toEqual({ ok: false, timedOut: true });
    // The thread that finished late is still usable.
    expect(await pool.run({ tool: 'json-format', input: { text: '[1]', indent: 2 } }, 60_000)).toMatchObject({ ok: true });
  });
});
