/**
 * The language data that questions read, loaded at start-up instead of by the first question that
 * needs each part: that question held the event loop, so every tenant's requests, for the time of
 * the load (docs/decisions.md, "The question path is loaded and warmed at start-up"):
 *
 * - the gazetteer of places (~90 ms, ~3 MB);
 * - every language's common words (~7 ms and < 1 MB each): detecting a question's language, as
 *   every refusal does, compares it with all of them;
 * - English WordNet (~130 ms, ~29 MB): related words, English only;
 * - the misspelling index of the default language's common words (~10–40 ms, ~1 MB). Other languages'
 *   (as much each) are made in time slices once a question in them first needs one, their words
 *   scanned meanwhile (common-words.ts).
 */
import { commonWordsHeld, loadCommonWords } from './common-words.js';
import { DEFAULT_LANGUAGE } from './languages.js';
import { loadPlaces, placesHeld } from './places.js';
import { englishWordNet, wordNetHeld } from './wordnet.js';

export function loadLanguageData(): void {
  loadPlaces();
  loadCommonWords([DEFAULT_LANGUAGE]);
  englishWordNet();
}

/** What of it the process holds now (the start-up log, tests). */
export function languageDataHeld(): { places: boolean; commonWords: string[]; typoIndexes: string[]; wordNet: boolean } {
  const { lists, typoIndexes } = commonWordsHeld();
  return { places: placesHeld(), commonWords: lists, typoIndexes, wordNet: wordNetHeld() };
}
