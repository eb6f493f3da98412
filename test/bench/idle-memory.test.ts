import { describe, expect, it } from 'vitest';
import { spawnServer } from '../../bench/children.js';

describe('benchmark children: idle memory', () => {
  it('reports RSS and live bytes after full collections when started with --expose-gc, and says when it could not collect', async () => {
    const collected = await spawnServer('bare, gc', { script: 'server-bare.ts', env: {}, nodeFlags: ['--expose-gc'] });
    try {
      const memory = await collected.idleMemory();
      expect(memory.collected).toBe(true);
      expect(memory.liveBytes).toBeGreaterThan(0);
      expect(memory.rssBytes).toBeGreaterThan(memory.liveBytes);
      expect(memory.heapTotalBytes).toBeGreaterThan(0);
      // Still answers the CPU requests on the same channel.
      expect((await collected.stats()).rssBytes).toBeGreaterThan(0);
    } finally {
      await collected.stop();
    }
    const plain = await spawnServer('bare, no gc', { script: 'server-bare.ts', env: {} });
    try {
      expect((await plain.idleMemory()).collected).toBe(false);
    } finally {
      await plain.stop();
    }
  });
});
