/**
 * Chat abbreviations visitors type into a support widget ("hw much", "can u", "jpeux", "cb ça
 * coûte"), spelled out before a question is analysed. Too short for spelling correction (which
 * leaves words under three letters alone) and not in any word list, they would otherwise weigh
 * like the name of something the records never mention, and they hide the phrase that says what
 * kind of answer is wanted ("hw much" is "how much": an amount).
 *
 * Only whole words, only in the question's language, and only when the knowledge base does not use
 * the abbreviation itself (a product called "R" stays "R"), unless the next word fits only the chat
 * word ("cb de jours" beside a shop's "CB" card): see `spellOutChatSpeak`.
 */
import { isPlaceName } from './places.js';

type Table = Readonly<Record<string, string>>;

const ENGLISH: Table = {
  u: 'you',
  ur: 'your',
  r: 'are',
  hw: 'how',
  hws: 'how is',
  wot: 'what',
  wat: 'what',
  wht: 'what',
  whn: 'when',
  whr: 'where',
  y: 'why',
  pls: 'please',
  ppl: 'people',
  plz: 'please',
  thx: 'thanks',
  thnx: 'thanks',
  ty: 'thank you',
  b4: 'before',
  '2day': 'today',
  tmrw: 'tomorrow',
  '2moro': 'tomorrow',
  cuz: 'because',
  coz: 'because',
  bc: 'because',
  abt: 'about',
  im: 'i am',
  ive: 'i have',
  cant: 'cannot',
  wont: 'will not',
  msg: 'message',
  pkg: 'package',
  acct: 'account',
  addr: 'address',
  qty: 'quantity',
  asap: 'as soon as possible',
  btw: 'by the way',
  fyi: 'for your information',
  imo: 'in my opinion',
  // Abbreviations of written English.
  hrs: 'hours',
  mins: 'minutes',
  yr: 'year',
  yrs: 'years',
  wk: 'week',
  wks: 'weeks',
  approx: 'approximately',
  appt: 'appointment',
  appts: 'appointments',
  cal: 'calendar',
  pic: 'picture',
  pics: 'pictures',
  pw: 'password',
  pwd: 'password',
  dept: 'department',
  intl: 'international',
  xmas: 'christmas',
  bday: 'birthday',
  tho: 'though',
  // Contractions typed without their apostrophe. With it, the tokeniser splits them into stop
  // words ("what", "s"); without it, "whats" would be stemmed to the question word "what" and
  // matched as a content word, and "dont" would weigh as a word the records never use. Words
  // that are also words of their own ("its", "were", "well", "ill", "lets", "id") are left out.
  whats: 'what is',
  hows: 'how is',
  wheres: 'where is',
  whens: 'when is',
  whys: 'why is',
  whos: 'who is',
  thats: 'that is',
  theres: 'there is',
  heres: 'here is',
  dont: 'do not',
  doesnt: 'does not',
  didnt: 'did not',
  isnt: 'is not',
  arent: 'are not',
  wasnt: 'was not',
  werent: 'were not',
  havent: 'have not',
  hasnt: 'has not',
  hadnt: 'had not',
  wouldnt: 'would not',
  couldnt: 'could not',
  shouldnt: 'should not',
  youre: 'you are',
  youve: 'you have',
  youll: 'you will',
  theyre: 'they are',
  itll: 'it will',
};

const GERMAN: Table = {
  wg: 'wegen',
  bzgl: 'bezüglich',
  vllt: 'vielleicht',
  vlt: 'vielleicht',
  n: 'ein',
  nen: 'einen',
  ne: 'eine',
  is: 'ist',
  gehts: 'geht es',
  gibts: 'gibt es',
  studi: 'student',
  studis: 'studenten',
  azubi: 'auszubildender',
  azubis: 'auszubildende',
  kanns: 'kann es',
  wies: 'wie es',
  wos: 'wo es',
  hab: 'habe',
  lg: 'liebe grüße',
  mfg: 'mit freundlichen grüßen',
  // Abbreviations of written German, in no word list ("Whg." in every flat advert).
  whg: 'wohnung',
  zi: 'zimmer',
  evtl: 'eventuell',
  ggf: 'gegebenenfalls',
  inkl: 'inklusive',
  zzgl: 'zuzüglich',
  mind: 'mindestens',
  tel: 'telefon',
  nr: 'nummer',
  mtl: 'monatlich',
  std: 'stunde',
  usw: 'und so weiter',
  zb: 'zum beispiel',
  bspw: 'beispielsweise',
  jmd: 'jemand',
  od: 'oder',
};

const FRENCH: Table = {
  jpeux: 'je peux',
  jveux: 'je veux',
  jsuis: 'je suis',
  chui: 'je suis',
  chuis: 'je suis',
  jai: "j'ai",
  jsp: 'je ne sais pas',
  stp: "s'il te plaît",
  svp: "s'il vous plaît",
  pk: 'pourquoi',
  pq: 'pourquoi',
  pkoi: 'pourquoi',
  koi: 'quoi',
  kel: 'quel',
  kelle: 'quelle',
  bcp: 'beaucoup',
  ds: 'dans',
  tt: 'tout',
  qd: 'quand',
  mtn: 'maintenant',
  dc: 'donc',
  cb: 'combien',
  cmb: 'combien',
  // "ya une laverie ?": spoken "y a", for "il y a".
  ya: 'il y a',
  pr: 'pour',
  vs: 'vous',
  ns: 'nous',
  // Abbreviations of written French.
  appart: 'appartement',
  apart: 'appartement',
  dispo: 'disponible',
  dispos: 'disponibles',
  rdv: 'rendez-vous',
  tjrs: 'toujours',
  tjs: 'toujours',
  qqch: 'quelque chose',
  qqn: "quelqu'un",
  bjr: 'bonjour',
  slt: 'salut',
  resa: 'réservation',
  pb: 'problème',
  pbm: 'problème',
};

/** The abbreviations by language (exported for the tests' reference look-up). */
export const CHAT_SPEAK_TABLES: Readonly<Record<string, Table>> = { en: ENGLISH, de: GERMAN, fr: FRENCH };

/** "de", "d'", "ça", "coûte": what follows "combien", never a card. */
const COMBIEN_NEXT = /^\s+(?:d['’]|(?:de|ça|ca|co[uû]te(?:nt)?)(?![\p{L}\p{N}]))/iu;

/**
 * What may follow an abbreviation only when it is the chat word, per language: it is then spelled
 * out even where the knowledge base uses it as a word of its own. A French shop writes "CB" for its
 * card ("payer par CB"), yet "cb de jours", "cb d'articles" and "cb ça coûte" can only be "combien".
 * Exported for the tests' reference look-up.
 */
export const CHAT_SPEAK_ONLY_BEFORE: Readonly<Record<string, Readonly<Record<string, RegExp>>>> = {
  fr: { cb: COMBIEN_NEXT, cmb: COMBIEN_NEXT },
};

/** Letters and digits, as the tokeniser splits words (an apostrophe ends a word). */
const WORD_CHARS = '[\\p{L}\\p{N}]';

/**
 * Per table, a pattern that finds the whole words that may be one of its abbreviations, in any
 * case: the replacement then runs only on those, not on every word of every question (it was a
 * fifth of a new question's expansion; docs/indexing.md, "Session 15"). The replacement still
 * checks each found word against the table, so what is spelled out is exactly what a look-up of
 * every lower-cased word would spell out.
 */
const CANDIDATES = new Map<Table, RegExp>(
  Object.values(CHAT_SPEAK_TABLES).map((table) => {
    const keys = Object.keys(table)
      .sort((a, b) => b.length - a.length)
      .map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    return [table, new RegExp(`(?<!${WORD_CHARS})(?:${keys.join('|')})(?!${WORD_CHARS})`, 'giu')];
  }),
);

/**
 * "won't" spelled out as "will not" in an English question. The tokeniser splits words at the
 * apostrophe, and every other negative's first half is a stop-word ("don", "didn", "can"); "won"
 * is a word of its own (the past of "win"), which "my payment won't go through" would match in a
 * record titled "The lock won't close".
 */
const WONT_RE = /(?<![\p{L}\p{N}])won['’]t(?![\p{L}\p{N}])/giu;

export function spellOutWont(question: string, language: string): string {
  return language === 'en' && /won['’]t/i.test(question) ? question.replace(WONT_RE, 'will not') : question;
}

/**
 * Chat "2" for "to" after a verb of going or sending ("do u ship 2 ireland", "how far do the poles
 * go up 2?"), where what follows is no thing counted: the end of the question, a pronoun or
 * determiner, or a place ("ship 2 items" is two items). Read otherwise, the "2" met "2–4 working
 * days" and outweighed the rest.
 */
const TWO_AS_TO = /(?<=(?<![\p{L}\p{N}])(?:ship|send|sent|deliver|post|go|goes|going|come|get|travel|fly|drive|return|send it|back|up|talk|speak|reply|listen)\s+)2(?![\p{L}\p{N}])/giu;
const TO_NEXT = /^\s*(?:$|[?!.,;]|(?:me|you|u|us|him|her|them|my|your|ur|our|the|a|an|this|that)(?![\p{L}\p{N}])|(\p{L}+(?:\s\p{L}+)?))/iu;

function spellOutTwoAsTo(question: string): string {
  if (!question.includes('2')) return question;
  return question.replace(TWO_AS_TO, (two: string, at: number) => {
    const next = TO_NEXT.exec(question.slice(at + two.length));
    if (next === null) return two;
    const word = next[1];
    if (word === undefined) return 'to';
    const words = word.toLowerCase().split(/\s/u);
    return isPlaceName(words.join(' ')) || isPlaceName(words[0] as string) ? 'to' : two;
  });
}

/**
 * A German compound ending in "Nr." for "Nummer" ("Telefonnr", "Bestellnr", "Kundennr"), a word of
 * three letters or more before it: written German abbreviates them so, and no word list has them.
 */
const GERMAN_NUMBER_COMPOUND_RE = /(?<![\p{L}\p{N}])(\p{L}{3,})nr(?![\p{L}\p{N}])/giu;

function spellOutGermanNumberCompounds(question: string, used: (word: string) => boolean): string {
  if (!/nr/i.test(question)) return question;
  return question.replace(GERMAN_NUMBER_COMPOUND_RE, (word: string, head: string) => (used(word.toLowerCase()) ? word : `${head}nummer`));
}

/**
 * `question` with the chat abbreviations of `language` spelled out. `used(word)` tells whether the
 * knowledge base uses the (lower-case) abbreviation as a word of its own; such words are kept.
 */
export function spellOutChatSpeak(question: string, language: string, used: (word: string) => boolean): string {
  const table = CHAT_SPEAK_TABLES[language];
  if (table === undefined) return question;
  if (language === 'en') question = spellOutTwoAsTo(question);
  if (language === 'de') question = spellOutGermanNumberCompounds(question, used);
  const onlyBefore = CHAT_SPEAK_ONLY_BEFORE[language];
  return question.replace(CANDIDATES.get(table) as RegExp, (word: string, at: number) => {
    const lower = word.toLowerCase();
    const full = Object.hasOwn(table, lower) ? table[lower] : undefined;
    if (full === undefined) return word;
    if (!used(lower)) return full;
    const next = onlyBefore !== undefined && Object.hasOwn(onlyBefore, lower) ? onlyBefore[lower] : undefined;
    return next?.test(question.slice(at + word.length)) ? full : word;
  });
}
