/**
 * Language identification with franc-min: trigram profiles of the ~80 most spoken languages,
 * shipped as code. Codes are ISO 639-3 ("eng", "cmn"); names come from Intl.DisplayNames.
 */
import { languageCandidates, languageName, minLanguageLength } from '../shared/ai-language.js';
import { round } from '../shared/ai-text.js';

export interface LanguageDetectInput {
  text: string;
  candidates?: number;
}

export interface LanguageCandidate {
  language: string;
  name?: string;
  /** 1 for the best match; lower is less likely (franc's relative score, not a probability). */
  score: number;
}

export interface LanguageDetectOutput {
  /** ISO 639-3 code, or "und" (undetermined). */
  language: string;
  name?: string;
  candidates: LanguageCandidate[];
  message?: string;
}

/** Below this many characters franc guesses, but often wrongly. */
const reliableLength = 50;

function named(code: string): { name?: string } {
  const name = languageName(code);
  return name ? { name } : {};
}

export function run(input: LanguageDetectInput): LanguageDetectOutput {
  const text = input.text.trim();
  const letters = text.replace(/[\s\p{P}\p{S}\p{N}]/gu, '').length;
  if (letters < minLanguageLength) {
    return { language: 'und', candidates: [], message: `Too short to tell: language detection needs at least ${minLanguageLength} letters.` };
  }
  const ranked = languageCandidates(text);
  const best = ranked[0];
  if (!best) return { language: 'und', candidates: [], message: 'No language could be determined from this text.' };
  const output: LanguageDetectOutput = {
    language: best.code,
    ...named(best.code),
    candidates: ranked.slice(0, input.candidates ?? 5).map(({ code, score }) => ({ language: code, ...named(code), score: round(score) })),
  };
  if (text.length < reliableLength) output.message = `Short texts are often misidentified; ${reliableLength} characters or more give a reliable answer.`;
  return output;
}
