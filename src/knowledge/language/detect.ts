/**
 * Which language a text is in. Records (long text) go to franc's trigram model, restricted to the
 * languages we analyse; questions are usually too short for trigrams ("Versand nach Wien?"), so
 * they are decided by their stop-words and common words, with the knowledge base's language as
 * the default.
 */
import { franc } from 'franc-min';
import { normalizeFor } from '../retrieval/tokenize.js';
import { commonRank } from './common-words.js';
import { DEFAULT_LANGUAGE, LANGUAGES, languageProfile } from './languages.js';

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
 * The language of a knowledge base: franc on one sample of its records (up to 1,500 characters,
 * a slice of each of the first records), or `fallback` when that is too little to tell. One call,
 * so indexing stays cheap.
 */
export function detectCorpusLanguage(texts: Iterable<string>, fallback = DEFAULT_LANGUAGE): string {
  let sample = '';
  for (const text of texts) {
    sample += `${text.slice(0, 300)}\n`;
    if (sample.length >= 1500) break;
  }
  return detectTextLanguage(sample) ?? fallback;
}

const WORD_RE = /[\p{L}\p{M}]+/gu;

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
  const scores = new Map<string, number>();
  for (const l of LANGUAGES) scores.set(l.code, l.code === fallback ? 1 : 0);
  const words = question.match(WORD_RE) ?? [];
  for (const raw of words.slice(0, 40)) {
    for (const l of LANGUAGES) {
      const w = normalizeFor(raw, l.code);
      const profile = languageProfile(l.code);
      let vote = 0;
      if (profile?.stopWords.has(w)) vote = 2;
      else {
        const rank = commonRank(w, l.code);
        if (rank !== undefined && rank <= 1000) vote = 0.5;
      }
      scores.set(l.code, (scores.get(l.code) ?? 0) + vote);
    }
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
