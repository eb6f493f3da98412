/**
 * Language identification with franc-min (trigram statistics for ~80 languages, shipped as code)
 * and English names for its ISO 639-3 codes through Intl.DisplayNames.
 */
import { francAll } from 'franc-min';

/** franc needs this many characters before it guesses at all. */
export const minLanguageLength = 10;

const displayNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** The English name of an ISO 639-3 code, or undefined when Intl has none. */
export function languageName(code: string): string | undefined {
  if (code === 'und') return undefined;
  try {
    return displayNames.of(code);
  } catch {
    return undefined;
  }
}

/** franc's candidates, best first, with scores from 0 to 1 (1 = the best match); [] when undetermined. */
export function languageCandidates(text: string): { code: string; score: number }[] {
  const ranked = francAll(text, { minLength: minLanguageLength });
  if (ranked.length === 0 || ranked[0]?.[0] === 'und') return [];
  return ranked.map(([code, score]) => ({ code, score }));
}

/**
 * A warning for tools whose word lists or formulas are English only, when the text looks like
 * another language; nothing when it looks English or is too short to tell.
 */
export function notEnglishWarning(text: string, what: string): string | undefined {
  const best = languageCandidates(text)[0];
  if (!best || best.code === 'eng' || best.code === 'sco') return undefined;
  const name = languageName(best.code) ?? best.code;
  return `The text looks like ${name}, not English: ${what} is made for English, so the result may be meaningless.`;
}
