/**
 * Text analysis shared by the index and the answerer: the same chain must run on records and
 * queries, otherwise terms would not meet.
 *
 * Chain: (German: ä/ö/ü → ae/oe/ue, as Germans type them without umlauts) → NFKC (full-width
 * forms, ligatures) → lower-case → strip combining diacritics → words of letters, marks and
 * digits → the language's stemmer (Porter for English, Snowball for the others) for plain a–z
 * words. The language is the knowledge base's (see language/): never the English stemmer on
 * German. Text in a language without a profile is not stemmed. Scripts written
 * without spaces (CJK, Thai…) have no word boundaries we can find without a dictionary, so they
 * become overlapping character bigrams, which is what Lucene's CJK analyzer does too.
 */
import { DEFAULT_LANGUAGE, languageProfile } from '../language/languages.js';

export interface Token {
  /** The term as indexed: normalised, stemmed, or a CJK bigram/unigram. */
  term: string;
  /** A stop-word of the language: indexed (so stop-word-only queries still work) but not scored normally. */
  stop: boolean;
}

/**
 * `index` emits, for a run of CJK characters, its bigrams and its single characters, so that a
 * one-character query still finds the record. `query` emits only the bigrams (single character
 * for a one-character run), which are far more precise than single characters.
 */
export type AnalysisMode = 'index' | 'query';

/** Longer "words" (hashes, base64, URLs without separators) are cut: nobody searches for their tail. */
const MAX_TERM_CHARS = 64;

// Character classes. ASCII is looked up in a table; other code points are classified once with
// Unicode property regexes and cached, because running a \p{…} regex over every record is the
// slowest part of indexing otherwise.
const SEP = 0;
const WORD = 1;
/** Scripts written without spaces between words (and the Japanese length mark and iteration mark). */
const NO_SPACE = 2;
const NO_SPACE_RE = /^[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}\u30FC\u3005]$/u;
const WORD_RE = /^[\p{L}\p{M}\p{N}]$/u;
const ASCII_CLASS = new Uint8Array(128).map((_, c) => (/[a-zA-Z0-9]/.test(String.fromCharCode(c)) ? WORD : SEP));
// 255 = not yet classified. The BMP fits in 64 KB; astral code points go to a map.
const BMP_CLASS = new Uint8Array(0x10000).fill(255);
const ASTRAL_CLASS = new Map<number, number>();

function classifyCodePoint(cp: number): number {
  const ch = String.fromCodePoint(cp);
  return NO_SPACE_RE.test(ch) ? NO_SPACE : WORD_RE.test(ch) ? WORD : SEP;
}

function classAt(cp: number): number {
  if (cp < 128) return ASCII_CLASS[cp] as number;
  if (cp < 0x10000) {
    let k = BMP_CLASS[cp] as number;
    if (k === 255) {
      // Lone surrogates are not characters: separators.
      k = cp >= 0xd800 && cp <= 0xdfff ? SEP : classifyCodePoint(cp);
      BMP_CLASS[cp] = k;
    }
    return k;
  }
  let k = ASTRAL_CLASS.get(cp);
  if (k === undefined) {
    k = classifyCodePoint(cp);
    ASTRAL_CLASS.set(cp, k);
  }
  return k;
}

// The combining diacritical mark blocks only: stripping every \p{M} would damage Indic vowel signs.
// A class of lone combining marks is exactly what is meant here.
// eslint-disable-next-line no-misleading-character-class
const DIACRITICS_RE = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;
// Letters that carry their "accent" inside the code point and so survive NFD.
const FOLD: Readonly<Record<string, string>> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };
const FOLD_RE = /[ßæœøłđðþı]/g;
const NON_ASCII_RE = /[^\x00-\x7f]/;

/** Lower-cased, compatibility-normalised text without diacritics ("Café" → "cafe"). */
export function normalizeText(text: string): string {
  // Plain ASCII needs no Unicode normalisation (the common case, and 4 passes fewer).
  if (!NON_ASCII_RE.test(text)) return text.toLowerCase();
  return text
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD')
    .replace(DIACRITICS_RE, '')
    .replace(FOLD_RE, (c) => FOLD[c] ?? c)
    .normalize('NFC');
}

const UMLAUTS_RE = /[äöüÄÖÜ]/g;
const UMLAUTS: Readonly<Record<string, string>> = { ä: 'ae', ö: 'oe', ü: 'ue', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue' };

/** `normalizeText` with the language's own folding first (German umlauts as ae/oe/ue). */
export function normalizeFor(text: string, language: string): string {
  if (language === 'de' && UMLAUTS_RE.test(text)) {
    UMLAUTS_RE.lastIndex = 0;
    return normalizeText(text.replace(UMLAUTS_RE, (c) => UMLAUTS[c] ?? c));
  }
  return normalizeText(text);
}

interface WordInfo {
  term: string;
  stop: boolean;
}

// Stemming and the stop-word check dominate indexing time; vocabularies are small, so both are
// memoised in one map (one hash lookup per word). Bounded, and simply cleared when full.
// Only short words are cached: V8 represents longer substrings as slices that would keep the
// whole (normalised) record text alive for as long as the cache holds the word.
const WORD_CACHE_MAX = 50_000;
const CACHED_WORD_MAX_CHARS = 12;
const wordCaches = new Map<string, Map<string, WordInfo>>();

function cacheFor(language: string): Map<string, WordInfo> {
  let cache = wordCaches.get(language);
  if (cache === undefined) {
    cache = new Map();
    wordCaches.set(language, cache);
  }
  return cache;
}

function wordInfo(word: string, plain: boolean, language: string, cache: Map<string, WordInfo>): WordInfo {
  const cacheable = word.length <= CACHED_WORD_MAX_CHARS;
  let info = cacheable ? cache.get(word) : undefined;
  if (info === undefined) {
    const profile = languageProfile(language);
    // Stemmers are for words: only plain a–z words (after folding) of some length go through them.
    info = { term: profile && plain && word.length >= 3 ? profile.stem(word) : word, stop: profile?.stopWords.has(word) ?? false };
    if (cacheable) {
      if (cache.size >= WORD_CACHE_MAX) cache.clear();
      cache.set(word, info);
    }
  }
  return info;
}

function emitRun(run: string, mode: AnalysisMode, terms: string[], stops: boolean[] | null): void {
  const chars = Array.from(run);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    const next = chars[i + 1];
    // A one-character run is its own term; longer runs give bigrams (and, when indexing, unigrams).
    if (mode === 'index' || chars.length === 1) {
      terms.push(c);
      stops?.push(false);
    }
    if (next !== undefined) {
      terms.push(c + next);
      stops?.push(false);
    }
  }
}

const CODE_A = 97;
const CODE_Z = 122;

const US_RE = /(?<![\p{L}\p{N}])US(?![\p{L}\p{N}])/gu;
const LOWER_RE = /\p{Ll}/u;

/**
 * English `text` with "US" written in capitals as "USA": the country, which lower-cased would be
 * the pronoun of "contact us" (a stop word). A line without a lower-case letter is shouted ("CONTACT
 * US"), and its "US" is left as written.
 */
export function usAsCountry(text: string): string {
  if (!text.includes('US')) return text;
  return text.replace(US_RE, (word: string, at: number) => {
    const start = text.lastIndexOf('\n', at) + 1;
    const end = text.indexOf('\n', at);
    return LOWER_RE.test(text.slice(start, end < 0 ? text.length : end)) ? 'USA' : word;
  });
}

/**
 * Scans normalised text into words and no-space runs in one pass, appending terms (and, when
 * `stops` is given, their stop-word flags). Hot path of indexing, hence the plain loops.
 */
function scan(text: string, mode: AnalysisMode, terms: string[], stops: boolean[] | null, language: string, surfaces: string[] | null = null): void {
  const s = normalizeFor(language === 'en' ? usAsCountry(text) : text, language);
  const cache = cacheFor(language);
  const n = s.length;
  let i = 0;
  while (i < n) {
    let cp = s.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff) cp = s.codePointAt(i) as number;
    const kind = cp < 128 ? (ASCII_CLASS[cp] as number) : classAt(cp);
    if (kind === SEP) {
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    const start = i;
    let plain = true;
    while (i < n) {
      let c = s.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff) c = s.codePointAt(i) as number;
      if ((c < 128 ? (ASCII_CLASS[c] as number) : classAt(c)) !== kind) break;
      if (c < CODE_A || c > CODE_Z) plain = false;
      i += c > 0xffff ? 2 : 1;
    }
    if (kind === NO_SPACE) {
      const before = terms.length;
      emitRun(s.slice(start, i), mode, terms, stops);
      if (surfaces) for (let k = before; k < terms.length; k++) surfaces.push(terms[k] as string);
      continue;
    }
    const word = s.slice(start, Math.min(i, start + MAX_TERM_CHARS));
    const info = wordInfo(word, plain, language, cache);
    terms.push(info.term);
    stops?.push(info.stop);
    surfaces?.push(word);
  }
}

/** The tokens of `text`, in order, stop-words included and flagged. Never throws on any string. */
export function analyze(text: string, mode: AnalysisMode = 'index', language = DEFAULT_LANGUAGE): Token[] {
  const terms: string[] = [];
  const stops: boolean[] = [];
  scan(text, mode, terms, stops, language);
  return terms.map((term, i) => ({ term, stop: stops[i] === true }));
}

/** The terms of `text` as the index stores them (stop-words kept). */
export function tokenize(text: string, mode: AnalysisMode = 'index', language = DEFAULT_LANGUAGE): string[] {
  const terms: string[] = [];
  scan(text, mode, terms, null, language);
  return terms;
}

/** A word of a text with its surface (normalised, unstemmed) form, for spelling and variant matching. */
export interface SurfaceToken extends Token {
  surface: string;
}

/** The words of a text as parallel arrays (no object per word: indexing runs this on every record). */
export interface AnalysedWords {
  terms: string[];
  stops: boolean[];
  surfaces: string[];
}

export function analyzeWords(text: string, language = DEFAULT_LANGUAGE, mode: AnalysisMode = 'query'): AnalysedWords {
  const words: AnalysedWords = { terms: [], stops: [], surfaces: [] };
  scan(text, mode, words.terms, words.stops, language, words.surfaces);
  return words;
}

/** The tokens of `text` with their surface forms, as a query is analysed. */
export function analyzeSurface(text: string, language = DEFAULT_LANGUAGE, mode: AnalysisMode = 'query'): SurfaceToken[] {
  const { terms, stops, surfaces } = analyzeWords(text, language, mode);
  return terms.map((term, i) => ({ term, stop: stops[i] === true, surface: surfaces[i] as string }));
}
