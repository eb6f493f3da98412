import { describe, expect, it } from 'vitest';
import { answerCacheKey, normaliseQuery } from '../../src/adapters/cache/key.js';

describe('normaliseQuery', () => {
  it.each([
    ['What is the price?', 'what is the price'],
    ['  What   is\tthe\nprice ?!. ', 'what is the price'],
    ['PRICE...', 'price'],
    ['price ? .', 'price'],
    ['Cafe\u0301 hours', 'café hours'], // decomposed → NFC
    ['café\u00a0hours', 'café hours'], // no-break space collapsed
    ['Where? Now.', 'where? now'], // only trailing punctuation goes
    ['¿Dónde está?', '¿dónde está'],
    ['?!.', ''],
    ['v2.0', 'v2.0'],
  ])('%j → %j', (input, expected) => {
    expect(normaliseQuery(input)).toBe(expected);
  });

  it('is idempotent', () => {
    for (const q of ['A ? .', ' x  y ! ', 'İstanbul?', 'Ǆ.']) expect(normaliseQuery(normaliseQuery(q))).toBe(normaliseQuery(q));
  });

  it('stays linear on long runs of spaces and dots', () => {
    const nasty = `${' .'.repeat(50_000)}x`;
    const started = performance.now();
    expect(normaliseQuery(nasty).endsWith('x')).toBe(true);
    expect(performance.now() - started).toBeLessThan(200);
  });
});

describe('answerCacheKey', () => {
  const key = answerCacheKey('kb_1', 3, normaliseQuery('What is the price?'), 'answer');

  it('is the same for equivalent queries and bounded in length', () => {
    expect(answerCacheKey('kb_1', 3, normaliseQuery('  what IS the price '), 'answer')).toBe(key);
    expect(answerCacheKey('kb_1', 3, 'What is the price?', 'answer')).toBe(key); // normalised again inside
    expect(key).toBe('answer:v2:kb_1:3:answer:q:what%20is%20the%20price');
    const long = answerCacheKey('kb_1', 3, 'q'.repeat(4_000), 'answer');
    expect(long).toMatch(/^answer:v2:kb_1:3:answer:h:[0-9a-f]{64}$/);
    expect(answerCacheKey('kb_1', 3, 'Q'.repeat(4_000), 'answer')).toBe(long);
    expect(answerCacheKey('kb_1', 3, 'q'.repeat(3_999), 'answer')).not.toBe(long);
  });

  it('keeps the plain and the hashed form apart', () => {
    const plain = answerCacheKey('kb_1', 3, 'x'.repeat(200), 'answer');
    const hashed = answerCacheKey('kb_1', 3, 'x'.repeat(201), 'answer');
    expect(plain).toContain(':q:');
    expect(hashed).toContain(':h:');
    // A plain query that looks like a digest is still plain.
    expect(answerCacheKey('kb_1', 3, 'h:'.padEnd(66, 'a'), 'answer')).toContain(':q:h%3A');
  });

  it('differs by knowledge base, content version, mode and query', () => {
    const others = [
      answerCacheKey('kb_2', 3, 'what is the price', 'answer'),
      answerCacheKey('kb_1', 4, 'what is the price', 'answer'),
      answerCacheKey('kb_1', 3, 'what is the price', 'search:10'),
      answerCacheKey('kb_1', 3, 'what is the cost', 'answer'),
    ];
    expect(new Set([key, ...others]).size).toBe(5);
  });

  it('cannot be confused by separators in its parts', () => {
    expect(answerCacheKey('a:b', 'c', 'q', 'm')).not.toBe(answerCacheKey('a', 'b:c', 'q', 'm'));
  });
});
