/**
 * Which product a follow-up asks about (src/knowledge/answering/product-follow-up.ts): the one the
 * bot's last answer named, unless the follow-up names another by a word of its name; records that
 * are not products are never dropped. The eval's catalogues are asked end to end in
 * visitor-questions.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { productsAskedAbout, switchedProductQuestion } from '../../src/knowledge/answering/product-follow-up.js';
import type { RetrievedRecord, Turn } from '../../src/knowledge/answering/types.js';
import { KnowledgeIndex } from '../../src/knowledge/retrieval/knowledge-index.js';

const product = (recordId: string, title: string, lines: string): RetrievedRecord => ({ recordId, sourceName: 'catalogue.json', title, text: `Name: ${title}\n${lines}`, kind: 'product', score: 1 });
const jugSmall = product('small', 'Milk Jug – Small', 'Price: £18\nSpecs › Capacity: 350 ml');
const jugLarge = product('large', 'Milk Jug – Large', 'Price: £28\nSpecs › Capacity: 950 ml');
const tumblers = product('tumblers', 'Glass Tumblers', 'Price: £18\nSpecs › Microwave safe: no');
const faq: RetrievedRecord = { recordId: 'care', sourceName: 'faq.json', title: 'How do I clean a jug?', text: 'How do I clean a jug? Rinse it after steaming.', kind: 'qa', score: 1 };
const records = [jugSmall, jugLarge, tumblers, faq];
const index = KnowledgeIndex.build(records);
const after = (answer: string): Turn[] => [
  { role: 'user', content: 'How much is the small milk jug?' },
  { role: 'assistant', content: answer },
];
const asked = (query: string, choices: RetrievedRecord[], conversation: Turn[]) =>
  productsAskedAbout(index.expand(query).words, choices, records, conversation, 'en')?.map((r) => r.recordId);

describe('the product a follow-up asks about', () => {
  it('is the one the last answer named, when the follow-up names no other', () => {
    const conversation = after('Milk Jug – Small (£18) [1]');
    expect(asked('and in the microwave?', [tumblers], conversation)).toEqual([]);
    expect(asked('and in the microwave?', [tumblers, jugSmall], conversation)).toEqual(['small']);
  });

  it('is the one the follow-up names by a word of its name that the product named before lacks', () => {
    const conversation = after('Milk Jug – Small (£18) [1]');
    expect(asked('and the large one?', [jugSmall, jugLarge], conversation)).toEqual(['large']);
    // "jug" is in both names: it names no other product.
    expect(asked('and how big is the jug?', [jugSmall, jugLarge], conversation)).toEqual(['small']);
  });

  it('keeps records that are not products', () => {
    expect(asked('and how do I clean it?', [faq, jugLarge], after('Milk Jug – Small (£18) [1]'))).toEqual(['care']);
  });

  it('does not apply when no product is chosen or none was named before', () => {
    expect(asked('and how do I clean it?', [faq], after('Milk Jug – Small (£18) [1]'))).toBeUndefined();
    expect(asked('and in the microwave?', [tumblers], after('I could not find this in the knowledge base.'))).toBeUndefined();
    expect(asked('and in the microwave?', [tumblers], [])).toBeUndefined();
  });

  it('when it names another, asks what was asked of the one of the other, without the words that named the one', () => {
    const conversation = after('Milk Jug – Small (£18) [1]');
    const switched = switchedProductQuestion('and the shiny large one?', index.expand('and the shiny large one?').words, 'How much is the small milk jug? and the shiny large one?', records, conversation, 'en');
    expect(switched?.products.map((r) => r.recordId)).toEqual(['large']);
    expect(switched?.question).toBe('How much is the  milk jug? and the shiny large one?');
    // "shiny" says which jug; it is no topic the jug's record must write.
    expect([...(switched?.naming ?? [])]).toEqual(['shiny']);
    expect(switchedProductQuestion('and in the microwave?', index.expand('and in the microwave?').words, 'How much is the small milk jug? and in the microwave?', records, conversation, 'en')).toBeUndefined();
  });
});

