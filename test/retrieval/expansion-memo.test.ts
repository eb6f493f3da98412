/**
 * The expansion memo (src/knowledge/retrieval/expansion-memo.ts) keeps expanded questions and,
 * below them, each word's matches: a new question made of words asked before must expand exactly
 * as without the memo, and a change of the index must drop what the memo kept.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExpansionMemo } from '../../src/knowledge/retrieval/expansion-memo.js';
import { type IndexableRecord, KnowledgeIndex } from '../../src/knowledge/retrieval/knowledge-index.js';
import { expandQuery } from '../../src/knowledge/retrieval/query-expansion.js';

const rec = (recordId: string, text: string): IndexableRecord => ({ recordId, title: null, text, sourceName: 'faq.txt' });

const records = [
  rec('a', 'Orders placed before 14:00 leave our warehouse the same day. Standard delivery takes 2 to 4 working days.'),
  rec('b', 'Shipping is free for orders over 60 EUR. Express shipping costs 12.90 EUR.'),
  rec('c', 'You can return any unused item within 30 days. Refunds reach your Mastercard within 5 days.'),
  rec('d', 'Versandkosten: innerhalb der EU kostenlos ab 60 EUR. Lieferzeit zwei bis vier Tage.'),
  rec('e', 'We deliver to France, Austria and the rest of the EU.'),
];

// Words of every kind a question word can be matched as: exact, variant, compound, misspelt,
// related in meaning, a place (as a name or not: "Nice", "nice"; in several words: "New York"), filler, and words nobody uses.
const WORDS = [
  'delivery', 'deliveries', 'delivry', 'shipping', 'shippping', 'ship', 'card', 'refund', 'refnd', 'return', 'swap',
  'exchange', 'Toronto', 'Canada', 'Mars', 'hi', 'thanks', 'wondering', 'partner', 'silly', 'how', 'long', 'does', 'take',
  'wat', 'somthing', 'Nice', 'nice', 'Wien', 'wien', 'express', 'Express', 'EUR', '60', 'lieferzeit', 'versand', 'frobnicate', 'cost', 'costs', 'the', '?',
  'New', 'York', 'Mexico', 'City', 'am', 'Main', 'Frankfurt', 'meny', 'retrun', 'lieferung', 'refundable',
];

const question = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }).map((words) => words.join(' '));

describe('expansion memo', () => {
  it('expands every question exactly as expandQuery does without a memo, whatever was asked before (property)', () => {
    const index = KnowledgeIndex.build(records);
    fc.assert(
      fc.property(fc.array(question, { minLength: 1, maxLength: 12 }), (questions) => {
        const memo = new ExpansionMemo(index);
        for (const q of questions) expect(memo.expand(q)).toEqual(expandQuery(q, index));
      }),
      { numRuns: 150 },
    );
  });

  it('keeps the matches of words asked before, and only as many as its bound', () => {
    const memo = new ExpansionMemo(KnowledgeIndex.build(records));
    memo.expand('hi, how long does delivery take?');
    const known = memo.wordCount;
    expect(known).toBeGreaterThan(0);
    memo.expand('how long does delivery take'); // a new question of known words: nothing to add
    expect(memo.wordCount).toBe(known);
    memo.expand('how long does my parcel take'); // one new word
    expect(memo.wordCount).toBe(known + 1);
    for (let i = 0; i < 700; i++) memo.expand(`word${i}x`);
    expect(memo.wordCount).toBeLessThanOrEqual(512);
    memo.clear();
    expect(memo.wordCount).toBe(0);
    expect(memo.size).toBe(0);
  });

  it('forgets word matches when the index changes: a word the records did not use matches once a record uses it', () => {
    const index = KnowledgeIndex.build(records);
    const viaOf = (q: string, word: string) => index.expand(q).words.find((w) => w.surface === word)?.via;
    expect(viaOf('how do I frobnicate', 'frobnicate')).toBe('none');
    index.add([rec('e', 'To frobnicate an order, open the order page.')]);
    // Another question with the same word: only the word's kept match could answer it.
    expect(viaOf('can I frobnicate my order', 'frobnicate')).toBe('exact');
    index.remove(['e']);
    expect(viaOf('please frobnicate', 'frobnicate')).toBe('none');
  });

  it('keeps a question for later requests only once it is asked a second time; the rest of its own request reuses it', () => {
    const memo = new ExpansionMemo(KnowledgeIndex.build(records));
    const first = memo.expand('how long does delivery take?');
    // The answerer expands the question the retriever just did: the same expansion, not made again.
    expect(memo.expand('how long does delivery take?')).toBe(first);
    expect(memo.size).toBe(0);
    // Asked once each, many other questions are not kept either.
    for (let i = 0; i < 20; i++) memo.expand(`is there a refund ${i}`);
    expect(memo.size).toBe(0);
    // Asked again later: expanded again (equal), and now kept.
    const second = memo.expand('how long does delivery take?');
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
    expect(memo.size).toBe(1);
    for (let i = 0; i < 20; i++) memo.expand(`can I pay by card ${i}`);
    expect(memo.expand('how long does delivery take?')).toBe(second);
    memo.clear();
    expect(memo.expand('how long does delivery take?')).not.toBe(second);
    expect(memo.size).toBe(0);
  });
});
