import { describe, expect, it } from 'vitest';
import type { UsageDelta, UsageStore } from '../../src/adapters/storage/port.js';
import { UsageRecorder } from '../../src/knowledge/query/usage-recorder.js';

function capturingStore(): { store: UsageStore; batches: UsageDelta[][] } {
  const batches: UsageDelta[][] = [];
  const store = {
    recordUsage: async (deltas: UsageDelta[]) => {
      batches.push(deltas);
    },
  } as unknown as UsageStore;
  return { store, batches };
}

describe('UsageRecorder', () => {
  it('counts per knowledge base and UTC day, splitting exactly at midnight, and writes ISO times', async () => {
    const { store, batches } = capturingStore();
    const recorder = new UsageRecorder(store, (error) => {
      throw error;
    });
    const midnight = Date.UTC(2026, 10, 22);
    recorder.record({ ragId: 'kb_a', at: midnight - 1, cached: false, grounded: true, question: 'q1' });
    recorder.record({ ragId: 'kb_a', at: midnight - 1000, cached: true, grounded: false, question: '  why?  ' });
    recorder.record({ ragId: 'kb_a', at: midnight, cached: false, grounded: true, question: 'q3' });
    recorder.record({ ragId: 'kb_b', at: midnight - 1, cached: false, grounded: true, question: 'q4' });
    // Back to the earlier day after the later one: the day is recomputed, not assumed.
    recorder.record({ ragId: 'kb_a', at: midnight - 2, cached: false, grounded: true, question: 'q5' });
    await recorder.close();

    expect(batches).toHaveLength(1);
    const byKey = new Map(batches[0]?.map((d) => [`${d.ragId}/${d.day}`, d]));
    expect(byKey.get('kb_a/2026-11-21')).toEqual({
      ragId: 'kb_a',
      day: '2026-11-21',
      queries: 3,
      cacheHits: 1,
      unanswered: 1,
      unansweredQuestions: ['why?'],
      at: new Date(midnight - 2).toISOString(),
    });
    expect(byKey.get('kb_a/2026-11-22')).toMatchObject({ queries: 1, at: '2026-11-22T00:00:00.000Z' });
    expect(byKey.get('kb_b/2026-11-21')).toMatchObject({ queries: 1 });
    expect(byKey.size).toBe(3);
  });
});
