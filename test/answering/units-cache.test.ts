/**
 * The answerer's cache of analysed records (issue 14, memory per knowledge base): bounded by
 * approximate bytes rather than a count of records, and emptied of what no query used for a
 * while, so a knowledge base left idle holds nothing there; a hit still returns the shared units.
 */
import { describe, expect, it } from 'vitest';
import { cachedUnitsBytes, RecordUnitsCache, recordUnits } from '../../src/knowledge/answering/units.js';
import type { RetrievedRecord } from '../../src/knowledge/answering/types.js';

const record = (i: number): RetrievedRecord => ({
  recordId: `r${i}`,
  sourceName: 'faq.json',
  title: `How long does delivery ${i} take?`,
  text: `How long does delivery ${i} take?\nOrders placed before 14:00 leave our warehouse the same day. Standard delivery takes 2 to 4 working days within the EU.`,
  kind: 'qa',
  score: 1,
});

describe('RecordUnitsCache', () => {
  it('keeps the analysed units within its byte budget, the most recently used first', () => {
    const one = cachedUnitsBytes(recordUnits(record(0), 600));
    expect(one).toBeGreaterThan(1000);
    const cache = new RecordUnitsCache({ maxBytes: one * 3.5, seenAtMost: 0 });
    for (let i = 0; i < 10; i++) cache.units(record(i), 600);
    expect(cache.size).toBe(3);
    expect(cache.heldBytes).toBeLessThanOrEqual(one * 3.5);
    const kept = cache.units(record(9), 600);
    expect(cache.units(record(9), 600)).toBe(kept);
    // r0 was dropped: analysed again, a new object.
    const again = cache.units(record(0), 600);
    expect(cache.units(record(0), 600)).toBe(again);
  });

  it('drops the entries no query used for idleMs, keeping the recently used', () => {
    let now = 0;
    const cache = new RecordUnitsCache({ idleMs: 60_000, now: () => now, seenAtMost: 0 });
    const old = cache.units(record(1), 600);
    cache.units(record(2), 600);
    now = 30_000;
    const used = cache.units(record(2), 600);
    now = 70_000;
    cache.units(record(3), 600);
    // r1 idle for 70 s: gone; r2 used 40 s ago: kept (the same units).
    expect(cache.size).toBe(2);
    expect(cache.units(record(2), 600)).toBe(used);
    expect(cache.units(record(1), 600)).not.toBe(old);
  });

  it("keeps a record's analysis only when the record comes back while its id is remembered", () => {
    const cache = new RecordUnitsCache({ seenAtMost: 2 });
    const first = cache.units(record(1), 600);
    // Analysed once: not kept, only remembered.
    expect(cache.size).toBe(0);
    const second = cache.units(record(1), 600);
    expect(second).not.toBe(first);
    // The same analysis (when each was last used is the clock's, which may tick in between).
    expect({ ...second, usedAt: 0 }).toEqual({ ...first, usedAt: 0 });
    // Came back: kept from now on.
    expect(cache.size).toBe(1);
    expect(cache.units(record(1), 600)).toBe(second);
    // The remembered ids are bounded (emptied when full): r2 is forgotten by the time it comes back.
    cache.units(record(2), 600);
    cache.units(record(3), 600);
    cache.units(record(4), 600);
    cache.units(record(2), 600);
    expect(cache.size).toBe(1);
    // A record whose text changed replaces its entry at once.
    const changed = { ...record(1), text: `${record(1).text} Express takes 1 day.` };
    const replaced = cache.units(changed, 600);
    expect(cache.units(changed, 600)).toBe(replaced);
  });
});
