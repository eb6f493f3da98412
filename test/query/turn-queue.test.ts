import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { TurnQueue } from '../../src/http/turn-queue.js';

function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // burn the CPU, as retrieval and answering do
  }
}

describe('TurnQueue', () => {
  it('lets waiters go one per turn of the event loop, first come first served', async () => {
    const turns = new TurnQueue();
    const order: string[] = [];
    const runs = [0, 1, 2].map(async (i) => {
      await turns.wait();
      order.push(`start ${i}`);
      // However many microtask hops a waiter's work takes, the next waiter is not let go meanwhile.
      for (let hop = 0; hop < 50; hop++) await Promise.resolve();
      order.push(`end ${i}`);
    });
    await Promise.all(runs);
    expect(order).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2']);
    expect(turns.size).toBe(0);
  });

  it('reads the sockets between two waiters: a request arriving during one answer is served before the next answer', async () => {
    const order: string[] = [];
    const server = net.createServer((socket) => socket.on('data', () => order.push('request read')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    const client = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => client.once('connect', resolve));
    await new Promise((resolve) => setTimeout(resolve, 20)); // the server has accepted
    try {
      const turns = new TurnQueue();
      const answers = [0, 1, 2].map(async (i) => {
        await turns.wait();
        order.push(`answer ${i}`);
        busy(30);
      });
      // Arrives while the first answer is being worked out.
      setImmediate(() => client.write('GET'));
      await Promise.all(answers);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(order.indexOf('request read')).toBeGreaterThan(-1);
      expect(order.indexOf('request read')).toBeLessThan(order.indexOf('answer 2'));
    } finally {
      client.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('keeps its backlog compact under a steady stream of waiters', async () => {
    const turns = new TurnQueue();
    let done = 0;
    const all: Promise<void>[] = [];
    for (let i = 0; i < 3000; i++) all.push(turns.wait().then(() => void done++));
    await Promise.all(all);
    expect(done).toBe(3000);
    expect(turns.size).toBe(0);
  });
});
