import fc from 'fast-check';
/**
 * The gazetteer (lexicon/places.json, generated from npm packages by scripts/build-places.mjs) and the
 * chat abbreviations spelled out before a question is analysed.
 */
import { describe, expect, it } from 'vitest';
import { countryNames, placeNameLength, placesContaining } from '../../src/knowledge/language/places.js';
import { CHAT_SPEAK_ONLY_BEFORE, CHAT_SPEAK_TABLES, spellOutChatSpeak, spellOutWont } from '../../src/knowledge/language/chat-speak.js';
import { relatedWords } from '../../src/knowledge/language/related-words.js';
import { planAnswer } from '../../src/knowledge/answering/plan.js';
import type { RetrievedRecord } from '../../src/knowledge/answering/types.js';
import type { QueryWord } from '../../src/knowledge/retrieval/query-expansion.js';
import { KnowledgeIndex } from '../../src/knowledge/retrieval/knowledge-index.js';
import { placeMatches } from '../../src/knowledge/retrieval/word-meanings.js';

/** Q&A records of a help page (the question is the title and the text's first line). */
function qaRecords(pairs: readonly [string, string][]): RetrievedRecord[] {
  return pairs.map(([question, answer], i) => ({ recordId: `r${i + 1}`, sourceName: 'help.md', title: question, text: `${question}\n${answer}`, kind: 'qa', score: 0 }));
}

/** The question's words as the answerer weighs them, over `records` as retrieval ranks them. */
function planWords(records: readonly RetrievedRecord[], question: string): QueryWord[] {
  const index = KnowledgeIndex.build(records);
  const retrieved = index.search(question, records.length).map((h) => ({ ...(records.find((r) => r.recordId === h.recordId) as RetrievedRecord), score: h.score }));
  return [...planAnswer(question, retrieved, { stats: index }).words];
}

describe('places', () => {
  it('puts a town in its country, its continent and, for members, the European Union', () => {
    const wien = placesContaining('wien');
    expect(wien).toEqual(expect.arrayContaining(['Österreich', 'Austria', 'EU', 'Europa']));
    expect(placesContaining('geneve')).toEqual(expect.arrayContaining(['Suisse', 'Europe']));
    expect(placesContaining('geneve')).not.toContain('EU');
  });

  it('reads a country typed in lower case as the country, unless the dictionary has it as something else too', () => {
    const index = KnowledgeIndex.build([
      { recordId: 'eu', sourceName: 'faq.md', title: 'Where do you ship?', text: 'We ship to all 27 EU countries, the rest of Europe and Asia.' },
    ], { language: 'en' });
    const matches = (q: string) => new Map(index.expand(q).words.map((w) => [w.surface, w.matches.map((m) => m.term)]));
    // "ireland" is a common word of the frequency list; still the country, in the EU.
    expect(matches('do u ship 2 ireland').get('ireland')).toContain('eu');
    // "china" is porcelain too, "jersey" a shirt: typed in lower case, no place; written as names, places.
    for (const word of ['china', 'jersey']) {
      expect(placeMatches(index, word, false), word).toEqual([]);
      expect(placeMatches(index, word, true), word).not.toEqual([]);
    }
    expect(placeMatches(index, 'ireland', false).map((m) => m.term)).toContain('eu');
  });

  it('weighs a country typed in lower case as the name it is', () => {
    const records = qaRecords([
      ['Do you deliver to the United States and Canada?', 'Yes. Tracked delivery to the United States costs £14.95 and to Canada £16.95.'],
      ['Do you ship to Europe?', 'Yes, we ship to all 27 EU countries. Standard European delivery costs £9.95.'],
      ['How long does UK delivery take?', 'Standard UK delivery takes 2–4 working days.'],
    ]);
    for (const question of ['do u deliver to france', 'Do you deliver to France?']) {
      const france = planWords(records, question).find((w) => w.surface === 'france');
      expect(france?.general, question).toBe(1);
    }
  });

  it('puts a country in its continent and the Union, not in itself', () => {
    const denmark = placesContaining('daenemark');
    expect(denmark).toEqual(expect.arrayContaining(['EU', 'Europa']));
    expect(denmark).not.toContain('Dänemark');
    expect(placesContaining('canada')).toContain('North America');
  });

  it('normalises names as the language does (umlauts typed as ae/oe/ue in German)', () => {
    expect(placesContaining('koeln')).toContain('Deutschland');
    expect(placesContaining('koln')).toContain('Allemagne');
  });

  it('knows the short names shops write for a country ("UK", "USA"), but not "US", which is also a word', () => {
    expect(placesContaining('london')).toContain('UK');
    expect(placesContaining('chicago')).toContain('USA');
    expect(placesContaining('chicago')).not.toContain('US');
  });

  it('gives a country’s other names, and no town’s', () => {
    expect(countryNames('usa')).toEqual(expect.arrayContaining(['United States', 'Vereinigte Staaten', 'États-Unis']));
    expect(countryNames('deutschland')).toContain('Germany');
    expect(countryNames('new zealand')).toContain('Neuseeland');
    expect(countryNames('wien')).toEqual([]);
  });

  it('finds names of several words in a question’s words, the longest first', () => {
    const words = ['i', 'live', 'in', 'mexico', 'city', 'near', 'frankfurt', 'am', 'main'];
    expect(placeNameLength(words, 3)).toBe(2);
    expect(placeNameLength(words, 6)).toBe(3);
    expect(placeNameLength(words, 1)).toBe(0);
    expect(placeNameLength(words, 8)).toBe(0);
    expect(placeNameLength(['saint', 'etienne'], 0)).toBe(2);
    expect(placesContaining('mexico city')).toContain('Mexico');
    expect(placesContaining('new zealand')).toContain('Oceania');
  });

  it('knows nothing of words that are not places', () => {
    expect(placesContaining('kettle')).toEqual([]);
    expect(placesContaining('')).toEqual([]);
  });
});

describe('a named place is a word’s meaning only when it is its first sense', () => {
  it('"red" is a colour, not the Red River in Texas', () => {
    const lemmas = relatedWords('red', 'en').map((r) => r.lemma);
    expect(lemmas).not.toContain('united states');
    expect(lemmas).not.toContain('texas');
    expect(relatedWords('toronto', 'en').map((r) => r.lemma)).toContain('canada');
  });

  it('a word of the dictionary written in lower case is not a town: "rota" is a roster, not Rota in Spain', () => {
    const records = qaRecords([
      ['Where is our data stored?', 'In the EU (Frankfurt, Germany) or in the US (Oregon), as you choose.'],
      ['How do I publish the schedule?', 'Tap Publish: every employee gets the week’s shifts by email.'],
    ]);
    expect(planWords(records, 'how do I share the rota').find((w) => w.surface === 'rota')?.matches).toEqual([]);
    // Written as a name, or a word the dictionary has only as a place, it is still the place.
    expect(planWords(records, 'Do you store data in Paris?').find((w) => w.surface === 'paris')?.matches.map((m) => m.term)).toContain('eu');
  });
});

describe('an abbreviation is not a plural', () => {
  it('"NHS" is not the plural of "NH" (New Hampshire, in the US), while "boxes" is the plural of "box"', () => {
    expect(relatedWords('nhs', 'en')).toEqual([]);
    expect(relatedWords('boxes', 'en').map((r) => r.lemma)).toContain('box');
    // The records' "us" ("call us") is not the United States of a question about the NHS.
    const records = qaRecords([
      ['Do I need a referral?', 'No. You can book directly with us without a referral.'],
      ['Which payment methods do you accept?', 'Cards and cash. Payment is taken after each treatment.'],
    ]);
    expect(planWords(records, 'Will the NHS pay for my treatment here?').find((w) => w.surface === 'nhs')?.matches).toEqual([]);
  });
});

describe('chat abbreviations', () => {
  const unused = () => false;
  it('are spelled out as whole words, in the question’s language', () => {
    expect(spellOutChatSpeak('hw much r u charging', 'en', unused)).toBe('how much are you charging');
    expect(spellOutChatSpeak('cb ça coûte', 'fr', unused)).toBe('combien ça coûte');
    expect(spellOutChatSpeak('ya une laverie au camping?', 'fr', unused)).toBe('il y a une laverie au camping?');
    expect(spellOutChatSpeak('gibts das auch in blau', 'de', unused)).toBe('gibt es das auch in blau');
    expect(spellOutChatSpeak('rabatt für studis oder azubis?', 'de', unused)).toBe('rabatt für studenten oder auszubildende?');
    expect(spellOutChatSpeak('how many ppl can join', 'en', unused)).toBe('how many people can join');
    expect(spellOutChatSpeak('hi wat time is ur chat open', 'en', unused)).toBe('hi what time is your chat open');
    expect(spellOutChatSpeak('can my rota appear in my Google cal?', 'en', unused)).toBe('can my rota appear in my Google calendar?');
    expect(spellOutChatSpeak('forgot my pw, can I send pics to the dept?', 'en', unused)).toBe('forgot my password, can I send pictures to the department?');
    // Not where the records use the abbreviation themselves ("120 cal per cup").
    expect(spellOutChatSpeak('how many cal in a latte', 'en', (w) => w === 'cal')).toBe('how many cal in a latte');
    // Not inside words, not in another language's table.
    expect(spellOutChatSpeak('hwy ursa', 'en', unused)).toBe('hwy ursa');
    expect(spellOutChatSpeak('cb', 'en', unused)).toBe('cb');
  });

  it('read "2" as "to" after a verb of going or sending, where no thing counted follows', () => {
    expect(spellOutChatSpeak('do u ship 2 ireland', 'en', unused)).toBe('do you ship to ireland');
    expect(spellOutChatSpeak('can u send it 2 me', 'en', unused)).toBe('can you send it to me');
    expect(spellOutChatSpeak('how far do the poles go up 2?', 'en', unused)).toBe('how far do the poles go up to?');
    // Two things, or a number elsewhere.
    expect(spellOutChatSpeak('can i send 2 items back', 'en', unused)).toBe('can i send 2 items back');
    expect(spellOutChatSpeak('i ordered 2 kettles', 'en', unused)).toBe('i ordered 2 kettles');
    expect(spellOutChatSpeak('ship 2 ireland', 'fr', unused)).toBe('ship 2 ireland');
  });

  it('are spelled out exactly as a look-up of every lower-cased word would spell them out, in any case and script (property)', () => {
    // The reference: every whole word (letters and digits) looked up lower-cased in the language's
    // table; in German, first, a word of three letters or more and "nr" is that word and "nummer".
    const reference = (q: string, language: string, used: (w: string) => boolean) =>
      q.replace(/[\p{L}\p{N}]+/gu, (w, at: number) => {
        const compound = language === 'de' ? /^(\p{L}{3,})nr$/iu.exec(w) : null;
        if (compound !== null) return used(w.toLowerCase()) ? w : `${compound[1] as string}nummer`;
        const table = CHAT_SPEAK_TABLES[language] as Readonly<Record<string, string>>;
        const full = Object.hasOwn(table, w.toLowerCase()) ? table[w.toLowerCase()] : undefined;
        const contexts = CHAT_SPEAK_ONLY_BEFORE[language] ?? {};
        const onlyBefore = Object.hasOwn(contexts, w.toLowerCase()) ? contexts[w.toLowerCase()] : undefined;
        return full === undefined || (used(w.toLowerCase()) && !onlyBefore?.test(q.slice(at + w.length))) ? w : full;
      });
    const keys = Object.values(CHAT_SPEAK_TABLES).flatMap((t) => Object.keys(t));
    // Every abbreviation in any case, with letters whose case folding or lower case is ASCII
    // (the Kelvin sign, the long s, a title-case digraph), other scripts, digits and separators.
    const cased = fc.tuple(fc.constantFrom(...keys), fc.constantFrom('lower', 'upper', 'title')).map(([k, c]) => (c === 'upper' ? k.toUpperCase() : c === 'title' ? k.charAt(0).toUpperCase() + k.slice(1) : k));
    const piece = fc.oneof(cased, fc.constantFrom('ǅs', '\u212A', 'ſt', 'é', 'ü', 'İ', '1', '𝒳', ' ', ', ', "'", '-', '?', 'hwy', 'ursa', 'x', 'constructor', '__proto__', 'de', 'ça', 'coûte', 'desk', 'telefon', 'NR', 'nr.'));
    const question = fc.array(piece, { maxLength: 12 }).map((p) => p.join(''));
    fc.assert(
      fc.property(question, fc.constantFrom('en', 'de', 'fr'), fc.boolean(), (q, language, keepR) => {
        const used = (w: string) => keepR && (w === 'r' || w === 'cb');
        expect(spellOutChatSpeak(q, language, used)).toBe(reference(q, language, used));
      }),
      { numRuns: 2000 },
    );
  });

  it('spell out abbreviations of written German, French and English, which no word list holds ("Whg.", "inkl.", "dispo", "hrs")', () => {
    expect(spellOutChatSpeak('Was kostet die Whg. im August, inkl. Endreinigung?', 'de', unused)).toBe('Was kostet die wohnung. im August, inklusive. Endreinigung?');
    expect(spellOutChatSpeak("L'appart est dispo en juin ?", 'fr', unused)).toBe("L'appartement est disponible en juin ?");
    expect(spellOutChatSpeak('open 24 hrs?', 'en', unused)).toBe('open 24 hours?');
    // A knowledge base that uses the abbreviation keeps it ("Nr." in "Haus Nr. 5" is theirs to mean).
    expect(spellOutChatSpeak('Welche Nr. hat das Haus?', 'de', (w) => w === 'nr')).toBe('Welche Nr. hat das Haus?');
    // An abbreviated flat is a flat: "Was kostet die Whg. im August?" meets the records' "Wohnung".
    const records = qaRecords([
      ['Was kostet eine Wohnung?', 'In der Hauptsaison vom 1. Juli bis 31. August kostet eine Wohnung 120 € pro Nacht.'],
      ['Sind Haustiere erlaubt?', 'Hunde sind im Erdgeschoss erlaubt.'],
      ['Wann ist die Anreise?', 'Die Anreise ist ab 16 Uhr möglich.'],
    ]);
    expect(planWords(records, 'Was kostet die Whg. im August?').map((w) => w.surface)).toContain('wohnung');
  });

  it('spell out a German compound abbreviated with "Nr." for "Nummer" ("Telefonnr", "Bestellnr."), unless the knowledge base writes it so', () => {
    expect(spellOutChatSpeak('telefonnr vom buero??', 'de', unused)).toBe('telefonnummer vom buero??');
    expect(spellOutChatSpeak('Wo finde ich meine Bestellnr.?', 'de', unused)).toBe('Wo finde ich meine Bestellnummer.?');
    expect(spellOutChatSpeak('Kundennr vergessen', 'de', (w) => w === 'kundennr')).toBe('Kundennr vergessen');
    // Not in other languages, and not a short word ("Nr." alone is in the table).
    expect(spellOutChatSpeak('telefonnr', 'en', unused)).toBe('telefonnr');
    expect(spellOutChatSpeak('Abnr ok', 'de', unused)).toBe('Abnr ok');
    // "What's your phone number?" spelled so asks for a phone number and is answered with one.
    const records = qaRecords([
      ['Wann ist das Büro geöffnet?', 'Unser Büro ist Montag bis Donnerstag von 8:30 bis 18:00 Uhr besetzt, telefonisch unter 040 555 0132.'],
      ['Was kostet ein Intensivkurs?', 'Ein Intensivkurs kostet 340 € für 4 Wochen.'],
      ['Gibt es Abendkurse?', 'Abendkurse laufen zweimal pro Woche.'],
    ]);
    expect(planWords(records, 'telefonnr vom büro?').map((w) => w.surface)).toContain('phone');
  });

  it('spell out contractions typed without their apostrophe, which would be matched as a question word ("whats" → "what") or weigh as unknown ("dont")', () => {
    expect(spellOutChatSpeak('whats ur address', 'en', unused)).toBe('what is your address');
    expect(spellOutChatSpeak('Wheres my receipt? i dont have it, thats odd', 'en', unused)).toBe('where is my receipt? i do not have it, that is odd');
    const records = qaRecords([
      ['Where do you operate?', 'Pedalway runs in Berlin, Hamburg, Vienna and Zurich.'],
      ['How do I get a receipt?', 'A receipt is emailed to you after every ride.'],
      ['Which payment methods do you accept?', 'We accept Visa, Mastercard and Apple Pay. Prepaid cards are not accepted.'],
    ]);
    const words = (q: string) => planWords(records, q).map((w) => w.surface);
    expect(words('wheres my receipt')).toEqual(['receipt']);
    expect(words('i dont have a card')).toEqual(['card']);
    expect(words('hows the weather in berlin')).toEqual(['weather', 'berlin']);
  });

  it('spell out "won\'t", whose "won" is a word of its own, so that it meets no record\'s "won\'t"', () => {
    expect(spellOutWont("My payment won't go through", 'en')).toBe('My payment will not go through');
    expect(spellOutWont('Who won the prize?', 'en')).toBe('Who won the prize?');
    expect(spellOutWont("won't", 'fr')).toBe("won't");
    const records = qaRecords([
      ["The lock won't close. What should I do?", 'Push the lever down firmly.'],
      ['Which payment methods do you accept?', 'Visa and Mastercard.'],
    ]);
    const q = "my payment won't go through";
    expect(planWords(records, q).map((w) => w.surface)).not.toContain('won');
    expect(KnowledgeIndex.build(records).search(q, 2).map((h) => h.recordId)).not.toContain('r1');
  });

  it('are kept when the knowledge base uses them as words of its own (a product called "R")', () => {
    expect(spellOutChatSpeak('is the R in stock', 'en', (w) => w === 'r')).toBe('is the R in stock');
  });

  it('are spelled out where only the chat word fits the next word, even when the knowledge base uses them ("cb de jours" beside a shop\'s "CB")', () => {
    const usesCb = (w: string) => w === 'cb';
    expect(spellOutChatSpeak('le rembourssement ca prend cb de jour apres le retour', 'fr', usesCb)).toBe('le rembourssement ca prend combien de jour apres le retour');
    expect(spellOutChatSpeak("cb d'articles max ? et cb ça coûte", 'fr', usesCb)).toBe("combien d'articles max ? et combien ça coûte");
    // The shop's card stays the card.
    expect(spellOutChatSpeak('je peux payer par cb ?', 'fr', usesCb)).toBe('je peux payer par cb ?');
    expect(spellOutChatSpeak('la CB devrait passer', 'fr', usesCb)).toBe('la CB devrait passer');
    expect(spellOutChatSpeak('cb desk', 'fr', usesCb)).toBe('cb desk');
  });
});

describe('a misspelt word with more than one reading', () => {
  it('is matched to each word one edit away that the knowledge base uses ("startr": start and starter)', () => {
    const index = KnowledgeIndex.build([
      { recordId: 'r1', title: 'Starter plan', text: 'The Starter plan is for up to 15 users.', sourceName: 'plans.md' },
      { recordId: 'r2', title: 'Getting started', text: 'Start a trial. Start inviting people. Start scheduling shifts.', sourceName: 'start.md' },
    ]);
    const startr = index.expand('startr plan').words.find((w) => w.surface === 'startr');
    expect(startr?.via).toBe('spelling');
    expect(startr?.matches.map((m) => m.term).sort()).toEqual(['start', 'starter']);
    expect(index.search('how many users on the startr plan', 1)[0]?.recordId).toBe('r1');
  });
});
