/**
 * The streams in flight (src/http/active-streams.ts): a linked list that must behave as the set of
 * streams added and not yet deleted, whatever the order of adds and deletes, and end exactly those
 * at shutdown.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ActiveStream, ActiveStreams } from '../../src/http/active-streams.js';

describe('active streams', () => {
  it('holds exactly the streams added and not deleted, and drain ends each of them once (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.constant('add' as const), fc.nat(40)), { maxLength: 60 }), async (steps) => {
        const active = new ActiveStreams();
        const ended: number[] = [];
        const added: { id: number; place: ActiveStream }[] = [];
        const live = new Set<number>();
        for (const step of steps) {
          if (step === 'add') {
            const id = added.length;
            added.push({ id, place: active.add(async () => void ended.push(id)) });
            live.add(id);
          } else if (added.length > 0) {
            // Deleting again (or a stream already deleted) changes nothing.
            const { id, place } = added[step % added.length] as { id: number; place: ActiveStream };
            active.delete(place);
            live.delete(id);
          }
          expect(active.size).toBe(live.size);
        }
        await active.drain(0);
        expect(ended.sort((a, b) => a - b)).toEqual([...live].sort((a, b) => a - b));
      }),
      { numRuns: 200 },
    );
  });

  it('ignores a stream of another list', () => {
    const one = new ActiveStreams();
    const other = new ActiveStreams();
    one.add(async () => {});
    const foreign = other.add(async () => {});
    one.delete(foreign);
    expect(one.size).toBe(1);
    expect(other.size).toBe(1);
  });

  it('waits for the streams to finish on their own within the grace period, then ends the rest', async () => {
    const active = new ActiveStreams();
    const ended: string[] = [];
    const finishing = active.add(async () => void ended.push('finishing'));
    active.add(async () => void ended.push('slow'));
    setImmediate(() => active.delete(finishing));
    await active.drain(1_000);
    expect(ended).toEqual(['slow']);
  });
});
