/**
 * The days of the week, for meeting a visitor's day with the records' way of naming days: "If I
 * order on Sunday, when will it be dispatched?" is answered by "Orders placed … at weekends … go out
 * the next working day", which never names Sunday. A day is met by the weekend it is part of, or
 * by the working days; the weekend by its days ("When's the family swim at the weekend?" is
 * answered by "Saturdays and Sundays from 1pm to 3pm"). Not a day by the other days: a range's ends
 * ("du lundi au vendredi") then made "Vous livrez le dimanche ?" weigh as met and answerable from
 * any delivery record. A closed class, listed per language as the analysis writes words (lower
 * case; French without accents), singular and plural; like WordNet's part-of for named places
 * (related-words.ts), which WordNet gives no weekday.
 */
import type { RelatedWord } from './related-words.js';

interface DayWords {
  /** Each day's forms, Monday first. */
  days: readonly (readonly string[])[];
  /** Words for the weekend. */
  weekend: readonly string[];
  /**
   * Words for the working days, one word each: a related word of several words matches wherever the
   * records have its words apart, and "working day" would meet every "30 days".
   */
  workingDays: readonly string[];
}

const DAYS: Readonly<Record<string, DayWords>> = {
  en: {
    days: [['monday', 'mondays'], ['tuesday', 'tuesdays'], ['wednesday', 'wednesdays'], ['thursday', 'thursdays'], ['friday', 'fridays'], ['saturday', 'saturdays'], ['sunday', 'sundays']],
    weekend: ['weekend', 'weekends'],
    workingDays: ['weekday', 'weekdays'],
  },
  de: {
    days: [['montag', 'montags'], ['dienstag', 'dienstags'], ['mittwoch', 'mittwochs'], ['donnerstag', 'donnerstags'], ['freitag', 'freitags'], ['samstag', 'samstags', 'sonnabend'], ['sonntag', 'sonntags']],
    weekend: ['wochenende', 'wochenenden'],
    workingDays: ['werktag', 'werktage', 'werktagen', 'werktags', 'wochentag', 'wochentags', 'arbeitstag', 'arbeitstage', 'arbeitstagen'],
  },
  fr: {
    days: [['lundi', 'lundis'], ['mardi', 'mardis'], ['mercredi', 'mercredis'], ['jeudi', 'jeudis'], ['vendredi', 'vendredis'], ['samedi', 'samedis'], ['dimanche', 'dimanches']],
    weekend: ['week-end', 'weekend', 'week-ends', 'weekends'],
    workingDays: ['ouvre', 'ouvres', 'ouvrable', 'ouvrables'],
  },
};

/** The days from Saturday on are the weekend's. */
const FIRST_WEEKEND_DAY = 5;

const related = new Map<string, readonly RelatedWord[]>();
const relatedBy = (lemmas: readonly string[], relation: RelatedWord['relation']): readonly RelatedWord[] =>
  Object.freeze(lemmas.map((lemma): RelatedWord => Object.freeze({ lemma, relation })));
for (const [language, words] of Object.entries(DAYS)) {
  words.days.forEach((forms, day) => {
    const list = relatedBy(day >= FIRST_WEEKEND_DAY ? words.weekend : words.workingDays, 'part-of');
    for (const form of forms) related.set(`${language} ${form}`, list);
  });
  // The weekend is its days: "When's the family swim at the weekend?" is answered by "Saturdays and
  // Sundays from 1pm to 3pm", whether or not the records also say "weekend" elsewhere.
  const weekendDays = relatedBy(words.days.slice(FIRST_WEEKEND_DAY).flat(), 'has-part');
  for (const form of words.weekend) related.set(`${language} ${form}`, weekendDays);
}

const NONE: readonly RelatedWord[] = Object.freeze([]);

/**
 * The words a day named in a question meets in `language`: the weekend or the working days it is
 * part of; for the weekend, its days; none for a word that is no day.
 */
export function dayWords(word: string, language: string): readonly RelatedWord[] {
  return related.get(`${language} ${word}`) ?? NONE;
}
