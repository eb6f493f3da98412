/**
 * A place says where, not what: "What is the weather in Berlin tomorrow?" is not answered by "Our
 * Berlin store … is open Monday to Friday …" because both name Berlin. When the only words of the
 * question that the chosen record meets are places, and a word that is no place is left unmet, the
 * question asks something of the place that the records do not say, when it shares no other word
 * with the knowledge base: its other words are ones the knowledge base never writes in any form
 * ("weather", "tomorrow"). A word it does write elsewhere ("shipping" where the record answering
 * says "delivery", "order" in "I live in Mexico City, can I order from you?") is the visitor's word
 * for what the records are about, and ordinary words a record lacks do not veto its answer.
 *
 * "Berlin?" alone, or "Do you ship to Mexico?" answered by "We ship to Canada and Mexico", still
 * answer: nothing is left unmet in the first, and "ship" is met in the second. So does a place met
 * only by the larger place it is in ("Do you post to Ireland?" by "all 27 EU countries"): such
 * records list where a business reaches, and what the question asks of the place is that.
 */
import { isPlaceName } from '../language/places.js';
import type { QueryWord } from '../retrieval/query-expansion.js';

/** Least general-language informativeness of a place's name: "Reading" or "Nice", ordinary words that are also towns, name no place here. */
const PLACE_MIN_GENERAL = 0.9;

/** How a word is matched when the knowledge base writes it in some form. */
const WRITTEN: ReadonlySet<QueryWord['via']> = new Set(['exact', 'variant', 'compound']);

/** Whether the question word names a town or a country. */
function namesPlace(word: QueryWord): boolean {
  return word.general >= PLACE_MIN_GENERAL && isPlaceName(word.surface);
}

/**
 * Whether the words that a unit covers (`covers`, per question word, as the plan scores it) are
 * places only, and every other content word of the question is one the knowledge base never
 * writes, whatever it weighs: unmatched, an ordinary word ("weather") weighs nothing, yet it says
 * what the question asks of the place.
 */
export function meetsOnlyPlaces(covers: ArrayLike<number>, words: readonly QueryWord[]): boolean {
  let place = false;
  let unmet = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as QueryWord;
    const met = (covers[i] as number) > 0;
    if (namesPlace(word)) {
      // Met by the larger place it is in ("Ireland" by "all 27 EU countries"), the records list
      // where they reach, and the question's other word is how it asks ("Do you post to Ireland?").
      if (met && !WRITTEN.has(word.via)) return false;
      place ||= met;
    } else if (met || WRITTEN.has(word.via)) return false;
    else unmet = true;
  }
  return place && unmet;
}
