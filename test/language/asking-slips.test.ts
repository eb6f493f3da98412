/**
 * Slips in the words that ask for a kind of answer ("how meny", "wie lnage", "conbien"), spelled
 * out before a question is analysed (language/asking-slips.ts).
 */
import { describe, expect, it } from 'vitest';
import { spellOutAskingSlips } from '../../src/knowledge/language/asking-slips.js';
import { answerTypeTerm } from '../../src/knowledge/language/answer-types.js';
import { planAnswer } from '../../src/knowledge/answering/plan.js';
import type { RetrievedRecord } from '../../src/knowledge/answering/types.js';
import { KnowledgeIndex } from '../../src/knowledge/retrieval/knowledge-index.js';

const unused = () => false;

describe('spellOutAskingSlips', () => {
  it('spells out a slip of the word after "how", "wie", and a slip of "combien"', () => {
    expect(spellOutAskingSlips('how meny ppl on the startr plan', 'en', unused)).toBe('how many ppl on the startr plan');
    expect(spellOutAskingSlips('How mutch is it?', 'en', unused)).toBe('How much is it?');
    expect(spellOutAskingSlips('how lnog does it take', 'en', unused)).toBe('how long does it take');
    expect(spellOutAskingSlips('wie lnage dauert die Lieferung', 'de', unused)).toBe('wie lange dauert die Lieferung');
    expect(spellOutAskingSlips('conbien coûte la livraison ?', 'fr', unused)).toBe('combien coûte la livraison ?');
  });

  it('leaves ordinary words, words the knowledge base uses, other places and ambiguous slips alone', () => {
    // "money" and "made" are words of their own, one edit from nothing asked or not after "how".
    expect(spellOutAskingSlips('how money is made', 'en', unused)).toBe('how money is made');
    expect(spellOutAskingSlips('how mony', 'en', (w) => w === 'mony')).toBe('how mony');
    expect(spellOutAskingSlips('the meny page', 'en', unused)).toBe('the meny page');
    // "vile" is one edit from both "viel" and "viele": which is meant is not known.
    expect(spellOutAskingSlips('wie vile', 'de', unused)).toBe('wie vile');
    expect(spellOutAskingSlips('how meny', 'es', unused)).toBe('how meny');
  });
});

describe('a question with a slip in its asking words', () => {
  it('still asks for its kind of answer', () => {
    const records: RetrievedRecord[] = [
      { recordId: 'plans', sourceName: 'help.md', title: 'Plans', text: 'The Starter plan is $4 per user per month, for up to 15 users.', kind: 'passage', score: 0 },
      { recordId: 'support', sourceName: 'help.md', title: 'Support', text: 'We reply to Starter plan customers within one business day.', kind: 'passage', score: 0 },
    ];
    const index = KnowledgeIndex.build(records);
    const question = 'how meny users on the startr plan';
    const retrieved = index.search(question, 2).map((h) => ({ ...(records.find((r) => r.recordId === h.recordId) as RetrievedRecord), score: h.score }));
    const terms = planAnswer(question, retrieved, { stats: index }).words.map((w) => w.term);
    expect(terms).toContain(answerTypeTerm('quantity'));
  });
});
