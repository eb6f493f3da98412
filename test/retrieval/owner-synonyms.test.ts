/**
 * The owner's synonyms: checked as the API takes them, and in a question, a member's words meet
 * the records' words for the group's other members — through the real extraction, index, search
 * and built-in answerer, on two of the evaluation's knowledge bases.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/errors.js';
import { extract } from '../../src/knowledge/extraction/index.js';
import { ExtractiveAnswerer } from '../../src/knowledge/query/extractive-answerer.js';
import { KnowledgeIndex } from '../../src/knowledge/retrieval/knowledge-index.js';
import { statsWithSynonyms } from '../../src/knowledge/retrieval/owner-synonyms.js';
import { wordsNoRecordUses } from '../../src/knowledge/retrieval/unknown-words.js';
import { checkedSynonyms, type SynonymGroups } from '../../src/knowledge/synonyms.js';
import type { RetrievedRecord } from '../../src/knowledge/answering/types.js';

function knowledgeBase(file: string) {
  const content = readFileSync(new URL(`../../eval/sets/${file}`, import.meta.url));
  const records = extract(content, 'json').records.map((r, i) => ({ recordId: `r${i + 1}`, sourceName: 'faq.json', title: r.title ?? null, text: r.text, kind: r.kind }));
  const index = KnowledgeIndex.build(records);
  const byId = new Map(records.map((r) => [r.recordId, r]));
  const answerer = new ExtractiveAnswerer();
  /** The title the answer opens with, or null for a refusal; as the query service asks (registry: search, then the answerer with the same synonyms). */
  const ask = (query: string, synonyms?: SynonymGroups): string | null => {
    const retrieved: RetrievedRecord[] = index.search(query, 6, synonyms).map((h) => ({ ...(byId.get(h.recordId) as RetrievedRecord), score: h.score }));
    const answer = answerer.complete({ query, botName: 'Shop', retrieved, stats: statsWithSynonyms(index, synonyms) });
    return answer.grounded ? (byId.get(answer.sources[0]?.recordId ?? '')?.title ?? null) : null;
  };
  return { ask, index };
}

describe("the owner's synonyms in a question", () => {
  const de = knowledgeBase('shop-faq-de/faq.json');
  const en = knowledgeBase('shop-faq-en/faq.json');
  const postage: SynonymGroups = [['Porto', 'Versandkosten']];

  it('answer what the records say in other words', () => {
    expect(de.ask('Was kostet das Porto?')).toBeNull();
    expect(de.ask('Was kostet das Porto?', postage)).toBe('Wie hoch sind die Versandkosten innerhalb Deutschlands?');
    expect(de.ask('Was muss ich fürs Porto zahlen?', postage)).toBe('Wie hoch sind die Versandkosten innerhalb Deutschlands?');
    // Both ways: a member the visitor writes meets any other the records use.
    expect(de.ask('Was kostet das Porto?', [['Versandkosten', 'Porto']])).toBe('Wie hoch sind die Versandkosten innerhalb Deutschlands?');

    const account: SynonymGroups = [['sign up', 'account']];
    expect(en.ask('can I order without signing up')).toBeNull();
    expect(en.ask('can I order without signing up', account)).toBe('Do I need an account to place an order?');
    expect(en.ask('Do I have to sign up to order?', account)).toBe('Do I need an account to place an order?');
  });

  it('are joined by the built-in ways of writing signing in, which "log out" is not', () => {
    const reset = "I've forgotten my password. How do I reset it?";
    // The records write only "sign-in page"; a visitor logs in.
    for (const q of ['how do I log in', "I can't log in", 'login problems', 'how do I log on']) expect(en.ask(q), q).toBe(reset);
    expect(en.ask('how do I log out')).toBeNull();
    // With the owner's own groups too.
    expect(en.ask("I can't log in", [['sign up', 'account']])).toBe(reset);
    expect(en.ask('can I order without signing up', [['sign up', 'account']])).toBe('Do I need an account to place an order?');
    // English only: German and French write their own words.
    expect(de.index.expand('Ich kann mich nicht einloggen').words.every((w) => w.matches.length === 0)).toBe(true);
  });

  it('are found with a few words between a phrase\'s words, which gain nothing', () => {
    const sendBack: SynonymGroups = [['send back', 'return']];
    expect(en.ask('Can I send it back?')).toBe('The item I want is out of stock. Will it come back?');
    expect(en.ask('Can I send it back?', sendBack)).toBe('What is your returns policy?');
    expect(en.ask('Can I send the pan I bought back?', sendBack)).toBeNull(); // four words between: not the phrase
    const matched = (q: string) => en.index.expand(q, sendBack).words.filter((w) => w.matches.some((m) => m.term === 'return')).map((w) => w.surface);
    expect(matched('can I send my kettle back')).toEqual(['send', 'back']); // "kettle", between them, keeps its own matches only
  });

  it('are found word for word, function words included, and add only what the records use', () => {
    const account: SynonymGroups = [['sign up', 'account']];
    const signIn = en.index.expand('how do I sign in', account).words;
    expect(signIn.flatMap((w) => w.matches.map((m) => m.term))).not.toContain('account');
    const signUp = en.index.expand('how do I sign up', account).words;
    expect(signUp.flatMap((w) => w.matches.map((m) => m.term))).toContain('account');
    // A member the records never use meets nothing; nor does a member of function words only.
    const unused = en.index.expand('how do I sign up', [['sign up', 'enrolment']]).words;
    expect(unused).toEqual(en.index.expand('how do I sign up').words);
    const functionWords = en.index.expand('how much is it', [['how much', 'price']]).words;
    expect(functionWords).toEqual(en.index.expand('how much is it').words);
  });

  it('replace the expansions kept for a question when they change', () => {
    // Asked three times without: kept by the memo; then with, then without again.
    for (let i = 0; i < 3; i++) expect(de.ask('Was kostet das Porto?')).toBeNull();
    expect(de.ask('Was kostet das Porto?', postage)).toBe('Wie hoch sind die Versandkosten innerhalb Deutschlands?');
    expect(de.ask('Was kostet das Porto?', [['Porto', 'Rücksendung']])).not.toBe('Wie hoch sind die Versandkosten innerhalb Deutschlands?');
    expect(de.ask('Was kostet das Porto?')).toBeNull();
  });
});

describe('checkedSynonyms', () => {
  it('trims, collapses spaces, keeps a repeated member once and clears with null', () => {
    expect(checkedSynonyms([['  sign   up ', 'Account', 'account', 'SIGN UP'], ['Porto', 'Versandkosten']])).toEqual([
      ['sign up', 'Account'],
      ['Porto', 'Versandkosten'],
    ]);
    expect(checkedSynonyms(null)).toEqual([]);
    expect(checkedSynonyms([])).toEqual([]);
    // Markup is a word like any other: it is matched, never rendered.
    expect(checkedSynonyms([['<b>x</b>', 'y']])).toEqual([['<b>x</b>', 'y']]);
  });

  const refused = (raw: unknown): { location: string; message: string } => {
    try {
      checkedSynonyms(raw);
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).code).toBe('validation_failed');
      return ((e as DomainError).extra.errors as { location: string; message: string }[])[0] as { location: string; message: string };
    }
    throw new Error('accepted');
  };

  it('refuses what is not groups of words, naming the place', () => {
    expect(refused('Porto, Versandkosten').location).toBe('/body/synonyms');
    expect(refused([['Porto', 'Versandkosten'], 'x']).location).toBe('/body/synonyms/1');
    expect(refused([['Porto', 7]])).toEqual({ location: '/body/synonyms/0/1', message: 'must be a string' });
    expect(refused([['Porto', 'porto ']]).message).toBe('must hold at least two different words or phrases');
    expect(refused([['Porto']]).location).toBe('/body/synonyms/0');
    expect(refused([['Porto', '  ']]).message).toBe('must contain a letter or a digit');
    expect(refused([['Porto', 'a\u0000b']]).message).toBe('must not contain control characters');
    expect(refused([['Porto', 'x'.repeat(51)]]).message).toMatch(/at most 50 characters/);
    expect(refused([Array.from({ length: 11 }, (_, i) => `w${i}`)]).message).toMatch(/at most 10/);
    expect(refused(Array.from({ length: 101 }, (_, i) => [`a${i}`, `b${i}`])).message).toMatch(/at most 100 groups/);
    // 50 characters, an emoji counted once, is accepted.
    expect(checkedSynonyms([[`${'🙂'.repeat(49)}a`, 'smile']])[0]?.[0]).toBe(`${'🙂'.repeat(49)}a`);
  });
});

describe('the words of a question no record uses', () => {
  const de = knowledgeBase('shop-faq-de/faq.json');
  const en = knowledgeBase('shop-faq-en/faq.json');
  const unknown = (kb: typeof de, question: string, synonyms?: SynonymGroups) => wordsNoRecordUses(question, kb.index.expand(question, synonyms));

  it('are the content words that meet nothing, as typed, leaving out the commonest words', () => {
    expect(unknown(de, 'Was muss ich fürs Porto zahlen?')).toEqual(['Porto']);
    expect(unknown(de, 'Kann ich das Fahrrad im Laden abholen?')).toEqual(['Laden']);
    // A misspelt word met by the one meant, a compound's part: none.
    expect(unknown(en, 'How long is the warrenty?')).toEqual([]);
    expect(unknown(de, 'Was kostet der Versand?')).toEqual([]);
    // A place met only by the country it is in is not a word of the records: the owner may add it.
    expect(unknown(de, 'Schickt ihr auch nach Dänemark?')).toEqual(['Dänemark']);
    // "without" is among the commonest words.
    expect(unknown(en, 'can I order without signing up')).toEqual([]);
    // Met only by the answerer's guesses ("mar" → "damage", a Jupiter in Florida): unknown, each once.
    expect(unknown(en, 'Do you ship to Mars, and to Jupiter? Mars!')).toEqual(['Mars', 'Jupiter']);
    // A compound is shown as typed, not beside its own parts.
    expect(unknown(en, 'Do you sell e-scooters?')).toEqual(['e-scooters']);
  });

  it("are met by the owner's synonyms", () => {
    expect(unknown(de, 'Was muss ich fürs Porto zahlen?', [['Porto', 'Versandkosten']])).toEqual([]);
  });
});
