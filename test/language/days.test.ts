/**
 * Days of the week met by the weekend or the working days they are part of (language/days.ts).
 */
import { describe, expect, it } from 'vitest';
import { dayWords } from '../../src/knowledge/language/days.js';
import { relatedWords } from '../../src/knowledge/language/related-words.js';
import { KnowledgeIndex } from '../../src/knowledge/retrieval/knowledge-index.js';

const lemmas = (word: string, language: string) => dayWords(word, language).map((r) => r.lemma);

describe('days of the week', () => {
  it('are part of the weekend or of the working days, in each language, and not one another', () => {
    expect(lemmas('sunday', 'en')).toEqual(expect.arrayContaining(['weekend', 'weekends']));
    expect(lemmas('saturdays', 'en')).toContain('weekends');
    expect(lemmas('monday', 'en')).toEqual(expect.arrayContaining(['weekday', 'weekdays']));
    // One word each: "working day" would meet every "30 days".
    expect(lemmas('monday', 'en').every((lemma) => !lemma.includes(' '))).toBe(true);
    expect(lemmas('samstags', 'de')).toContain('wochenende');
    expect(lemmas('dienstag', 'de')).toContain('werktagen');
    expect(lemmas('dimanche', 'fr')).toContain('week-end');
    expect(lemmas('lundi', 'fr')).toContain('ouvres');
    expect(lemmas('dimanche', 'fr')).not.toContain('lundi');
    expect(lemmas('sunday', 'fr')).toEqual([]);
    expect(lemmas('weekend', 'en')).toEqual([]);
    expect(relatedWords('sunday', 'en').map((r) => r.lemma)).toContain('weekends');
  });

  it('answers a question about a day from the record that speaks of weekends', () => {
    const records = [
      { recordId: 'dispatch', sourceName: 'faq.md', title: 'When will my order be dispatched?', text: 'Orders placed before 1pm on a working day are dispatched the same day; orders placed at weekends go out the next working day.', kind: 'qa' as const },
      { recordId: 'returns', sourceName: 'faq.md', title: 'What is your returns policy?', text: 'You can return any unused item within 30 days of delivery.', kind: 'qa' as const },
    ];
    const index = KnowledgeIndex.build(records);
    const sunday = index.expand('If I order on Sunday, when will it be dispatched?').words.find((w) => w.surface === 'sunday');
    expect(sunday?.matches.map((m) => m.term)).toContain(index.expand('weekends').words[0]?.term);
    expect(index.search('If I order on Sunday, when will it be dispatched?', 2)[0]?.recordId).toBe('dispatch');
  });
});
