import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idf } from '../../src/knowledge/retrieval/bm25.js';
import { type IndexableRecord, KnowledgeIndex } from '../../src/knowledge/retrieval/knowledge-index.js';

const rec = (recordId: string, text: string, title: string | null = null): IndexableRecord => ({ recordId, title, text, sourceName: 'test.txt' });

const ids = (index: KnowledgeIndex, q: string) => index.search(q, 10).map((h) => h.recordId);

describe('KnowledgeIndex ranking', () => {
  it('ranks an exact term match above a partial one', () => {
    const index = KnowledgeIndex.build([rec('a', 'Our shipping takes five days.'), rec('b', 'Express shipping to Canada takes two days.')]);
    expect(ids(index, 'shipping to Canada')).toEqual(['b', 'a']);
  });

  it('boosts a title match over the same word in the text', () => {
    const index = KnowledgeIndex.build([
      rec('body', 'Questions about warranty claims and how the warranty works go to support.', 'Contact'),
      rec('title', 'Claims go through the online form within two years.', 'Warranty'),
    ]);
    expect(ids(index, 'warranty')[0]).toBe('title');
  });

  it('weighs a Q&A question most', () => {
    const index = KnowledgeIndex.build([
      rec('q1', 'How do I return an item?\nSend it back within 30 days; a refund follows.', 'How do I return an item?'),
      rec('q2', 'Can I get a refund?\nYes, once the item arrives back.', 'Can I get a refund?'),
    ]);
    expect(ids(index, 'refund')[0]).toBe('q2');
  });

  it('matches stems, diacritics and numbers', () => {
    const index = KnowledgeIndex.build([rec('r', 'Each refund is issued once.'), rec('c', 'The café opens at 9.'), rec('n', 'Order 1234 shipped.')]);
    expect(ids(index, 'refunds')).toEqual(['r']);
    expect(ids(index, 'CAFE')).toEqual(['c']);
    expect(ids(index, 'order 1234')[0]).toBe('n');
    expect(ids(index, '1234')).toEqual(['n']);
  });

  it('finds Chinese and Japanese records through bigrams', () => {
    const index = KnowledgeIndex.build([
      rec('zh', '我们的退货政策是三十天内可以退货。'),
      rec('ja', '送料は全国一律五百円です。'),
      rec('en', 'Returns within thirty days.'),
    ]);
    expect(ids(index, '退货政策')[0]).toBe('zh');
    expect(ids(index, '送料はいくらですか')[0]).toBe('ja');
    expect(ids(index, '退')).toEqual(['zh']);
  });

  it('breaks ties by record order and respects the limit', () => {
    const index = KnowledgeIndex.build([rec('x', 'same words here'), rec('y', 'same words here'), rec('z', 'same words here')]);
    expect(ids(index, 'words')).toEqual(['x', 'y', 'z']);
    expect(index.search('words', 2).map((h) => h.recordId)).toEqual(['x', 'y']);
    expect(index.search('words', 0)).toEqual([]);
    expect(index.search('words', Number.NaN)).toEqual([]);
  });
});

describe('KnowledgeIndex edge cases', () => {
  it('handles 0, 1 and 2 records with finite, positive scores', () => {
    expect(KnowledgeIndex.build([]).search('anything')).toEqual([]);
    for (const records of [[rec('a', 'alpha beta')], [rec('a', 'alpha beta'), rec('b', 'alpha gamma')]]) {
      const hits = KnowledgeIndex.build(records).search('alpha');
      expect(hits).toHaveLength(records.length);
      for (const h of hits) expect(Number.isFinite(h.score) && h.score > 0).toBe(true);
    }
    expect(idf(0, 0)).toBeGreaterThan(0);
    expect(idf(2, 2)).toBeGreaterThan(0);
  });

  it('returns nothing for an empty query and searches a stop-word-only query with its stop-words', () => {
    const index = KnowledgeIndex.build([rec('band', 'The Who played live.'), rec('other', 'A quiet evening.')]);
    expect(index.search('')).toEqual([]);
    expect(index.search('   ?? ')).toEqual([]);
    expect(ids(index, 'The Who')[0]).toBe('band');
  });

  it('ignores stop-words when the query has content terms', () => {
    const index = KnowledgeIndex.build([rec('stop', 'what is the of and to in it'), rec('hit', 'Gift cards never expire.')]);
    expect(ids(index, 'what is the gift card')).toEqual(['hit']);
  });

  it('never throws on hostile queries', () => {
    const index = KnowledgeIndex.build([rec('a', 'Plain text about orders.'), rec('b', 'مرحبا بالعالم')]);
    const queries = ['x'.repeat(10_000), 'orders '.repeat(1500), '🎉🔥👩‍👩‍👧', '\u202eمرحبا\u202c', '\u0000\u0007\u001b[31m', '\ud800', '(((((', '.*+?[]'];
    for (const q of queries) expect(() => index.search(q, 5)).not.toThrow();
    expect(ids(index, '\u202eمرحبا\u202c')).toEqual(['b']);
  });

  it('replaces a record added again under the same id', () => {
    const index = KnowledgeIndex.build([rec('a', 'old words')]);
    index.add([rec('a', 'new words')]);
    expect(index.size).toBe(1);
    expect(index.search('old')).toEqual([]);
    expect(ids(index, 'new')).toEqual(['a']);
  });
});

describe('KnowledgeIndex statistics', () => {
  it('keeps statistics per index (tenant isolation)', () => {
    const shop = KnowledgeIndex.build([rec('1', 'refund policy'), rec('2', 'shipping policy'), rec('3', 'refund times')]);
    const blog = KnowledgeIndex.build([rec('1', 'a refund story'), rec('2', 'travel notes'), rec('3', 'recipes'), rec('4', 'more recipes')]);
    expect(shop.idf('refund')).not.toBe(blog.idf('refund'));
    expect(shop.idf('refund')).toBeCloseTo(idf(3, 2), 12);
    expect(blog.idf('refund')).toBeCloseTo(idf(4, 1), 12);
    // Building a second index does not change the first one's scores.
    const before = shop.search('refund policy');
    KnowledgeIndex.build([rec('9', 'refund refund refund')]);
    expect(shop.search('refund policy')).toEqual(before);
  });

  const word = fc.constantFrom('refund', 'refunds', 'shipping', 'order', 'café', 'cafe', 'the', 'price', '42', '退货', 'days', 'return');
  const text = fc.array(word, { minLength: 0, maxLength: 12 }).map((w) => w.join(' '));
  const records = fc.uniqueArray(
    fc.record({ recordId: fc.string({ minLength: 1, maxLength: 4 }), title: fc.option(text, { nil: null }), text, sourceName: fc.constant('s') }),
    { selector: (r) => r.recordId, maxLength: 12 },
  );

  it('gives the same scores after remove + re-add as a fresh build (property)', () => {
    fc.assert(
      fc.property(records, fc.array(fc.nat(), { maxLength: 6 }), fc.array(word, { minLength: 1, maxLength: 4 }), (recs, picks, q) => {
        const index = KnowledgeIndex.build(recs, { language: 'en' });
        const removed = [...new Set(picks.map((p) => recs[p % Math.max(1, recs.length)]).filter((r) => r !== undefined))];
        index.remove(removed.map((r) => r.recordId));
        expect(index.size).toBe(recs.length - removed.length);
        index.add(removed);
        const kept = recs.filter((r) => !removed.includes(r));
        const fresh = KnowledgeIndex.build([...kept, ...removed], { language: 'en' });
        const query = q.join(' ');
        expect(index.search(query, 50)).toEqual(fresh.search(query, 50));
        for (const w of q) expect(index.idf(w)).toBe(fresh.idf(w));
      }),
      { numRuns: 200 },
    );
  });

  it('gives the scores of a fresh build when searched between changes (cached length norms are renewed, property)', () => {
    fc.assert(
      fc.property(records, records, fc.array(fc.nat(), { maxLength: 6 }), fc.array(word, { minLength: 1, maxLength: 4 }), (first, more, picks, q) => {
        const query = q.join(' ');
        const index = KnowledgeIndex.build(first, { language: 'en' });
        expect(index.search(query, 50)).toEqual(KnowledgeIndex.build(first, { language: 'en' }).search(query, 50));
        index.add(more);
        // The index's order: re-added ids move to the end.
        const added = [...first.filter((r) => !more.some((m) => m.recordId === r.recordId)), ...more];
        expect(index.search(query, 50)).toEqual(KnowledgeIndex.build(added, { language: 'en' }).search(query, 50));
        const removed = [...new Set(picks.map((p) => added[p % Math.max(1, added.length)]?.recordId).filter((id) => id !== undefined))];
        index.remove(removed);
        const kept = added.filter((r) => !removed.includes(r.recordId));
        expect(index.search(query, 50)).toEqual(KnowledgeIndex.build(kept, { language: 'en' }).search(query, 50));
      }),
      { numRuns: 200 },
    );
  });

  it('removing everything leaves an empty index', () => {
    fc.assert(
      fc.property(records, (recs) => {
        const index = KnowledgeIndex.build(recs, { language: 'en' });
        expect(index.remove(recs.map((r) => r.recordId))).toBe(recs.length);
        expect(index.size).toBe(0);
        expect(index.search('refund order 42')).toEqual([]);
      }),
    );
  });
});

describe('KnowledgeIndex at 5,000 records', () => {
  // How long the build takes is measured by eval/run.ts and `npm run bench`, not asserted here: a
  // shared machine's wall clock says more of its neighbours than of the build.
  it('builds an index of 5,000 records that finds each by its own words', () => {
    const words = 'order refund shipping price colour size return delivery account password invoice store open hours warranty'.split(' ');
    const recs = Array.from({ length: 5000 }, (_, i) =>
      rec(`r${i}`, Array.from({ length: 40 }, (_, j) => `${words[(i * 7 + j * 3) % words.length]}${(i + j) % 50}`).join(' '), i % 2 ? `Title ${i}` : null),
    );
    const index = KnowledgeIndex.build(recs, { language: 'en' });
    expect(index.size).toBe(5000);
    expect(index.search('Title 4321', 1)[0]?.recordId).toBe('r4321');
  });
});
