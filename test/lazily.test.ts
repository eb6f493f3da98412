import { describe, expect, it } from 'vitest';
import { lazily } from '../src/lazily.js';

describe('lazily', () => {
  it('makes the value once, on first use, and shares it', async () => {
    let made = 0;
    const value = lazily(async () => ({ n: ++made }));
    expect(made).toBe(0);
    const [a, b] = await Promise.all([value(), value()]);
    expect(a).toBe(b);
    expect(await value()).toBe(a);
    expect(made).toBe(1);
  });

  it('does not remember a failure: the next call tries again', async () => {
    let calls = 0;
    const value = lazily(async () => {
      calls++;
      if (calls === 1) throw new Error('module not loaded');
      return 'loaded';
    });
    await expect(value()).rejects.toThrow('module not loaded');
    expect(await value()).toBe('loaded');
    expect(calls).toBe(2);
  });
});
