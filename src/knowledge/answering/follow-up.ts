/**
 * What a follow-up question means in its conversation. "And how long does that take?" after
 * "Do you ship to Mexico?" is about shipping to Mexico: an elliptical question (it starts with
 * "and", "what about"…, points back with "that", "it", "there"…, or is only a few words) carries
 * over the previous question's topic by being asked together with it. A question that stands on
 * its own is left alone. Stateless: the client sends the turns (product.md §5).
 */
import { type AnswerType, askedAnswerTypesInAnyLanguage, BUSINESS_DETAILS } from '../language/answer-types.js';
import { detectQuestionLanguage } from '../language/detect.js';
import { isCountryName } from '../language/places.js';
import { normalizeFor } from '../retrieval/tokenize.js';
import { isSmallTalk } from './small-talk.js';
import { withoutReplacedWords } from './switched-topic.js';
import type { Turn } from './types.js';

// Spanish "y" (and), but not French "Y a-t-il…?" (is there), which asks a question of its own.
// Word edges as letters, not \b: \b knows only ASCII letters, so "\bça" never matched "Ça coûte combien ?".
const LEAD_RE = /^\s*(?:and|also|plus|so|then|but|ok(?:ay)?|what about|how about|und|auch|also|et|mais|alors|y(?![\s-]+a[\s-]+t[\s'’-]*il)|e|ook)(?!\p{L})/iu;
/**
 * Dutch "en" (and) leads a follow-up ("En hoeveel kost dat?"), but French and Spanish "en" (in) starts
 * questions of their own ("En général, il faut combien de leçons… ?", "En plus du prix, il y a une
 * taxe… ?"): it leads only a question read as Dutch.
 */
const DUTCH_LEAD_RE = /^\s*en(?!\p{L})/iu;
/**
 * Words that stand for something named before. German "da" points back inside a question ("gibt's
 * da was günstiger?", "was kostet da der Versand?"), not at its end ("Ist am Sonntag jemand da?",
 * presence); "instead", "stattdessen", "à la place" ask for an alternative to what was asked.
 */
const BACK_REFERENCE_RE =
  /(?<!\p{L})(?:that|this|it|those|these|them|they|there|one|ones|same|das|dies|diese[rsmn]?|es|dort|da(?![\s?!.]*$)|dafuer|dafür|davon|damit|dazu|daran|darin|darauf|dabei|dadurch|darüber|darueber|drin|drauf|dran|rein|er|ihn|sie|ça|ca|cela|ce|celui|celle|ceux|elle|elles|ils|là|eso|esto|ello|esa|ese|quello|quella|dat|dit|het|instead|stattdessen|à la place|a la place)(?!\p{L})/iu;
/**
 * French "il" points back ("Il coûte combien ?", "Coûte-t-il cher ?") except where it stands for
 * nothing ("il y a", "il faut", "y a-t-il", "faut-il", "est-il possible"): those forms are taken out
 * before looking for it. "elle", "elles" and "ils" are never impersonal (BACK_REFERENCE_RE).
 */
const FRENCH_IL_RE = /(?<!\p{L})il(?!\p{L})/iu;
/**
 * French "ce" that stands for nothing named before: the "est-ce" of a question ("Est-ce qu'on peut
 * payer en chèques vacances ?", "Qu'est-ce que…"), and "ce que / ce qui" ("tout ce qui est
 * compris"). Taken out before looking for a word that points back ("Ce prix comprend l'électricité ?"
 * still does).
 */
const FRENCH_CE_FOR_NOTHING_RE = /(?<!\p{L})(?:est-ce|ce\s+(?:que|qu['’]|qui|dont))(?!\p{L})/giu;
const IMPERSONAL_IL_RE = /(?<!\p{L})(?:il\s+(?:y\s+a|faut|existe|reste|s['’]agit|suffit|est\s+(?:possible|nécessaire|obligatoire|interdit))|(?:a|faut|existe|reste|suffit)-(?:t-)?il|est-il\s+(?:possible|nécessaire|obligatoire|interdit))(?!\p{L})/giu;
/**
 * "there" and "es" that stand for nothing: "Is there a student discount?", "Gibt es einen Rabatt?"
 * ask whether something exists, as French "il y a" does, and point back no more than it. Taken
 * out before looking for a word that points back ("Is there parking there?" still does).
 */
const EXISTENTIAL_RE = /(?<!\p{L})(?:(?:is|are|was|were|will)\s+there(?:\s+be)?|there\s+(?:is|are|was|were|will\s+be)|there['’](?:s|re)|gibt\s+es|es\s+gibt|gibt['’]s)(?!\p{L})/giu;
/**
 * "one" and "ones" that stand for a thing the question names itself: "Which of your grinders is the
 * cheapest one?", "Which grinder is the cheapest one?", "the lightest one among the tents". Asked
 * after another question, they point back no more than a name does; "Which one is cheapest?" and
 * "Is the large one dishwasher safe?" name nothing, and still do.
 */
const ONE_NAMED_HERE_RE = /(?<!\p{L})(?:which\s+(?!(?:one|ones|of|is|are|was|were|do|does|did|can|could|would|should|will|has|have)(?!\p{L}))\p{L}+|(?:of|among|from)\s+(?:all\s+)?(?:your|the|these|those|our)\s+(?:\p{L}+\s+)?\p{L}{2,}s)(?!\p{L})/iu;
const ONE_RE = /(?<!\p{L})ones?(?!\p{L})/giu;

/**
 * A German article standing alone at the end is a pronoun for the thing asked about before: "Wie
 * schwer ist der?", "Was kostet die?" ("Wie schwer ist der Rasenmäher?" names its thing).
 */
const GERMAN_PRONOUN_END_RE = /(?<!\p{L})(?:der|die|den|dem)\s*[?!.]*\s*$/iu;
/** Up to this many words, a question with a back-reference is taken as a follow-up. */
const SHORT_WORDS = 8;
/** Up to this many words, any question is taken as a follow-up ("Price?", "In Canada?"). */
const FRAGMENT_WORDS = 3;
/**
 * Earlier questions a follow-up reaches back through at most: "Do you ship to Canada?" → "How
 * much is it?" → "And how long does it take?" is still about Canada, two questions back. Five:
 * every question of the ten turns a conversation may send.
 */
const CHAIN_QUESTIONS = 5;

const WORD_RE = /\p{L}[\p{L}\p{M}]*/gu;

/** Whether `word` (as written) names a country, in any language the gazetteer has ("Schweiz", "Suisse"). */
function isCountry(word: string): boolean {
  return isCountryName(normalizeFor(word, 'de')) || isCountryName(normalizeFor(word, 'en'));
}

/**
 * `text` without the countries it names: "Und in die Schweiz?" after "Liefert ihr nach
 * Österreich? Was kostet das?" asks the same about another country, not about both.
 */
function withoutCountries(text: string): string {
  return text.replace(WORD_RE, (word) => (isCountry(word) ? '' : word));
}

/** The visitor's questions of `conversation`, oldest first; small talk ("hi", "thanks!") is no question to lean on. */
function userQuestions(conversation: readonly Turn[] | undefined): string[] {
  if (!conversation) return [];
  return conversation.filter((turn) => turn.role === 'user' && turn.content.trim().length > 0 && !isSmallTalk(turn.content)).map((turn) => turn.content.trim());
}

/**
 * Whether `question` has a word that stands for something named before ("that", "es", "elles", "der"
 * at the end), not for what it names itself ("the cheapest one" of "your grinders").
 */
function pointsBack(question: string): boolean {
  const existing = question.replace(EXISTENTIAL_RE, ' ').replace(FRENCH_CE_FOR_NOTHING_RE, ' ');
  const meant = ONE_NAMED_HERE_RE.test(existing) ? existing.replace(ONE_RE, ' ') : existing;
  return BACK_REFERENCE_RE.test(meant) || GERMAN_PRONOUN_END_RE.test(meant) || FRENCH_IL_RE.test(meant.replace(IMPERSONAL_IL_RE, ' '));
}

/** The kinds of answer that are about the business itself, whatever was asked before: its details, or any way to reach it. */
const BUSINESS_ASKS: ReadonlySet<AnswerType> = new Set<AnswerType>([...BUSINESS_DETAILS, 'contact']);

/**
 * Whether `question` asks for the business's address, phone number, email, hours or a way to reach
 * it ("What's your address?", "Öffnungszeiten?", "Votre numéro de téléphone ?"): short as it may be, it asks that of
 * the business, not of what was asked before, unless it points back ("When are you open there?").
 */
function asksOfTheBusiness(question: string): boolean {
  return askedAnswerTypesInAnyLanguage(question).some((kind) => BUSINESS_ASKS.has(kind));
}

/** Whether `question` reads as leaning on a question before it (were there one). */
function leansBack(question: string): boolean {
  // Words, not the punctuation French sets apart ("Ça coûte combien ?" is three words).
  const words = question.trim().split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  if (LEAD_RE.test(question) || (DUTCH_LEAD_RE.test(question) && detectQuestionLanguage(question, 'nl') === 'nl')) return true;
  if (words > SHORT_WORDS) return false;
  const back = pointsBack(question);
  if (!back && asksOfTheBusiness(question)) return false;
  return words <= FRAGMENT_WORDS || back;
}

/** Whether `query` leans on the previous question of `conversation`. */
export function isFollowUp(query: string, conversation: readonly Turn[] | undefined): boolean {
  return userQuestions(conversation).length > 0 && leansBack(query);
}

/**
 * The earlier questions `query` leans on, oldest first: back to the last one that stood on its own
 * (at most `CHAIN_QUESTIONS`); empty when `query` stands on its own.
 */
export function questionsLeanedOn(query: string, conversation: readonly Turn[] | undefined): string[] {
  const questions = userQuestions(conversation);
  if (questions.length === 0 || !leansBack(query)) return [];
  const chain: string[] = [];
  for (let i = questions.length - 1; i >= 0 && chain.length < CHAIN_QUESTIONS; i--) {
    const question = questions[i] as string;
    chain.unshift(question);
    if (i === 0 || !leansBack(question)) break;
  }
  return chain;
}

/** At most this many characters of what a follow-up was asked after are kept for the owner (the latest). */
const ASKED_AFTER_CHARS = 500;

/**
 * What the owner is shown beside a follow-up ("And how long does that take?"): the questions it
 * leans on, as the visitor asked them, joined (the last 500 characters, cut at a word); undefined
 * when it stands on its own.
 */
export function askedAfter(query: string, conversation: readonly Turn[] | undefined): string | undefined {
  const chain = questionsLeanedOn(query, conversation);
  if (chain.length === 0) return undefined;
  const text = chain.join(' ');
  if (text.length <= ASKED_AFTER_CHARS) return text;
  const tail = text.slice(-ASKED_AFTER_CHARS + 1);
  const space = tail.indexOf(' ');
  return `…${space > 0 && space < 60 ? tail.slice(space + 1) : tail}`;
}

/**
 * The text to search and answer for `query`: when it is a follow-up, asked together with the
 * questions it leans on (`questionsLeanedOn`). A follow-up that names a country asks about it
 * instead of the countries named before, and one that names another kind of what was asked about
 * instead of that kind ("und die Abendkurse?" after the intensive courses: switched-topic.ts).
 */
export function contextualQuery(query: string, conversation: readonly Turn[] | undefined): string {
  const chain = questionsLeanedOn(query, conversation);
  if (chain.length === 0) return query;
  const context = withoutReplacedWords(chain.join(' '), query, LEAD_RE.test(query));
  const swapsCountry = (query.match(WORD_RE) ?? []).some(isCountry);
  return `${swapsCountry ? withoutCountries(context) : context} ${query.trim()}`;
}
