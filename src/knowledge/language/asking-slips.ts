/**
 * Slips in the words that say what kind of answer a question wants: "how meny", "how mutch", "how
 * lnog", "wie vile", "conbien". Those words are stop words, so spelling correction (which meets a
 * question's words with the knowledge base's) never looks at them, and the slip only made the word
 * filler: "how meny people on the startr plan" then asked for no count, and a line without one
 * could answer it. Spelled out before a question is analysed, the phrase asks for its kind again
 * (answer-types.ts).
 *
 * Narrow on purpose: only the word after "how" / "wie" (French "combien" stands alone), only a
 * word that is no ordinary word of the language and that the knowledge base does not use, and only
 * one edit (insertion, deletion, substitution or transposition) from exactly one asking word.
 */
import { commonRank } from './common-words.js';
import { withinOneEdit } from './edits.js';

interface Asking {
  /** Finds the word that may be a slip: group 1. */
  pattern: RegExp;
  /** The words it may be a slip for. */
  words: readonly string[];
}

const ASKING: Readonly<Record<string, Asking>> = {
  en: { pattern: /(?<![\p{L}\p{N}])(?<=\bhow\s+)(\p{L}{3,})(?![\p{L}\p{N}])/giu, words: ['many', 'much', 'long', 'often', 'soon', 'quickly', 'fast', 'heavy', 'expensive'] },
  de: { pattern: /(?<![\p{L}\p{N}])(?<=\bwie\s+)(\p{L}{3,})(?![\p{L}\p{N}])/giu, words: ['viel', 'viele', 'lange', 'schnell', 'oft', 'teuer', 'schwer', 'bald'] },
  fr: { pattern: /(?<![\p{L}\p{N}])(\p{L}{6,})(?![\p{L}\p{N}])/giu, words: ['combien'] },
};

/** The one asking word `word` is a slip for, or undefined (none, or more than one). */
function slipFor(word: string, asking: readonly string[]): string | undefined {
  let meant: string | undefined;
  for (const w of asking) {
    if (w === word) return undefined;
    if (!withinOneEdit(word, w)) continue;
    if (meant !== undefined) return undefined;
    meant = w;
  }
  return meant;
}

/**
 * `question` with slips of its asking words spelled out, in `language`. `used(word)` tells whether
 * the knowledge base uses the (lower-case) word as a word of its own; such words are kept.
 */
export function spellOutAskingSlips(question: string, language: string, used: (word: string) => boolean): string {
  const asking = ASKING[language];
  if (asking === undefined) return question;
  return question.replace(asking.pattern, (word: string) => {
    const lower = word.toLowerCase();
    if (commonRank(lower, language) !== undefined || used(lower)) return word;
    return slipFor(lower, asking.words) ?? word;
  });
}
