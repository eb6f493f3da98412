/**
 * Days of the week met by the weekend or the working days they are part of, and the weekend by its
 * days (language/days.ts).
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
    // The weekend is its days, and nothing else ("weekday" meets no day: "Monday to Friday" would
    // make every day a working day's).
    expect(lemmas('weekend', 'en')).toEqual(['saturday', 'saturdays', 'sunday', 'sundays']);
    expect(lemmas('wochenende', 'de')).toEqual(expect.arrayContaining(['samstag', 'samstags', 'sonntag']));
    expect(lemmas('week-end', 'fr')).toEqual(['samedi', 'samedis', 'dimanche', 'dimanches']);
    expect(dayWords('weekend', 'en').every((r) => r.relation === 'has-part')).toBe(true);
    expect(lemmas('weekday', 'en')).toEqual([]);
    expect(relatedWords('sunday', 'en').map((r) => r.lemma)).toContain('weekends');
  });

  it('answers a question about the weekend from the record that names its days, though another says "weekends"', () => {
    const records = [
      { recordId: 'hours', sourceName: 'faq.md', title: 'Opening hours', text: 'The club is open Monday to Friday from 6am to 10pm, and at weekends from 7am to 8pm.', kind: 'passage' as const },
      { recordId: 'family', sourceName: 'faq.md', title: 'Family swim sessions', text: 'Family swim runs on Saturdays and Sundays from 1pm to 3pm. Floats are put out for these sessions.', kind: 'passage' as const },
      { recordId: 'membership', sourceName: 'faq.md', title: 'Family membership', text: 'Our Family Swim membership costs £58 a month and gives pool access during public and family swim sessions.', kind: 'passage' as const },
    ];
    const index = KnowledgeIndex.build(records);
    const weekend = index.expand("When's the family swim at the weekend?").words.find((w) => w.surface === 'weekend');
    expect(weekend?.matches.map((m) => m.term)).toEqual(expect.arrayContaining([index.expand('Saturdays').words[0]?.term, index.expand('Sundays').words[0]?.term]));
    expect(index.search("When's the family swim at the weekend?", 3)[0]?.recordId).toBe('family');
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
