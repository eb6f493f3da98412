/**
 * The script batch without Redis (its sender is a function): calls of one turn leave together, at
 * most `maxEntries` per send, in the order they were made; every call of a failed send fails, and a
 * reply that does not hold one entry per call fails them all rather than mismatching answers.
 * test/cache/redis-admission.test.ts runs it against a real Redis.
 */
import { describe, expect, it } from 'vitest';
import { ScriptBatch } from '../../src/adapters/redis-script-batch.js';

type Entry = [number, string[]];

function recorder(reply: (entries: Entry[]) => unknown) {
  const sends: { numKeys: string; keys: string[]; entries: Entry[] }[] = [];
  const send = async (numKeys: string, ...rest: string[]) => {
    const keys = rest.slice(0, Number(numKeys));
    const entries = JSON.parse(rest[Number(numKeys)] as string) as Entry[];
    expect(rest).toHaveLength(Number(numKeys) + 1);
    sends.push({ numKeys, keys, entries });
    return reply(entries);
  };
  return { sends, send };
}

describe('ScriptBatch', () => {
  it('sends the calls of one turn together, in order, with their keys declared', async () => {
    const { sends, send } = recorder((entries) => entries.map(([, args]) => [args.join('+')]));
    const batch = new ScriptBatch(send, 3);
    const replies = await Promise.all([
      batch.call(['a'], ['1']),
      batch.call(['b', 'c'], ['2', '']),
      batch.call([], ['3']),
      batch.call(['d'], ['4', 'x']),
    ]);
    expect(replies).toEqual([['1'], ['2+'], ['3'], ['4+x']]);
    expect(sends.map((s) => [s.numKeys, s.keys, s.entries])).toEqual([
      ['3', ['a', 'b', 'c'], [[1, ['1']], [2, ['2', '']], [0, ['3']]]],
      ['1', ['d'], [[1, ['4', 'x']]]],
    ]);
    // A call in a later turn leaves on its own.
    expect(await batch.call(['e'], ['5'])).toEqual(['5']);
    expect(sends).toHaveLength(3);
  });

  it('fails every call of a failed send, and of a reply that does not match the calls', async () => {
    const failing = new ScriptBatch(async () => Promise.reject(new Error('down')));
    const outcomes = await Promise.allSettled([failing.call(['a'], []), failing.call(['b'], [])]);
    expect(outcomes.map((o) => o.status === 'rejected' && (o.reason as Error).message)).toEqual(['down', 'down']);
    const short = new ScriptBatch(async () => [['only one']]);
    const mismatched = await Promise.allSettled([short.call(['a'], []), short.call(['b'], [])]);
    expect(mismatched.every((o) => o.status === 'rejected')).toBe(true);
    // The batch keeps working after a failure.
    const { send } = recorder((entries) => entries.map(() => ['ok']));
    const later = new ScriptBatch(send);
    expect(await later.call(['c'], [])).toEqual(['ok']);
  });
});
