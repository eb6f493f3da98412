import { describe, expect, it } from 'vitest';
import { holdsPhrase, hyphenedParticles, isParticle, isPhraseTerm, particleVerb, phraseTerm } from '../../src/knowledge/language/phrasal-verbs.js';
import { analyzeWords } from '../../src/knowledge/retrieval/tokenize.js';

const particleIn = (question: string): string[] => {
  const { surfaces, stops } = analyzeWords(question, 'en', 'query');
  return surfaces.filter((_, i) => stops[i] && isParticle(surfaces, stops, i, 'en'));
};

describe('English phrasal verbs', () => {
  it('finds the particle after a content word, not before "to", after a number or a function word, nor in other languages', () => {
    expect(particleIn('How do I sign up?')).toEqual(['up']);
    expect(particleIn('How can I log out of the app?')).toEqual(['out']);
    expect(particleIn('Can I turn off the notifications?')).toEqual(['off']);
    expect(particleIn('Is it up to 15 users?')).toEqual([]);
    expect(particleIn('Can I sign up to the newsletter?')).toEqual([]);
    expect(particleIn('I need 2 down payments')).toEqual([]);
    expect(particleIn('How do I sign in?')).toEqual([]);
    const { surfaces, stops } = analyzeWords('Comment faire up ?', 'fr', 'query');
    expect(surfaces.some((_, i) => isParticle(surfaces, stops, i, 'fr'))).toBe(false);
  });

  it('finds the verb across the short object it takes before its particle: a pronoun, or a determiner and a noun', () => {
    const verbOf = (question: string): string | undefined => {
      const { surfaces, stops } = analyzeWords(question, 'en', 'query');
      const i = surfaces.findIndex((s, k) => stops[k] && particleVerb(surfaces, stops, k, 'en') !== undefined);
      return i < 0 ? undefined : `${surfaces[particleVerb(surfaces, stops, i, 'en') as number] as string} ${surfaces[i] as string}`;
    };
    expect(verbOf('How do I turn it off?')).toBe('turn off');
    expect(verbOf('Can I pick my order up tomorrow?')).toBe('pick up');
    expect(verbOf('How do I log them out?')).toBe('log out');
    expect(verbOf('How do I sign up?')).toBe('sign up');
    expect(verbOf('When does the kettle switch off?')).toBe('switch off');
    expect(verbOf('Is it up to 15 users?')).toBeUndefined();
  });

  it('reads a particle after "to be" and a noun as the state the noun is in, not as a phrasal verb of the noun', () => {
    expect(particleIn('Is the service down?')).toEqual([]);
    expect(particleIn('is shiftloom down right now')).toEqual([]);
    expect(particleIn('Are the lights off?')).toEqual([]);
    // A noun after the particle: "sign up" names the sign-up.
    expect(particleIn('Is the sign up free?')).toEqual(['up']);
    expect(particleIn('When does the kettle switch off?')).toEqual(['off']);
  });

  it('finds the verb with its particle in a text in any form, apart, hyphened, joined or after another particle', () => {
    const up = phraseTerm('sign', 'up');
    expect(isPhraseTerm(up)).toBe(true);
    expect(isPhraseTerm('sign')).toBe(false);
    for (const text of ['Sign up at shiftloom.app.', 'During sign-up you pick a region.', 'Signing up takes a minute.', 'Use the signup form.']) expect(holdsPhrase(text, up), text).toBe(true);
    for (const text of ['Sign in with Google.', 'Your sign is up there.', 'Designs up to A3.']) expect(holdsPhrase(text, up), text).toBe(false);
    expect(holdsPhrase('Employees can clock in and out from the app.', phraseTerm('clock', 'out'))).toBe(true);
    expect(holdsPhrase('Shaking off the dust helps.', phraseTerm('shake', 'off'))).toBe(true);
  });

  it('reads a particle a hyphen joins to a word as part of it, in any language, "in" too but not French "-on"', () => {
    const particles = (question: string, language: string): string[] => {
      const { surfaces, stops } = analyzeWords(question, language, 'query');
      const hyphened = hyphenedParticles(question, (word) => analyzeWords(word, language, 'query').surfaces.at(-1));
      return surfaces.filter((_, i) => stops[i] && isParticle(surfaces, stops, i, language, hyphened));
    };
    expect(particles('Wann ist Check-in?', 'de')).toEqual(['in']);
    expect(particles('Wann ist Check in der Wohnung?', 'de')).toEqual([]);
    expect(particles('What time is check-in?', 'en')).toEqual(['in']);
    expect(particles('Peut-on payer par chèque ?', 'fr')).toEqual([]);
    expect(particles('Is there a drop-off point?', 'en')).toEqual(['off']);
    expect(particles('Is it a check-in-desk?', 'en')).toEqual([]);
    expect(hyphenedParticles('Wie lange dauert es?', () => 'x').size).toBe(0);
    const checkIn = phraseTerm('check', 'in');
    for (const text of ['Check-in ab 16 Uhr.', 'Online check in is open.', 'Checking in takes a minute.']) expect(holdsPhrase(text, checkIn), text).toBe(true);
    for (const text of ['Ein später Check-out bis 14 Uhr kostet 25 €.', 'Checkout is at 10.', 'Please check the inbox.']) expect(holdsPhrase(text, checkIn), text).toBe(false);
  });
});
