/**
 * Meets a visitor's words with the knowledge base's: each content word of a question is matched
 * (match-word.ts) to the index's terms exactly, as a morphological variant ("deliver" ~ "delivery", "pay" ~
 * "payment"), as part of a compound ("card" in "Mastercard", "Kosten" in "Versandkosten",
 * "Lieferzeit" = "Liefer" + "Zeit"), or as a misspelling of a word the knowledge base uses
 * ("shippping", "warrenty") — spelling is corrected only for words that are not ordinary words of
 * the language. Each word also carries how informative it is in general language, so an ordinary
 * word the records do not use ("long", "things") weighs little and the name of something they
 * never mention ("Mars", "oat") weighs a lot.
 */
import { isSituationTime } from '../language/situation-times.js';
import { type AnswerType, ageNames, answerTypeTerm, askedAnswerTypes, colourNames, durationNames, isCurrencyName, speedNames, trackingWords } from '../language/answer-types.js';
import { CONTACT_KINDS, type ContactAsk, isContactAsk, kindNames, offerWords } from '../language/contact-details.js';
import { askedOrder, type OrderDirection, type OrderedBy } from '../language/product-order.js';
import { askedOfEach } from '../language/each-question.js';
import { hyphenedNumbersAsDigits } from '../language/number-words.js';
import { hyphenedParticles, particleVerb, phraseTerm } from '../language/phrasal-verbs.js';
import { askedRange } from '../language/range-question.js';
import { spellOutAskingSlips } from '../language/asking-slips.js';
import { numbersApartFromUnits } from '../language/units.js';
import { materialAsked } from '../language/material-question.js';
import { missingDeliveryAsking, missingDeliveryWords } from '../language/missing-delivery.js';
import { spellOutChatSpeak, spellOutWont } from '../language/chat-speak.js';
import { acceptWords, asksAboutPaying, cardNetworkNames, isCardWord, isTakeWord } from '../language/payment-cards.js';
import { placeNameLength } from '../language/places.js';
import { commonRank, commonWordMisspelt, generalInformativeness } from '../language/common-words.js';
import { isMisspeltStopWord, STOP_WORDS_BY_LANGUAGE } from '../language/stopwords.js';
import { analyzeWords, normalizeFor, usAsCountry } from './tokenize.js';
import { type TermMatch, type MatchKind, type Vocabulary, VARIANT_CREDIT, SPELLING_CREDIT, RELATED_CREDIT, COMPOUND_CREDIT, COMPOUNDING, mergeMatches, namesMatches, commonestName, present } from './term-matches.js';
import { NUMBER_RE, type WordMatcher, matchWord } from './match-word.js';
import { isCountryInLowerCase, placeNamesMatches, lengthFieldMatches, sizeFieldMatches } from './word-meanings.js';
import { askedSizeWord } from '../language/size-question.js';
import { type CompiledSynonyms, withOwnerSynonyms } from './owner-synonyms.js';

/** How general-language informativeness is scaled (see `generalInformativeness`). */
export interface InformativenessScale {
  commonRank: number;
  rareRank: number;
}

export const DEFAULT_INFORMATIVENESS: InformativenessScale = { commonRank: 1500, rareRank: 10000 };

const NAME_RE = /(?<![.!?]\s{0,3}|^\s*)\b\p{Lu}[\p{Ll}\p{M}]+\b|\b\p{Lu}{2,}\b/gu;

/**
 * Words written as names: capitalised inside a sentence ("ship to Mars"), or in capitals ("CEO").
 * They name things, so they are as informative as rare words whatever their frequency. Not in
 * German, where every noun is capitalised (capitals still count there).
 */
function namesIn(query: string, language: string): Set<string> {
  const out = new Set<string>();
  for (const m of query.matchAll(NAME_RE)) {
    const word = m[0];
    if (language === 'de' && !/^\p{Lu}{2,}$/u.test(word)) continue;
    out.add(normalizeFor(word, language));
  }
  return out;
}

/** Two or more capitalised words in a row inside a sentence ("integrate with Microsoft Teams"). */
const NAME_PHRASE_RE = /(?<![.!?]\s{0,3}|^\s*)(?<![\p{L}\p{N}'’])\p{Lu}[\p{Ll}\p{M}]+(?:[ \t]+\p{Lu}[\p{Ll}\p{M}\p{N}]*)+(?![\p{L}\p{N}])/gu;
/** A question with more capitalised words than this share is written in title case: its capitals name nothing. */
const TITLE_CASE_SHARE = 0.5;

/**
 * Names of several words, each capitalised, inside a sentence ("Microsoft Teams", "Brew Scale
 * Pro"), as normalised words joined with a space: a name that no record writes is something the
 * records never mention, though each of its words may be theirs ("Sign in with Microsoft" and "the
 * Team plan" are not "Microsoft Teams"; answering/unknown-names.ts). Not in German, where
 * every noun is capitalised, nor in a question written in title case.
 */
function namePhrasesIn(query: string, language: string): string[] {
  if (language === 'de') return [];
  const found = query.match(NAME_PHRASE_RE);
  if (found === null) return [];
  const words = query.match(/\p{L}[\p{L}\p{M}]*/gu) ?? [];
  const capitalised = words.filter((w) => /^\p{Lu}/u.test(w)).length;
  if (capitalised > TITLE_CASE_SHARE * words.length) return [];
  return found.map((phrase) => phrase.split(/\s+/u).map((w) => normalizeFor(w, language)).join(' '));
}

export interface QueryWord {
  /** Normalised, unstemmed form as typed. */
  surface: string;
  /** Stemmed term. */
  term: string;
  /** Informativeness in general language, 0 (very common) … 1 (rare or unknown). */
  general: number;
  /** Indexed terms this word matches, best first; empty when none. */
  matches: readonly TermMatch[];
  via: MatchKind;
  /** The name of several words the word is part of ("microsoft teams"): unmatched when no record writes the name. */
  phrase?: string;
  /**
   * `matches` are the words this compound is made of ("Gutscheincode": "Gutschein", "Code"): a
   * passage that writes them all meets it as fully as the compound itself ("Gib den Code im Feld
   * „Gutschein einlösen“ ein"), one that writes one of them at a part's credit.
   */
  parts?: true;
}

export interface ExpandedQuery {
  language: string;
  /** Distinct content words, in question order. */
  words: readonly QueryWord[];
  /** Distinct stop-word terms (what a stop-word-only question searches with). */
  stopTerms: readonly string[];
  /** The question asks for the cheapest or the dearest, or the lightest or the heaviest, of what it names (language/product-order.ts). */
  order?: { direction: OrderDirection; by: OrderedBy };
  /**
   * The question asks which products of a kind the shop has ("Do you sell grinders?",
   * language/range-question.ts): the surfaces of the words naming the kind, and whether a qualifier
   * follows them ("… for the espresso machines").
   */
  range?: { head: ReadonlySet<string>; qualified: boolean };
  /** The question asks the same of each of several things it names ("both grinders", "eure beiden Astscheren jeweils": language/each-question.ts). */
  each?: true;
}

/**
 * German words after which a capitalised word names a place ("nach Graz", "ich wohne in Linz"):
 * German capitalises every noun, so a word that is also a place ("Porto", postage) is read as the
 * place only here, when it is a country, or when it is all the question says ("Wien?").
 */
const GERMAN_PLACE_WORDS: ReadonlySet<string> = new Set(['nach', 'in', 'im', 'aus', 'von', 'vom', 'bei', 'ab', 'bis', 'nahe', 'richtung']);

/**
 * A place named in several words at `surfaces[start]` ("Mexico City", "New Zealand", "Frankfurt am
 * Main"), as one word of the question: its own name where the records use it, else what it is in
 * ("Mexico City" → "We ship to Mexico"), so that neither "city" nor "new" is taken for a topic of
 * its own. Only written as a name or with a word that is not an ordinary one ("long beach" is not
 * Long Beach).
 */
function placeOfWords(surfaces: readonly string[], stops: readonly boolean[], start: number, names: ReadonlySet<string>, vocab: Vocabulary): { word: QueryWord; length: number } | undefined {
  if (stops[start]) return undefined;
  const length = placeNameLength(surfaces, start);
  if (length < 2) return undefined;
  const words = surfaces.slice(start, start + length);
  if (!words.some((w, k) => names.has(w) || (!stops[start + k] && commonRank(w, vocab.language) === undefined))) return undefined;
  const surface = words.join(' ');
  const own = namesMatches(vocab, [surface], 1);
  const matches = own.length > 0 ? own : placeNamesMatches(vocab, surface);
  const word: QueryWord = { surface, term: surface, general: 1, matches, via: own.length > 0 ? 'exact' : matches.length > 0 ? 'related' : 'none' };
  return { word, length };
}

export function expandQuery(
  typed: string,
  vocab: Vocabulary,
  scale: InformativenessScale = DEFAULT_INFORMATIVENESS,
  match: WordMatcher = (surface, term, isName) => matchWord(vocab, surface, term, isName),
  synonyms?: CompiledSynonyms,
): ExpandedQuery {
  const used = (word: string) => vocab.docFreq(word) > 0;
  // "hw meny" → "how many": abbreviations first, then slips of the words that ask for a kind of
  // answer; then numbers written against a unit's symbol apart from it ("51mm" → "51 mm"); then
  // "made of" as the word for material the records use ("Material: porcelain").
  const slipsOut = numbersApartFromUnits(spellOutAskingSlips(spellOutChatSpeak(spellOutWont(typed, vocab.language), vocab.language, used), vocab.language, used), used);
  const spelled = materialAsked(slipsOut, vocab.language, (word) => analyzeWords(word, vocab.language, 'query').terms.some(used));
  // "the US" in capitals is the country, not the pronoun: read as the records are (tokenize.ts).
  // "one-person" is the number 1, not the pronoun (language/number-words.ts).
  const query = vocab.language === 'en' ? hyphenedNumbersAsDigits(usAsCountry(spelled), 'en') : spelled;
  const { terms, stops, surfaces } = analyzeWords(query, vocab.language, 'query');
  const names = namesIn(query, vocab.language);
  const phrases = namePhrasesIn(query, vocab.language);
  // "the cheapest" names an order to pick by, not a word the answer must contain: it asks for a price.
  const order = askedOrder(query, vocab.language);
  // "Do you sell …" names the asking, not a word a product's record must contain.
  const range = order ? undefined : askedRange(query, vocab.language);
  // "both", "jeweils" name the asking too: the same thing is asked of each product named.
  const each = order || range ? undefined : askedOfEach(query, vocab.language);
  const asking = order?.words ?? range?.words ?? each;
  // "My parcel never arrived": the negation and the verb ask after a lost or late delivery.
  const missing = missingDeliveryAsking(query, vocab.language);
  const askingWords = [...(asking ?? []), ...(missing === undefined ? [] : [missing])];
  const askingSurfaces = askingWords.length > 0 ? new Set(analyzeWords(askingWords.join(' '), vocab.language, 'query').surfaces) : undefined;
  const aboutPaying = asksAboutPaying(surfaces);
  // "What happens if …" asks what follows; its verb names no topic where the records never use it.
  const consequence = consequenceVerb(query, vocab.language);
  const contentWords = stops.filter((stop) => !stop).length;
  const hyphened = hyphenedParticles(query, (word) => analyzeWords(word, vocab.language, 'query').surfaces.at(-1));
  const seen = new Set<string>();
  let namesCurrency = false;
  const words: QueryWord[] = [];
  const stopTerms: string[] = [];
  for (let i = 0; i < terms.length; i++) {
    const term = terms[i] as string;
    const surface = surfaces[i] as string;
    const place = placeOfWords(surfaces, stops, i, names, vocab);
    if (place !== undefined) {
      words.push(place.word);
      for (let j = i; j < i + place.length; j++) seen.add(terms[j] as string);
      i += place.length - 1;
      continue;
    }
    // "sign up" is not "sign in": a phrasal verb's particle says what the verb does.
    // Only where the records use the verb ("sign in"): a verb they never use is no topic of theirs, with or without its particle ("team up").
    const verb = stops[i] ? particleVerb(surfaces, stops, i, vocab.language, hyphened) : undefined;
    if (verb !== undefined && vocab.docFreq(terms[verb] as string) > 0 && !askingSurfaces?.has(surfaces[verb] as string)) {
      const phrase = phraseTerm(surfaces[verb] as string, surface);
      if (!seen.has(phrase)) {
        seen.add(phrase);
        words.push({ surface: `${surfaces[verb] as string} ${surface}`, term: phrase, general: PARTICLE_INFORMATIVENESS, matches: [{ term: phrase, credit: 1 }], via: 'exact' });
      }
      continue;
    }
    if (seen.has(term)) continue;
    seen.add(term);
    if (stops[i] || askingSurfaces?.has(surface) || (surface === consequence && vocab.docFreq(term) === 0)) {
      stopTerms.push(term);
      continue;
    }
    const matched = match(surface, term, names.has(surface) || (vocab.language === 'de' && (GERMAN_PLACE_WORDS.has(surfaces[i - 1] ?? '') || contentWords === 1)));
    // A slip for a function word the records use ("meny" for "many") is filler, like the word meant.
    if (matched.meant !== undefined && STOP_WORDS_BY_LANGUAGE[vocab.language]?.has(matched.meant)) {
      stopTerms.push(term);
      continue;
    }
    let { matches, via } = matched;
    // A slip on a function word ("wat", "wen") is filler, like the word meant.
    if (via === 'none' && !names.has(surface) && commonRank(surface, vocab.language) === undefined && isMisspeltStopWord(surface, vocab.language)) {
      stopTerms.push(term);
      continue;
    }
    // "200 Euro" of records that write "200 €": after a number, a currency's name is the amount the
    // records give. Not on its own: "the exchange rate of the euro" names something they never do.
    if (matches.length === 0 && isCurrencyName(surface, vocab.language) && NUMBER_RE.test(surfaces[i - 1] ?? '')) {
      namesCurrency = true;
      stopTerms.push(term);
      continue;
    }
    let typed = matched.meant ?? surface;
    // A misspelt ordinary word ("somthing") counts as the word meant, matched or not.
    const meant = via === 'none' && !names.has(surface) ? commonWordMisspelt(surface, vocab.language) : undefined;
    if (meant !== undefined) {
      typed = meant;
      const corrected = match(meant, analyzeWords(meant, vocab.language, 'query').terms[0] ?? meant, false);
      matches = corrected.matches.map((m) => ({ term: m.term, credit: m.credit * SPELLING_CREDIT }));
      if (matches.length > 0) via = 'spelling';
    }
    // In a question about paying, "cards" are the networks the records name ("Which cards do you
    // take?" / "We accept Visa, Mastercard and PayPal"); a gift card or a graphics card is not.
    if (isCardWord(surface) && aboutPaying) {
      const networks = commonestName(vocab, cardNetworkNames(), RELATED_CREDIT.synonym);
      if (networks.length > 0) {
        matches = mergeMatches(matches, networks);
        if (via === 'none') via = 'related';
      }
    }
    // …and to "take" one is to accept it ("Do you take Amex?" / "We accept American Express").
    if (aboutPaying && isTakeWord(surface)) {
      const accept = namesMatches(vocab, acceptWords(), VARIANT_CREDIT);
      if (accept.length > 0) {
        matches = mergeMatches(matches, accept);
        if (via === 'none') via = 'related';
      }
    }
    // Numbers are as informative as rare words: "58 mm", "2 years".
    // "tomorrow", "tonight", "heute Abend" say when the visitor asks, not what about (language/situation-times.ts).
    const general = NUMBER_RE.test(surface) || names.has(surface) || isCountryInLowerCase(surface, vocab.language) ? 1 : isSituationTime(surface, vocab.language) ? 0 : generalInformativeness(typed, vocab.language, scale.commonRank, scale.rareRank);
    const word: QueryWord = { surface, term, general, matches, via };
    if (matched.parts && matches === matched.matches) word.parts = true;
    const phrase = phrases.find((p) => p.split(' ').includes(surface));
    if (phrase !== undefined) word.phrase = phrase;
    words.push(word);
  }
  // "Porto" where the owner says it means "Versandkosten" also meets the records' "Versandkosten".
  if (synonyms !== undefined) {
    const owned = withOwnerSynonyms(words, { terms, surfaces }, synonyms, vocab);
    if (owned !== words) words.splice(0, words.length, ...owned);
  }
  const asked = askedAnswerTypes(query, vocab.language);
  // "the cheapest" asks for a price, "the lightest" for a weight.
  const orderAsks = order?.by === 'weight' ? 'weight' : order?.by === 'price' ? 'amount' : undefined;
  // "the biggest jug" asks for what it holds: a word that meets the records' capacity and size fields.
  if (order?.by === 'capacity') {
    const field = sizeFieldMatches(vocab);
    if (field.length > 0) words.push({ surface: [...order.words].join(' '), term: [...order.words].join(' '), general: 0, matches: field, via: 'related' });
  }
  // …and is met by the records' words for a delivery that is lost, missing or late.
  if (missing !== undefined) words.push(wordOfRecords('missing delivery', 'missing delivery', missingDeliveryWords(vocab.language), vocab));
  if (orderAsks !== undefined && !asked.includes(orderAsks)) asked.push(orderAsks);
  if (namesCurrency && !asked.includes('amount')) asked.push('amount');
  // "phone number": its words name the kind of answer, not a topic the answer must share. "colour"
  // stays when the records use it ("Colors: navy, grey"): there it finds the line; "number" or
  // "open" would find the wrong ones ("order number", "open an investigation").
  // "speed" stays where the records use it ("Top speed: 25 km/h"), as "colour" does.
  const kinds = asked.filter((type): type is NamedKind => type === 'colour' || type === 'duration' || type === 'age' || type === 'speed' || isContactAsk(type));
  const stays = (kind: NamedKind, w: QueryWord) => (kind === 'colour' && w.matches.length > 0) || (kind === 'speed' && w.via === 'exact');
  const namesKind = (w: QueryWord) => kinds.some((kind) => !stays(kind, w) && kindNameSurfaces(kind, vocab.language).has(w.surface));
  // "How long is the hose?": "long" asks for the length field too, where the records name one.
  const lengthField = asked.includes('length') ? lengthFieldMatches(vocab) : [];
  const asLength = (w: QueryWord): QueryWord[] => (lengthField.length > 0 && kindNameSurfaces('duration', vocab.language).has(w.surface) ? [{ ...w, matches: lengthField, via: 'related' }] : []);
  const topical = kinds.length === 0 ? words : words.flatMap((w) => (namesKind(w) ? asLength(w) : [w]));
  const expanded: ExpandedQuery = { language: vocab.language, words: withAnswerTypes(asked, withSizeField(query, withCompoundsWrittenApart(topical, vocab), vocab), vocab), stopTerms };
  if (order) expanded.order = { direction: order.order, by: order.by };
  if (range) expanded.range = { head: new Set(analyzeWords([...range.head].join(' '), vocab.language, 'query').surfaces), qualified: range.qualified };
  if (each) expanded.each = true;
  return expanded;
}

/**
 * A German or Dutch compound the visitor writes apart ("Kann ich bar zahlen?" / "Barzahlung", "Was
 * kostet der Versand?" / "Versandkosten"): two neighbouring content words, in either order, meet
 * the compounds of the knowledge base that the one starts and the other continues (as written, or
 * its base without a verb's ending: "kostet" → "kost"), at a compound part's credit. A word the
 * records lack is met by the compound alone; one they use keeps its own matches too.
 */
function withCompoundsWrittenApart(words: QueryWord[], vocab: Vocabulary): QueryWord[] {
  if (!COMPOUNDING.has(vocab.language)) return words;
  let out = words;
  for (let k = 0; k + 1 < words.length; k++) {
    for (const [at, then] of [[k, k + 1], [k + 1, k]] as const) {
      const first = out[at] as QueryWord;
      const next = out[then] as QueryWord;
      const compounds = compoundsOf(first, next, vocab);
      if (compounds.length === 0) continue;
      if (out === words) out = [...words];
      out[at] = first.matches.length === 0 ? { ...first, matches: compounds, via: 'compound' } : { ...first, matches: mergeMatches(first.matches, compounds) };
      out[then] = { ...next, matches: mergeMatches(next.matches, compounds) };
    }
  }
  return out;
}

/** Endings of a German verb or noun form taken off a compound's second word before it is looked for ("kostet" → "kost"). */
const PART_ENDINGS = ['et', 'en', 'st', 't', 'e', 'n'];

/** The compounds of the knowledge base that `first` starts and `next` continues ("versand" + "kostet": "versandkosten"). */
function compoundsOf(first: QueryWord, next: QueryWord, vocab: Vocabulary): TermMatch[] {
  if (next.term.length < 3 || /[^\p{L}]/u.test(first.surface + next.term)) return [];
  const tails = [next.term];
  for (const ending of PART_ENDINGS) if (next.term.endsWith(ending) && next.term.length - ending.length >= 3) tails.push(next.term.slice(0, -ending.length));
  const compounds: TermMatch[] = [];
  for (const tail of tails) {
    for (const v of vocab.surfacesWithPrefix(first.surface + tail, 8)) {
      const t = vocab.termOfSurface(v);
      if (present(vocab, t) && !compounds.some((m) => m.term === t)) compounds.push({ term: t, credit: COMPOUND_CREDIT });
    }
    if (compounds.length > 0) break;
  }
  return compounds;
}

/**
 * "Wie groß ist das Hochbeet?": "groß" also meets the records' nouns of a size ("Maße: 120 x 80 x
 * 80 cm"), where they name one (language/size-question.ts).
 */
function withSizeField(query: string, words: QueryWord[], vocab: Vocabulary): QueryWord[] {
  const asking = askedSizeWord(query, vocab.language);
  if (asking === undefined) return words;
  const surface = analyzeWords(asking, vocab.language, 'query').surfaces[0];
  const field = sizeFieldMatches(vocab);
  if (field.length === 0) return words;
  // The adjective asks for the size, it names no product: "How big is the small milk jug?" is not
  // also about the large one, which "big" ~ "large" met.
  return words.map((w) => {
    if (w.surface !== surface) return w;
    const own = w.matches.filter((m) => m.term === w.term);
    return { ...w, matches: mergeMatches(own, field), via: own.length > 0 ? w.via : 'related' };
  });
}

/** "What happens if/when …", "Was passiert, wenn …", "Que se passe-t-il si …": the verb, as the analysis writes it. */
const CONSEQUENCE_ASKS: Readonly<Record<string, RegExp>> = {
  en: /(?<!\p{L})what(?:'s| is| will| would)? (happens?|happened|happening)(?= (?:if|when|to|after|with|once)(?!\p{L}))/iu,
  de: /(?<!\p{L})was (passiert|geschieht)(?=,? (?:wenn|mit|nach|falls|bei)(?!\p{L}))/iu,
  fr: /(?<!\p{L})que se (passe)(?:-t-il| t il)?(?= (?:si|quand|lorsque|avec|après)(?!\p{L}))|(?<!\p{L})qu['’]est-ce qui (se passe)(?= (?:si|quand|lorsque|avec|après)(?!\p{L}))/iu,
};

/** The verb of a question that asks what follows something ("what happens if"), or undefined. */
function consequenceVerb(query: string, language: string): string | undefined {
  const found = CONSEQUENCE_ASKS[language]?.exec(query);
  const verb = found?.[1] ?? found?.[2];
  return verb === undefined ? undefined : analyzeWords(verb, language, 'query').surfaces.at(-1);
}

/**
 * A word a question asks with a phrase rather than a word of its own ("Where is my order?",
 * "My parcel never arrived"), met by the records' own words for it (`names`: "tracking",
 * "missing") at full credit and weighed like any word they use (`general` 0: "tracking" in a
 * time-tracking app is no rare word); `term` when they use none.
 */
function wordOfRecords(surface: string, term: string, names: readonly string[], vocab: Vocabulary): QueryWord {
  const matches = namesMatches(vocab, names, 1);
  return { surface, term: matches[0]?.term ?? term, general: 0, matches, via: matches.length > 0 ? 'related' : 'none' };
}

/** How informative a phrasal verb's particle weighs in general language: it turns the verb into another ("sign up" / "sign in"). */
const PARTICLE_INFORMATIVENESS = 0.5;

/** Kinds of answer whose asking words are not the topic ("phone number", "colour", "how long"). */
type NamedKind = ContactAsk | 'colour' | 'duration' | 'age' | 'speed';

/** `kindNames` as the tokeniser reads them, per kind and language; made once. */
const kindNameSurfaceSets = new Map<string, ReadonlySet<string>>();

function kindNameSurfaces(kind: NamedKind, language: string): ReadonlySet<string> {
  const key = `${kind} ${language}`;
  let set = kindNameSurfaceSets.get(key);
  if (set === undefined) {
    const names =
      kind === 'colour' ? colourNames(language) : kind === 'duration' ? durationNames(language) : kind === 'age' ? ageNames(language) : kind === 'speed' ? speedNames(language) : kindNames(kind, language);
    set = new Set(names.flatMap((name) => analyzeWords(name, language, 'query').surfaces));
    kindNameSurfaceSets.set(key, set);
  }
  return set;
}

/**
 * A phrase that asks for a kind of answer ("how long", "wie viel") adds one question word that a
 * passage holding such an answer covers (language/answer-types.ts), weighted like a function word.
 * The phrase's own words ("long") stay: a record that repeats them ("how long a repair takes") still
 * matches them, and one that answers without them ("within 30 days") covers the added word.
 * (Dropping them instead scored the same on the tuning half and lost the literal match.) Not so
 * for a kind of contact: "phone number" names the answer (`kindNames`), and the words with which
 * records offer one ("call us", `offerWords`) also find it (contact-details.ts).
 */
function withAnswerTypes(asked: readonly AnswerType[], words: QueryWord[], vocab: Vocabulary): QueryWord[] {
  if (asked.length === 0) return words;
  // "How long is it?" asks for a span of time or a length, either of which answers it: one word.
  const eitherLength = asked.includes('duration') && asked.includes('length');
  return [
    ...words,
    ...(eitherLength ? asked.filter((type) => type !== 'length') : asked).map((type): QueryWord => {
      const term = answerTypeTerm(type);
      // A way of reaching the business is also found by the words that offer it ("call us on").
      // Less than an answer of the kind covers: "calls" is not a phone number.
      const offered = isContactAsk(type) ? namesMatches(vocab, offerWords(type, vocab.language), RELATED_CREDIT.broader) : [];
      // "Where is my order?" is answered by how to track it: a word as the records write it,
      // weighed like any word they use ("tracking" in a time-tracking app is no rare word).
      if (type === 'tracking') return wordOfRecords(type, term, trackingWords(vocab.language), vocab);
      // Any way to reach a person is a phone number or an email address.
      const kinds =
        type === 'contact'
          ? CONTACT_KINDS.map((kind) => ({ term: answerTypeTerm(kind), credit: 1 }))
          : type === 'duration' && eitherLength
            ? [
                { term, credit: 1 },
                { term: answerTypeTerm('length'), credit: 1 },
              ]
            : [{ term, credit: 1 }];
      return { surface: type, term, general: 0, matches: [...kinds, ...offered], via: 'exact' };
    }),
  ];
}
