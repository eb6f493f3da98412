/**
 * Small numbers written as words and as digits: "the two-person tent" names the "Kestrel 2 Tent",
 * "sechs Leute" are "6 Personen", "a 2 year warranty" is the records' "two-year warranty". Words
 * are as the analysis writes them (lower case, diacritics folded, German "ß" as "ss"). One to
 * twelve: the numbers that count people, nights and years in a question.
 *
 * A question's "one" (German "ein(s)", French "un(e)") is not read as 1: it is a pronoun or an
 * article far more often ("the Lintel One", "which one", "ein Zelt"), and a record's "3.1 kg"
 * holds the digit "1". Joined by a hyphen to what it counts, it is the number ("one-person",
 * `hyphenedNumbersAsDigits`). A question's "1" still meets a record's "one".
 */

const WORDS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  en: [['one'], ['two'], ['three'], ['four'], ['five'], ['six'], ['seven'], ['eight'], ['nine'], ['ten'], ['eleven'], ['twelve']],
  de: [['eins'], ['zwei'], ['drei'], ['vier'], ['funf', 'fuenf'], ['sechs'], ['sieben'], ['acht'], ['neun'], ['zehn'], ['elf'], ['zwolf', 'zwoelf']],
  fr: [['un', 'une'], ['deux'], ['trois'], ['quatre'], ['cinq'], ['six'], ['sept'], ['huit'], ['neuf'], ['dix'], ['onze'], ['douze']],
};

const VALUE_OF: ReadonlyMap<string, ReadonlyMap<string, number>> = new Map(
  Object.entries(WORDS).map(([language, numbers]) => [language, new Map(numbers.flatMap((forms, i) => forms.map((form): [string, number] => [form, i + 1])))]),
);

/** The number from two to twelve a question's word writes ("two" → 2), in the language; undefined for any other word (and for "one"). */
export function numberOfWord(word: string, language: string): number | undefined {
  const value = VALUE_OF.get(language)?.get(word);
  return value === undefined || value < 2 ? undefined : value;
}

/** The words that write a number from one to twelve ("2" → "two"), in the language; none for other numbers. */
export function wordsOfNumber(digits: string, language: string): readonly string[] {
  if (!/^\d{1,2}$/u.test(digits)) return [];
  return WORDS[language]?.[Number(digits) - 1] ?? [];
}

/**
 * What a hyphened number counts when it is the number: people and places for them, spans of time,
 * parts. Not "one-time", "one-off", "two-factor", "two-way", where the compound is a word of its own.
 */
const COUNTED = 'person|people|man|men|woman|seat|seater|bed|bedroom|room|berth|night|day|week|month|year|hour|minute|season|burner|slice|cup|door|pack|piece|litre|liter|wheel|speed';

const HYPHENED_RE: Readonly<Record<string, RegExp>> = {
  en: new RegExp(`(?<![\\p{L}\\p{N}-])(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)(?=-(?:${COUNTED})s?(?![\\p{L}\\p{N}]))`, 'giu'),
};

/**
 * `text` with each number word that is joined by a hyphen to a word it counts (`COUNTED`) written
 * as digits ("the one-person tent" → "the 1-person tent"): there it is the number, never a
 * pronoun. English only: German and French write such compounds with digits or as one word.
 */
export function hyphenedNumbersAsDigits(text: string, language: string): string {
  const re = HYPHENED_RE[language];
  if (!re || !text.includes('-')) return text;
  return text.replace(re, (word) => String(VALUE_OF.get(language)?.get(word.toLowerCase()) ?? word));
}
