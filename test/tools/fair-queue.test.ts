/**
 * The per-client round-robin queue shared by the utilities' thread pool and the ingestion threads
 * (src/fair-queue.ts): order across clients, the running cap, and removal of a waiting item.
 */
import { describe, expect, it } from 'vitest';
import { FairQueue } from '../../src/fair-queue.js';

function takeAll<T>(queue: FairQueue<T>, release = true): T[] {
  const out: T[] = [];
  for (let next = queue.take(); next; next = queue.take()) {
    out.push(next.item);
    if (release) queue.release(next.client);
  }
  return out;
}

describe('FairQueue', () => {
  it('hands items out round-robin across clients, in order within each client', () => {
    const queue = new FairQueue<string>(1);
    for (const item of ['a1', 'a2', 'a3', 'a4']) queue.push('a', item);
    queue.push('b', 'b1');
    queue.push('c', 'c1');
    queue.push('b', 'b2');
    expect(queue.length).toBe(7);
    expect(takeAll(queue)).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
    expect(queue.length).toBe(0);
  });

  it('skips a client at its running cap until one of its items is released', () => {
    const queue = new FairQueue<string>(1);
    queue.push('a', 'a1');
    queue.push('a', 'a2');
    queue.push('b', 'b1');
    expect(queue.take()).toEqual({ client: 'a', item: 'a1' });
    expect(queue.take()).toEqual({ client: 'b', item: 'b1' });
    expect(queue.take()).toBeUndefined();
    expect(queue.runningOf('a')).toBe(1);
    queue.release('a');
    expect(queue.take()).toEqual({ client: 'a', item: 'a2' });
  });

  it('removes a waiting item, and its client’s turn when it was the last', () => {
    const queue = new FairQueue<string>(2);
    queue.push('a', 'a1');
    queue.push('b', 'b1');
    queue.push('a', 'a2');
    expect(queue.remove('b', 'b1')).toBe(true);
    expect(queue.remove('b', 'b1')).toBe(false);
    expect(queue.waitingOf('b')).toBe(0);
    expect(queue.length).toBe(2);
    expect(takeAll(queue, false)).toEqual(['a1', 'a2']);
    expect(queue.remove('a', 'a1')).toBe(false);
  });

  it('drains every waiting item', () => {
    const queue = new FairQueue<number>(1);
    queue.push('a', 1);
    queue.push('b', 2);
    expect(queue.drain().sort()).toEqual([1, 2]);
    expect(queue.length).toBe(0);
    expect(queue.take()).toBeUndefined();
  });
});
