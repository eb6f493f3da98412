import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withinOneEdit } from '../../src/knowledge/language/edits.js';
import { KnowledgeIndex } from '../../src/knowledge/retrieval/knowledge-index.js';
import { PackedWords } from '../../src/knowledge/retrieval/packed-words.js';

const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);

/** Every read of the packed list against the plain list it should equal. */
function expectSame(packed: PackedWords, words: readonly string[], probes: readonly string[]): void {
  expect(packed.length).toBe(words.length);
  expect(packed.toArray()).toEqual(words);
  words.forEach((word, i) => {
    expect(packed.at(i)).toBe(word);
    expect(packed.lengthAt(i)).toBe(word.length);
    for (const probe of [word, ...probes]) {
      expect(packed.equals(i, probe)).toBe(word === probe);
      expect(sign(packed.compare(i, probe))).toBe(word < probe ? -1 : word > probe ? 1 : 0);
      expect(packed.startsWith(i, probe)).toBe(word.startsWith(probe));
      // Compared where it lies, beside its neighbours in the segment: nothing past its end is read.
      expect(packed.withinOneEdit(i, probe)).toBe(withinOneEdit(word, probe));
    }
  });
}

describe('PackedWords', () => {
  it('reads back, compares, prefix-matches and spelling-matches every word as the plain list does, whatever the seals (property)', () => {
    // Short words over a few letters (so prefixes and equal words are common), some two-byte.
    const word = fc.stringMatching(/^[abcé€]{0,5}$/);
    const op = fc.oneof(fc.record({ push: word }), fc.record({ seal: fc.constant(true) }));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), fc.array(word, { maxLength: 5 }), (ops, probes) => {
        const packed = new PackedWords();
        const words: string[] = [];
        for (const o of ops) {
          if ('push' in o) {
            expect(packed.push(o.push)).toBe(words.length);
            words.push(o.push);
          } else packed.seal();
        }
        expectSame(packed, words, probes);
        expectSame(PackedWords.from(words), words, probes);
      }),
      { numRuns: 200 },
    );
  });

  it('holds lists longer than a segment, sealed part-way and appended to again', () => {
    const words = Array.from({ length: 10_000 }, (_, i) => `w${(i * 7919) % 10_007}${i % 3 === 0 ? 'ü' : ''}`);
    const packed = new PackedWords();
    words.forEach((w, i) => {
      packed.push(w);
      if (i % 1500 === 0) packed.seal();
    });
    expectSame(packed, words, []);
    packed.seal();
    expectSame(packed, words, ['w1', 'w9999']);
    // Less than one string per word: the characters and a 2-byte end each, plus a little per segment.
    const chars = words.reduce((sum, w) => sum + w.length, 0);
    expect(packed.approximateBytes()).toBeLessThan(chars * 2 + words.length * 2 + 2000);
  });
});

describe('KnowledgeIndex memory layout', () => {
  it('gives back the records as added, a title that begins the text (kept as its length) included', () => {
    const records = [
      { recordId: 'qa', title: 'How long does delivery take?', text: 'How long does delivery take?\n\nTwo to four working days.', sourceName: 'faq.json', kind: 'qa' },
      { recordId: 'other', title: 'Returns', text: 'Unused items come back within 30 days.', sourceName: 'faq.json', kind: 'qa' },
      { recordId: 'none', title: null, text: 'Returns are free.', sourceName: 'page.html' },
      { recordId: 'empty', title: '', text: 'Empty title.', sourceName: 'page.html' },
      { recordId: 'whole', title: 'Warranty', text: 'Warranty', sourceName: 'page.html' },
    ];
    const index = KnowledgeIndex.build(records);
    for (const r of records) expect(index.get(r.recordId)).toEqual(r);
    // The title still counts as a title (boosted) after changes move the records to other slots.
    index.remove(['other', 'none']);
    index.compact(true);
    expect(index.get('qa')).toEqual(records[0]);
    expect(index.search('delivery', 5)[0]?.recordId).toBe('qa');
    const fresh = KnowledgeIndex.build(records.filter((r) => r.recordId !== 'other' && r.recordId !== 'none'));
    expect(index.search('how long delivery warranty', 5)).toEqual(fresh.search('how long delivery warranty', 5));
  });

  it('keeps surface-word positions past 16 bits exactly (the counts widen to 32 bits)', () => {
    // A surface word first met at word 40,000 of a record: its position does not fit in 16 bits.
    const long = `${'lorem '.repeat(40_000)}zebras`;
    const index = KnowledgeIndex.build([
      { recordId: 'short', title: null, text: 'Short text about parcels.', sourceName: 's' },
      { recordId: 'long', title: null, text: long, sourceName: 's' },
    ]);
    const { surfaces } = index.toCompact();
    const at = surfaces.words.indexOf('zebras');
    expect(at).toBeGreaterThanOrEqual(0);
    expect(surfaces.first[at]).toBe(1);
    expect(surfaces.pos[at]).toBe(40_000);
    expect(index.termOfSurface('zebras')).toBe(index.termOfSurface('zebras'));
    expect(index.surfacesWithPrefix('zeb', 5)).toEqual(['zebras']);
  });
});
