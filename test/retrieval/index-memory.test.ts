import { describe, expect, it } from 'vitest';
import { type IndexableRecord, KnowledgeIndex } from '../../src/knowledge/retrieval/knowledge-index.js';

const WORDS = 'refund order delivery warranty parcel invoice payment account return shipping label courier'.split(' ');

const records = (n: number, from = 0): IndexableRecord[] =>
  Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return { recordId: `r${i}`, title: `Question ${i} about ${WORDS[i % WORDS.length]}?`, text: `Answer ${i}: the ${WORDS[(i * 7) % WORDS.length]} of item${i} takes ${i % 9} days.`, sourceName: 'faq.json', kind: 'qa' };
  });

const textOf = (rs: readonly IndexableRecord[]) => rs.reduce((sum, r) => sum + r.text.length + (r.title?.length ?? 0), 0);

describe('KnowledgeIndex.approximateBytes', () => {
  it('grows with the records, stays above their text and within a sane multiple of it', () => {
    let previous = 0;
    for (const n of [1, 25, 100, 1000]) {
      const rs = records(n);
      const bytes = KnowledgeIndex.build(rs).approximateBytes();
      expect(bytes).toBeGreaterThan(previous);
      expect(bytes).toBeGreaterThan(textOf(rs));
      // A fixed few kilobytes, then a few times the text (docs/indexing.md, "Memory per knowledge base").
      expect(bytes).toBeLessThan(8192 + textOf(rs) * 12);
      previous = bytes;
    }
  });

  it('follows adds and removals, and gives the same figure as a fresh build of the same records', () => {
    const index = KnowledgeIndex.build(records(50));
    const built = index.approximateBytes();
    index.add(records(50, 50));
    expect(index.approximateBytes()).toBeGreaterThan(built);
    index.remove(records(50, 50).map((r) => r.recordId));
    index.compact(true);
    const fresh = KnowledgeIndex.build(records(50)).approximateBytes();
    expect(Math.abs(index.approximateBytes() - fresh)).toBeLessThan(fresh * 0.2);
  });

  it('is the same for an index made from its compact form (as the registry makes it)', () => {
    const rs = records(25);
    const built = KnowledgeIndex.build(rs);
    const loaded = KnowledgeIndex.fromCompact(structuredClone(built.toCompact()), rs);
    expect(Math.abs(loaded.approximateBytes() - built.approximateBytes())).toBeLessThan(built.approximateBytes() * 0.05);
  });
});
