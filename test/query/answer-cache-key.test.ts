import { describe, expect, it } from 'vitest';
import { answerCacheKey } from '../../src/knowledge/query/answer-cache-key.js';
import { sameQuestion } from '../../src/knowledge/query/same-question.js';

describe('answerCacheKey', () => {
  const key = answerCacheKey('kb_1', 3, sameQuestion('What is the price?'), 'answer');

  it('is the same for equivalent queries and bounded in length', () => {
    expect(answerCacheKey('kb_1', 3, sameQuestion('  what IS the price '), 'answer')).toBe(key);
    expect(answerCacheKey('kb_1', 3, 'What is the price?', 'answer')).toBe(key); // normalised again inside
    expect(key).toBe('answer:v3:kb_1:3:answer:q:what%20is%20the%20price');
    const long = answerCacheKey('kb_1', 3, 'q'.repeat(4_000), 'answer');
    expect(long).toMatch(/^answer:v3:kb_1:3:answer:h:[0-9a-f]{64}$/);
    expect(answerCacheKey('kb_1', 3, 'Q'.repeat(4_000), 'answer')).toBe(long);
    expect(answerCacheKey('kb_1', 3, 'q'.repeat(3_999), 'answer')).not.toBe(long);
  });

  it('is the same key whatever was asked before, on this or another knowledge base, version or mode', () => {
    const first = answerCacheKey('kb_1', 3, 'price', 'answer');
    const others = [answerCacheKey('kb_2', 3, 'price', 'answer'), answerCacheKey('kb_1', '3', 'price', 'answer'), answerCacheKey('kb_1', 3, 'price', 'search:10')];
    expect(answerCacheKey('kb_1', 3, 'price', 'answer')).toBe(first);
    expect(new Set([first, ...others]).size).toBe(4 - 1); // the version as text or number is the same part
    expect(others).toEqual(['answer:v3:kb_2:3:answer:q:price', 'answer:v3:kb_1:3:answer:q:price', 'answer:v3:kb_1:3:search%3A10:q:price']);
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

describe('answerCacheKey with a context (follow-ups, fallback message)', () => {
  const plain = answerCacheKey('kb_1', 3, 'And how long does that take?', 'answer');
  const shipping = [
    { role: 'user', content: 'Do you ship to Austria?' },
    { role: 'assistant', content: 'Yes, we ship to every EU country.' },
  ];
  const repairs = [
    { role: 'user', content: 'Do you repair frames?' },
    { role: 'assistant', content: 'Yes, our workshop repairs frames.' },
  ];

  it('is the plain key when there is no context', () => {
    expect(answerCacheKey('kb_1', 3, 'And how long does that take?', 'answer', {})).toBe(plain);
    expect(answerCacheKey('kb_1', 3, 'And how long does that take?', 'answer', { conversation: [], fallbackMessage: null })).toBe(plain);
    expect(answerCacheKey('kb_1', 3, 'And how long does that take?', 'answer', { conversation: undefined, fallbackMessage: '' })).toBe(plain);
    expect(plain).toBe('answer:v3:kb_1:3:answer:q:and%20how%20long%20does%20that%20take');
  });

  it('differs for two conversations, and from the plain question', () => {
    const afterShipping = answerCacheKey('kb_1', 3, 'And how long does that take?', 'answer', { conversation: shipping });
    const afterRepairs = answerCacheKey('kb_1', 3, 'And how long does that take?', 'answer', { conversation: repairs });
    expect(afterShipping).toMatch(/^answer:v3:kb_1:3:answer:q:and%20how%20long%20does%20that%20take:c:[0-9a-f]{64}$/);
    expect(new Set([plain, afterShipping, afterRepairs]).size).toBe(3);
    // The same conversation is the same key (a second visitor asking the same way shares the answer).
    expect(answerCacheKey('kb_1', 3, 'and how long does that take', 'answer', { conversation: shipping.map((t) => ({ ...t })) })).toBe(afterShipping);
  });

  it('tells turns apart by role, order and exact text', () => {
    const key = (conversation: { role: string; content: string }[]) => answerCacheKey('kb_1', 3, 'and then?', 'answer', { conversation });
    const keys = [
      key(shipping),
      key([...shipping].reverse()),
      key(shipping.map((t) => ({ role: t.role === 'user' ? 'assistant' : 'user', content: t.content }))),
      key([{ role: 'user', content: 'Do you ship to Austria?' }]),
      key([{ role: 'user', content: 'Do you ship to Austria' }]),
      // Joining the turns' text differently is a different conversation.
      key([{ role: 'user', content: 'a","b' }]),
      key([{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }]),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('differs by the fallback message, with or without a conversation', () => {
    const own = answerCacheKey('kb_1', 3, 'And how long does that take?', 'answer', { fallbackMessage: 'Write to help@shop.example.' });
    const other = answerCacheKey('kb_1', 3, 'And how long does that take?', 'answer', { fallbackMessage: 'Call us.' });
    const both = answerCacheKey('kb_1', 3, 'And how long does that take?', 'answer', { fallbackMessage: 'Call us.', conversation: shipping });
    expect(own).toContain(':c:');
    expect(new Set([plain, own, other, both, answerCacheKey('kb_1', 3, 'And how long does that take?', 'answer', { conversation: shipping })]).size).toBe(5);
  });

  it("differs by the owner's synonyms, and is as before without any", () => {
    const question = 'Was kostet das Porto?';
    const none = answerCacheKey('kb_1', 3, question, 'answer');
    expect(answerCacheKey('kb_1', 3, question, 'answer', { synonyms: [] })).toBe(none);
    const porto = answerCacheKey('kb_1', 3, question, 'answer', { synonyms: [['Porto', 'Versandkosten']] });
    const other = answerCacheKey('kb_1', 3, question, 'answer', { synonyms: [['Porto', 'Versand']] });
    const withMessage = answerCacheKey('kb_1', 3, question, 'answer', { synonyms: [['Porto', 'Versandkosten']], fallbackMessage: 'Call us.' });
    expect(porto).toMatch(/:c:[0-9a-f]{64}$/);
    expect(new Set([none, porto, other, withMessage, answerCacheKey('kb_1', 3, question, 'answer', { fallbackMessage: 'Call us.' })]).size).toBe(5);
    // The same groups in another array are the same key.
    expect(answerCacheKey('kb_1', 3, question, 'answer', { synonyms: [['Porto', 'Versandkosten']] })).toBe(porto);
  });

  it('keeps the context part on hashed (long) questions too', () => {
    const long = 'q'.repeat(4_000);
    const bare = answerCacheKey('kb_1', 3, long, 'answer');
    const withContext = answerCacheKey('kb_1', 3, long, 'answer', { conversation: shipping });
    expect(withContext).toMatch(/^answer:v3:kb_1:3:answer:h:[0-9a-f]{64}:c:[0-9a-f]{64}$/);
    expect(withContext.startsWith(bare)).toBe(true);
  });
});
