/**
 * Places a sentence names only to leave them out: "Außer nach Deutschland, Österreich und in die
 * Schweiz liefern wir in alle EU-Länder …", "We ship to every EU country except Ireland", "sauf en
 * Corse". Such a sentence does not answer a question about those places ("Was kostet der Versand
 * in die Schweiz?" is not answered by "Der Versand dorthin kostet 14,90 €"), so an answer's units
 * are read without them (answering/units.ts). Retrieval still finds the record by them.
 *
 * Only place names (language/places.ts) in the list right after the cue, with the words that join
 * a list of places ("und", "in die", "and the", "et en"): "except invoices, which we keep" or
 * "außer Sperrgut" are left as written, since a question about invoices is answered by that sentence.
 */
import { normalizeFor } from '../retrieval/tokenize.js';
import { isPlaceName, placeNameLength } from './places.js';

/** Words that open a list of exceptions, per language. */
const CUES: Readonly<Record<string, RegExp>> = {
  en: /(?<!\p{L})(?:except(?:ing)?|excluding|other than|with the exception of)(?!\p{L})/giu,
  de: /(?<!\p{L})(?:außer|ausser|ausgenommen|mit ausnahme von)(?!\p{L})/giu,
  fr: /(?<!\p{L})(?:sauf|hormis|excepté|à l['’]exception de|à part)(?!\p{L})/giu,
};

/** Words that join places in a list or lead to one ("and", "in die", "et en"), per language. */
const JOINERS: Readonly<Record<string, ReadonlySet<string>>> = {
  en: new Set(['and', 'or', 'to', 'in', 'for', 'the', 'from']),
  de: new Set(['und', 'oder', 'sowie', 'nach', 'in', 'ins', 'die', 'der', 'den', 'dem', 'das', 'aus', 'von']),
  fr: new Set(['et', 'ou', 'la', 'le', 'les', 'l', 'en', 'au', 'aux', 'à', 'a', 'vers', 'pour', 'de', 'du', 'des', 'd']),
};

/** A word of the list, with where it is in the text. */
const WORD_RE = /[\p{L}\p{N}]+/gu;

/** Where each place named right after an exception cue is in `text` (`[from, to)`, in order). */
function exceptedSpans(text: string, language: string): [number, number][] {
  const cues = CUES[language];
  const joiners = JOINERS[language];
  if (cues === undefined || joiners === undefined) return [];
  cues.lastIndex = 0;
  if (!cues.test(text)) return [];
  cues.lastIndex = 0;
  const spans: [number, number][] = [];
  for (const cue of text.matchAll(cues)) {
    const after = cue.index + cue[0].length;
    // The list runs while only places, joiners, commas and spaces follow.
    const words = [...text.slice(after).matchAll(WORD_RE)];
    const normal = words.map((w) => normalizeFor(w[0], language));
    let end = after;
    for (let i = 0; i < words.length; i++) {
      const w = words[i] as RegExpExecArray;
      const between = text.slice(end, after + w.index);
      if (/[^\s,]/u.test(between)) break;
      const span = Math.max(placeNameLength(normal, i), isPlaceName(normal[i] as string) ? 1 : 0);
      if (span > 0) {
        const last = words[i + span - 1] as RegExpExecArray;
        const to = after + last.index + last[0].length;
        spans.push([after + w.index, to]);
        end = to;
        i += span - 1;
      } else if (joiners.has(normal[i] as string)) {
        end = after + w.index + w[0].length;
      } else break;
    }
  }
  return spans;
}

/** `text` with the places named right after an exception cue blanked (same length, so offsets hold). */
export function withoutExceptedPlaces(text: string, language: string): string {
  let out = text;
  for (const [from, to] of exceptedSpans(text, language)) out = out.slice(0, from) + ' '.repeat(to - from) + out.slice(to);
  return out;
}

/** The places `text` names right after an exception cue, as written ("Deutschland", "Ireland"). */
export function exceptedPlaces(text: string, language: string): string[] {
  return exceptedSpans(text, language).map(([from, to]) => text.slice(from, to));
}
