/**
 * Words that place the visitor's own situation in time ("I can't make it tomorrow", "I booked yoga
 * for tonight", "wir kommen morgen", "je commande aujourd'hui"): they say when the visitor asks,
 * not what about, and the records answer by rule ("cancel up to 24 hours before", "orders placed
 * after 1pm go out the next working day"), not by the day. Weighed as ordinary words (general
 * informativeness 0), whatever their rank in the common-word lists: "tomorrow", "tonight" and
 * "demain" are rare enough there to weigh as a topic the records lack, and vetoed answers the
 * records give ("today" was already an ordinary word, as issue 10 asks). A day of the week is not
 * here: "Are you open on Sunday?" asks about Sunday (days.ts meets it with the weekend). Nor a part
 * of the day: "evening classes", "jeden Vormittag" (the morning course) name a topic as often as a
 * moment.
 *
 * Listed as the analysis writes words (lower case; German umlauts as "ae", "oe", "ue"; French
 * without accents, "aujourd'hui" as "aujourd" and "hui").
 */
const SITUATION_TIMES: Readonly<Record<string, ReadonlySet<string>>> = {
  en: new Set(['today', 'tonight', 'tonite', 'tomorrow', 'tmrw', 'tmr', 'yesterday', 'now', 'currently', 'soon', 'later', 'asap']),
  de: new Set(['heute', 'morgen', 'uebermorgen', 'gestern', 'jetzt', 'gerade', 'bald', 'spaeter', 'nachher', 'vorhin', 'demnaechst']),
  fr: new Set(['aujourd', 'hui', 'demain', 'hier', 'maintenant', 'bientot', 'tard']),
};

/** Whether a question word (as analysed) places the visitor's situation in time rather than naming a topic. */
export function isSituationTime(surface: string, language: string): boolean {
  return SITUATION_TIMES[language]?.has(surface) ?? false;
}
