import { describe, expect, it } from 'vitest';
import { contextualQuery } from '../../src/knowledge/answering/follow-up.js';
import { withoutReplacedWords } from '../../src/knowledge/answering/switched-topic.js';
import type { Turn } from '../../src/knowledge/answering/types.js';
import { loadSet } from '../../eval/sets.js';
import { askerOf } from '../../eval/visitor.js';

describe('a follow-up fragment that asks the same of another kind', () => {
  it('leaves the kind it replaces out of the context, in German, English and French', () => {
    // A German compound of the same head.
    expect(withoutReplacedWords('Wann fangen die Intensivkurse an?', 'und die Abendkurse?', true)).toBe('Wann fangen die an?');
    expect(withoutReplacedWords('Was kosten die Versandkosten?', 'und die Rücksendekosten?', true)).toBe('Was kosten die ?');
    // The word that qualifies a noun the fragment repeats, on the side the fragment qualifies it.
    expect(withoutReplacedWords('When do the intensive courses start?', 'and the evening courses?', true)).toBe('When do the courses start?');
    expect(withoutReplacedWords('Quand commencent les cours intensifs ?', 'et les cours du soir ?', true)).toBe('Quand commencent les cours ?');
  });

  it('leaves the context as it is otherwise', () => {
    // Not a fragment that starts as a follow-up, or too long to be one.
    expect(withoutReplacedWords('Wann fangen die Intensivkurse an?', 'Wann fangen die Abendkurse an?', false)).toBe('Wann fangen die Intensivkurse an?');
    expect(withoutReplacedWords('When do the intensive courses start?', 'and how much are the evening courses for adults in total?', true)).toBe('When do the intensive courses start?');
    // Nothing replaced: a word the fragment only adds, or two words that only share an ending.
    expect(withoutReplacedWords('Do you ship to Canada?', 'and how long does it take?', true)).toBe('Do you ship to Canada?');
    expect(withoutReplacedWords('How long is the delivery?', 'and the battery?', true)).toBe('How long is the delivery?');
  });

  it('is what a follow-up is searched and answered with', () => {
    const conversation: Turn[] = [{ role: 'user', content: 'Wann fangen die Intensivkurse an?' }];
    expect(contextualQuery('und die Abendkurse?', conversation)).toBe('Wann fangen die an? und die Abendkurse?');
    // The language school (eval/sets/language-school-de): was answered with the evening courses' price, the intensive courses' words pulling.
    const ask = askerOf(loadSet('language-school-de'));
    const intensive = ask('Wann fangen die Intensivkurse an?');
    const evening = ask('und die Abendkurse?', [...conversation, { role: 'assistant', content: intensive.answer }]);
    expect(evening.sources.map((s) => s.title)).toEqual(['Wann finden die Abendkurse statt?']);
    expect(evening.answer).toContain('Januar, April, Juli und Oktober');
  });
});
