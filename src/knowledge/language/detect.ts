/**
 * Which language a text is in. Records (long text) go to franc's trigram model, restricted to the
 * languages we analyse; questions are usually too short for trigrams ("Versand nach Wien?"), so
 * they are decided by their stop-words and common words, with the knowledge base's language as
 * the default.
 */
import { franc } from 'franc-min';
import { normalizeFor } from '../retrieval/tokenize.js';
import { commonWords } from './common-words.js';
import { DEFAULT_LANGUAGE, LANGUAGES } from './languages.js';

const ISO3 = LANGUAGES.map((l) => l.iso3);
const FROM_ISO3 = new Map(LANGUAGES.map((l) => [l.iso3, l.code]));

/** Below this many characters franc's guess is not trusted. */
const MIN_FRANC_CHARS = 40;
const MIN_DISTINCT_WORDS = 6;

/** Language of a longer text (a record, many records), or undefined when it is none we analyse or too short to tell. */
export function detectTextLanguage(text: string): string | undefined {
  const sample = text.length > 4000 ? text.slice(0, 4000) : text;
  if (sample.trim().length < MIN_FRANC_CHARS) return undefined;
  // Trigrams of a few repeated words ("refund refund refund") say nothing about the language.
  if (new Set(sample.toLowerCase().match(/\p{L}+/gu) ?? []).size < MIN_DISTINCT_WORDS) return undefined;
  return FROM_ISO3.get(franc(sample, { only: ISO3, minLength: MIN_FRANC_CHARS }));
}

/**
 * The language of a knowledge base: franc on one sample of its records (up to 600 characters,
 * a slice of each of the first records), or `fallback` when that is too little to tell. One call
 * on a short sample (franc's cost grows with the text), so rebuilding an index stays cheap.
 */
export function detectCorpusLanguage(texts: Iterable<string>, fallback = DEFAULT_LANGUAGE): string {
  let sample = '';
  for (const text of texts) {
    sample += `${text.slice(0, 200)}\n`;
    if (sample.length >= 600) break;
  }
  return detectTextLanguage(sample) ?? fallback;
}

const WORD_RE = /[\p{L}\p{M}]+/gu;
const NON_ASCII_RE = /[^\x00-\x7f]/;

/** Votes a word gives each language, keyed by the word as that language normalises it. */
type Votes = ReadonlyMap<string, readonly (readonly [code: string, vote: number])[]>;
let votesTable: Votes | undefined;

/**
 * One table for every language's stop-words (2 votes) and 1,000 most common words (0.5), built on
 * the first question that needs it, so a question costs one or two look-ups per word instead of one
 * per word and language.
 */
function votes(): Votes {
  if (votesTable) return votesTable;
  const table = new Map<string, [string, number][]>();
  const add = (word: string, code: string, vote: number) => {
    const list = table.get(word) ?? [];
    const own = list.find(([c]) => c === code);
    if (own) own[1] = Math.max(own[1], vote);
    else list.push([code, vote]);
    table.set(word, list);
  };
  for (const l of LANGUAGES) {
    for (const w of l.stopWords) add(w, l.code, 2);
    for (const [w, rank] of commonWords(l.code)) if (rank <= 1000) add(w, l.code, 0.5);
  }
  votesTable = table;
  return table;
}

/**
 * Language of a question. Each word votes for the languages whose stop-words contain it (2) or
 * whose 1,000 most common words do (0.5); `fallback` (the knowledge base's language) wins ties and
 * starts with 1, so a question of names, numbers and loan words ("café?") stays in it.
 */
export function detectQuestionLanguage(question: string, fallback = DEFAULT_LANGUAGE): string {
  if (question.length >= 120) {
    const lang = detectTextLanguage(question);
    if (lang) return lang;
  }
  const table = votes();
  const scores = new Map<string, number>([[fallback, 1]]);
  const words = question.match(WORD_RE) ?? [];
  for (const raw of words.slice(0, 40)) {
    // An ASCII word is only lower-cased either way (normalizeText): one pass instead of two.
    const ascii = !NON_ASCII_RE.test(raw);
    const plain = ascii ? raw.toLowerCase() : normalizeFor(raw, DEFAULT_LANGUAGE);
    // German spells umlauts as ae/oe/ue in its table; every other language folds them away.
    const german = ascii ? plain : normalizeFor(raw, 'de');
    for (const [code, vote] of table.get(plain) ?? []) if (code !== 'de' || german === plain) scores.set(code, (scores.get(code) ?? 0) + vote);
    if (german !== plain) for (const [code, vote] of table.get(german) ?? []) if (code === 'de') scores.set(code, (scores.get(code) ?? 0) + vote);
  }
  let best = fallback;
  let bestScore = scores.get(fallback) ?? 0;
  for (const [code, score] of scores) {
    if (score > bestScore) {
      best = code;
      bestScore = score;
    }
  }
  return best;
}
