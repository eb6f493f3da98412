/**
 * Adjectives and adverbs of a period and the noun of the period, in English, German and French:
 * "Is there a monthly option?" is answered by "£6 a month", "Gibt es ein Tagesticket … täglich?"
 * by "pro Tag", "un abonnement mensuel ?" by "par mois". The stemmers keep the two apart
 * ("monthly" → "monthli", "month" → "month"), and a question's word that the records use as it is
 * typed is met by no other form of it: so the noun is given as an attribute, which is matched beside
 * the word's own match (retrieval/match-word.ts), as "heavy" meets "Weight". A small closed class,
 * listed as the analysis writes words (lower case; German umlauts as "ae", "oe", "ue"; French
 * without accents). Not "horaire" (also a timetable) nor "nocturne" (at night, not each night).
 */
import type { RelatedWord } from './related-words.js';

const GERMAN_ENDINGS = ['', 'e', 'er', 'es', 'en', 'em'];

function nouns(...lemmas: string[]): readonly RelatedWord[] {
  return Object.freeze(lemmas.map((lemma): RelatedWord => Object.freeze({ lemma, relation: 'attribute' as const })));
}

function table(entries: readonly (readonly [readonly string[], readonly RelatedWord[]])[]): ReadonlyMap<string, readonly RelatedWord[]> {
  return new Map(entries.flatMap(([forms, related]) => forms.map((form): [string, readonly RelatedWord[]] => [form, related])));
}

const german = (base: string): string[] => GERMAN_ENDINGS.map((ending) => base + ending);

const PERIOD_NOUNS: Readonly<Record<string, ReadonlyMap<string, readonly RelatedWord[]>>> = {
  en: table([
    [['hourly'], nouns('hour')],
    [['daily'], nouns('day')],
    [['nightly'], nouns('night')],
    [['weekly'], nouns('week')],
    [['monthly'], nouns('month')],
    [['quarterly'], nouns('quarter')],
    [['yearly', 'annual', 'annually'], nouns('year')],
  ]),
  de: table([
    [german('stuendlich'), nouns('stunde')],
    [german('taeglich'), nouns('tag')],
    [german('naechtlich'), nouns('nacht')],
    [german('woechentlich'), nouns('woche')],
    [german('monatlich'), nouns('monat')],
    [german('vierteljaehrlich'), nouns('quartal')],
    [german('jaehrlich'), nouns('jahr')],
  ]),
  fr: table([
    [['quotidien', 'quotidienne', 'quotidiens', 'quotidiennes', 'journalier', 'journaliere', 'journaliers', 'journalieres'], nouns('jour')],
    [['hebdomadaire', 'hebdomadaires'], nouns('semaine')],
    [['mensuel', 'mensuelle', 'mensuels', 'mensuelles', 'mensuellement'], nouns('mois')],
    [['trimestriel', 'trimestrielle', 'trimestriels', 'trimestrielles'], nouns('trimestre')],
    [['annuel', 'annuelle', 'annuels', 'annuelles', 'annuellement'], nouns('an', 'année')],
  ]),
};

const NONE: readonly RelatedWord[] = Object.freeze([]);

/** The noun of the period a question word (as analysed) is the adjective or adverb of, as an attribute; none for other words. */
export function periodWords(word: string, language: string): readonly RelatedWord[] {
  return PERIOD_NOUNS[language]?.get(word) ?? NONE;
}
