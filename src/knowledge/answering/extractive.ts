/**
 * The built-in grounded answerer (product.md §5): quotes what answers the question, cites it, and
 * abstains when the records do not cover it. Faithful by construction: every piece of a grounded
 * answer is copied from the record it cites; the answerer adds only the joins between pieces
 * (" — ", ": ", "; ", parentheses) and the `[n]` markers.
 *
 * The answer reads like a reply by record kind: a Q&A's answer; a product's name first, its price,
 * then the asked-for fields ("Specs › Weight: 450 g" becomes "weight: 450 g"); a passage's best
 * sentences, or all of a short one (a help-centre section that fits the answer's budget), in order.
 * A question in two parts ("What does shipping cost, and who pays returns?") is answered part by
 * part, each part with its own citation.
 */
import { answerTypeTerm, BUSINESS_DETAILS, isAnswerTypeTerm } from '../language/answer-types.js';
import { detectQuestionLanguage } from '../language/detect.js';
import { isPlaceName } from '../language/places.js';
import type { QueryWord } from '../retrieval/query-expansion.js';
import { analyzeWords } from '../retrieval/tokenize.js';
import { contextualQuery, isFollowUp } from './follow-up.js';
import { type AnswerPlan, planResolved } from './plan.js';
import { type ExtractiveOptions, type ResolvedOptions, resolveOptions } from './plan-options.js';
import type { ScoredUnit } from './unit-scores.js';
import { isUnquotedLabel, labelled, priceLine, specLines } from './product-lines.js';
import { productsAskedAbout, switchedProductQuestion, wordsNamingProducts } from './product-follow-up.js';
import { refusalText } from './refusal.js';
import { splitQuestion } from './split-question.js';
import { type Answer, type Citation, type RetrievedRecord, type Turn } from './types.js';
import { contextHas, type RecordUnits, type Unit, unitTermCount } from './units.js';

/** A record this short is cited whole: the reader gets its full context at no cost. */
const WHOLE_PASSAGE_CHARS = 300;

export interface ExtractiveAnswerOptions extends ExtractiveOptions {
  /** Earlier turns: a follow-up ("And how much is that?") is answered in their context. */
  conversation?: readonly Turn[] | undefined;
  /** The owner's refusal text. */
  fallbackMessage?: string | null | undefined;
}

/** Cuts text to `max` characters at a word boundary, marking the cut. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, Math.max(1, max - 1));
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The refusal for `query`: the owner's message, or a default in the question's language. */
export function notFound(query = '', language?: string, fallbackMessage?: string | null): Answer {
  return { answer: refusalText(query ? detectQuestionLanguage(query, language) : language, fallbackMessage), grounded: false, sources: [] };
}

/** A product's name and price: "Arden Tamper 58.5 mm (£38)". */
function productHead(record: RetrievedRecord, price = priceLine(record)): string {
  const name = record.title ?? '';
  return name && price ? `${name} (${price})` : name || price || '';
}

/**
 * A product's reply: "Name (price) — asked-for fields" from the product record's own lines. When
 * none of the chosen lines is a field ("how heavy is it?" asks for "Weight", a word the question
 * does not use), the product's fields are listed, as many as fit `budget` — unless the question
 * asks for a price and the name comes with one ("What do the Lintel One and the E48 cost?"): the
 * price is the asked-for fact, and a list of burrs, motor and hopper would bury it.
 */
function productReply(record: RetrievedRecord, units: readonly ScoredUnit[], budget: number, asksPrice = false): string {
  const price = priceLine(record);
  const phrases: string[] = [];
  let fields = 0;
  for (const u of units) {
    const l = labelled(u.unit.text);
    if (l && isUnquotedLabel(l.label)) continue;
    if (l && l.label === 'description') phrases.push(l.value);
    else {
      phrases.push(l ? `${l.label}: ${l.value}` : u.unit.text);
      if (l) fields++;
    }
  }
  const head = productHead(record, price);
  if (fields === 0 && !(asksPrice && price)) {
    let used = head.length + phrases.join('; ').length;
    for (const l of specLines(record)) {
      const phrase = `${l.label}: ${l.value}`;
      if (phrases.includes(phrase)) continue;
      if (used + phrase.length + 2 > budget) break;
      phrases.push(phrase);
      used += phrase.length + 2;
    }
  }
  if (phrases.length === 0) return head;
  return head ? `${head} — ${phrases.join('; ')}` : phrases.join('; ');
}

interface Part {
  record: RetrievedRecord;
  text: string;
}

/** Units chosen for one record, across the plans of a question's parts. */
interface RecordChoice {
  record: RetrievedRecord;
  units: ScoredUnit[];
  /** A product listed in answer to a question about the range: its name and price are the reply. */
  listed?: true;
  /** A question part that chose it asks for a price (`productReply`). */
  asksPrice?: true;
  /** All of a short passage's units, quoted instead of the chosen ones (`wholePassage`). */
  whole?: readonly Unit[];
  /** The record's units as the plan analysed them (absent for a listed range), for what it names (`keepWhatFollowUpNames`). */
  entry?: RecordUnits;
  /** All units of a record quoted by its chosen ones (a passage too long to quote whole, a long Q&A answer), for the sentence before one that leans back (`withAntecedents`). */
  all?: readonly Unit[];
}

/**
 * A sentence that opens by pointing back ("They lost Dyrrachium…", "However, …", "Diese Zentren…",
 * "Cela…"): quoted alone, it reads as if it named what the sentence before it names. Words that
 * only seldom point back when they open a sentence are not here: "There is", German "Es gibt" and
 * "Sie" (also the polite "you"), French "Il y a" / "Il faut".
 */
const LEANS_BACK_RE =
  /^(?:it|its|this|these|that|those|they|their|them|he|she|his|her|however|but|also|then|such|both|er|dies|diese|dieser|dieses|diesen|dabei|dann|außerdem|jedoch|dort|elle|ils|elles|ce|cela|ceci|cette|ces|ensuite|cependant|toutefois|il(?!\s+(?:y\s+a|faut|suffit)(?![\p{L}\p{N}])))(?![\p{L}\p{N}])/iu;

/**
 * The chosen units of a record (in document order), each that leans back preceded by the
 * sentence before it in the record when that one is not chosen and the answer's budget allows:
 * "enough context" for a passage's sentences (issue 10). One step back, not a chain.
 */
function withAntecedents(chosen: readonly Unit[], all: readonly Unit[], maxChars: number): readonly Unit[] {
  let out: Unit[] | undefined;
  let used = -1;
  for (const u of chosen) used += 1 + u.text.length;
  for (let i = 0; i < chosen.length; i++) {
    const u = chosen[i] as Unit;
    if (!LEANS_BACK_RE.test(u.text)) continue;
    const k = all.findIndex((a) => a.start === u.start);
    const before = k > 0 ? (all[k - 1] as Unit) : undefined;
    const list = out ?? chosen;
    if (before === undefined || list.some((c) => c.start === before.start) || used + 1 + before.text.length > maxChars) continue;
    out ??= [...chosen];
    out.splice(out.indexOf(u), 0, before);
    used += 1 + before.text.length;
  }
  return out ?? chosen;
}

/**
 * A passage whose units together fit the answer's budget is quoted whole, as a Q&A record's answer
 * is: a short section is one answer, and its best sentences alone can drop the condition the
 * visitor's case turns on ("If you cancel within 30 days, we refund the full amount." before
 * "After 30 days, annual payments are non-refundable."). Undefined for any other record.
 */
function wholePassage(record: RetrievedRecord, units: RecordUnits | undefined, maxChars: number): readonly Unit[] | undefined {
  if (record.kind !== 'passage' || units === undefined || units.units.length < 2) return undefined;
  let chars = -1;
  for (const u of units.units) chars += 1 + u.text.length;
  return chars <= maxChars ? units.units : undefined;
}

/** Adds a plan's chosen units to `choices`, one entry per record in order of first selection. */
function collect(plan: AnswerPlan, choices: Map<string, RecordChoice>, maxChars: number): void {
  // Only a price: "how much coffee does it hold" asks for a quantity too, which a field may give.
  const asksPrice = plan.words.some((w) => w.term === AMOUNT_TERM) && !plan.words.some((w) => w.term !== AMOUNT_TERM && isAnswerTypeTerm(w.term));
  for (const u of plan.selected) {
    const record = plan.records[u.record] as RetrievedRecord;
    let choice = choices.get(record.recordId);
    if (!choice) {
      const whole = plan.range ? undefined : wholePassage(record, plan.units?.[u.record], maxChars);
      const all = !whole && record.kind !== 'product' ? plan.units?.[u.record]?.units : undefined;
      const entry = plan.units?.[u.record];
      choice = { record, units: [], ...(plan.range ? { listed: true } : {}), ...(whole ? { whole } : {}), ...(all ? { all } : {}), ...(entry ? { entry } : {}) };
      choices.set(record.recordId, choice);
    }
    // A unit chosen by two parts is quoted once: compared by where it starts in the record, since
    // each part's plan analyses the record anew when no units cache is shared between them.
    if (!choice.units.some((c) => c.unit.start === u.unit.start)) choice.units.push(u);
    if (asksPrice) choice.asksPrice = true;
  }
}

const AMOUNT_TERM = answerTypeTerm('amount');

/**
 * A record's reply: its units in document order (all of a short passage's; otherwise with the
 * sentence before any that leans back), a product as "name (price) — fields".
 */
function partOf(choice: RecordChoice, o: ResolvedOptions): Part {
  // A passage reads in its own order; a product's reply puts the most relevant of its chosen lines
  // first, so the asked-for field ("weight: 1.9 kg") comes right after the name, before any description.
  const units = [...choice.units].sort(choice.record.kind === 'product' ? (a, b) => b.relevance - a.relevance || a.unit.start - b.unit.start : (a, b) => a.unit.start - b.unit.start);
  const quoted = (list: readonly Unit[]) => list.map((u) => u.text).join(' ');
  const chosen = () => units.map((u) => u.unit);
  const text = choice.whole
    ? quoted(choice.whole)
    : choice.record.kind !== 'product'
      ? quoted(choice.all ? withAntecedents(chosen(), choice.all, o.maxChars) : chosen())
      : choice.listed
        ? productHead(choice.record)
        : productReply(choice.record, units, o.maxChars, choice.asksPrice);
  // Only the first selected unit can exceed the budget (a very long sentence); clip it.
  return { record: choice.record, text: clip(text, o.maxChars) };
}

/**
 * Whether a part of a question asks only for a kind of answer and names nothing it is about ("Can
 * I collect from your Leipzig warehouse? When are you open there?"): it points back to the rest of
 * the question, so it is read with it rather than answered with any record's opening hours.
 */
function namesNoTopic(part: string, o: ResolvedOptions): boolean {
  const words = o.stats?.expand(part).words;
  if (words === undefined || !words.some((w) => isAnswerTypeTerm(w.term))) return false;
  // Asked of the business itself ("Where are you and is there parking?", "Vous êtes où
  // exactement ?": a word that names no topic is filler), a part stands alone unless it points
  // back ("When are you open there?").
  if (words.every((w) => BUSINESS_ASKS.has(w.term) || !namesTopic(w)) && !POINTS_BACK_RE.test(part)) return false;
  return !words.some((w) => !isAnswerTypeTerm(w.term) && namesTopic(w));
}

/** A topic is a word the records have, or one too rare in general language to be filler. */
function namesTopic(w: QueryWord): boolean {
  return w.matches.length > 0 || w.general >= TOPIC_INFORMATIVENESS;
}

/** The kinds of answer that are about the business itself: its address, phone, email and hours. */
const BUSINESS_ASKS: ReadonlySet<string> = new Set(BUSINESS_DETAILS.map(answerTypeTerm));
/** Words by which a part points back to the rest of the question ("there", "dort", "là-bas"). */
const POINTS_BACK_RE = /(?<![\p{L}])(?:there|then|it|that|dort|da|dann|dafür|là|là-bas|alors)(?![\p{L}])/iu;

/**
 * A follow-up that names something of its own ("And the E48?", "What about Australia?") asks the
 * question before about that thing: of the records its context also chose (the hand grinder asked
 * about before), only those that name it are quoted, when any does.
 */
function keepWhatFollowUpNames(query: string, choices: Map<string, RecordChoice>, o: ResolvedOptions): void {
  const own = o.stats?.expand(query).words.filter((w) => !isAnswerTypeTerm(w.term) && w.matches.length > 0 && w.general >= TOPIC_INFORMATIVENESS);
  if (own === undefined || own.length === 0) return;
  // Read from the units the plan analysed: a unit's context is its record's title.
  const named = (w: (typeof own)[number], has: (term: string) => boolean) => w.matches.some((m) => has(m.term));
  const inTitle = (c: RecordChoice) => {
    const title = c.entry?.units[0]?.context;
    return title !== undefined && title.size > 0 && own.every((w) => named(w, (t) => title.has(t)));
  };
  const inText = (c: RecordChoice) => c.entry?.units.some((u) => own.some((w) => named(w, (t) => u.tf.has(t) || contextHas(u, t)))) === true;
  const entries = [...choices.entries()];
  // The records whose title is all the follow-up names ("Kestrel 1 Tent" for "and the Kestrel 1?",
  // not the Kestrel 2, whose "1.9 kg" holds a "1"); else those whose text names any of it.
  const byTitle = entries.filter(([, c]) => inTitle(c));
  const naming = byTitle.length > 0 && byTitle.length < entries.length ? byTitle : entries.filter(([, c]) => inText(c));
  if (naming.length === 0 || naming.length === choices.size) return;
  const keep = new Set(naming.map(([id]) => id));
  for (const id of [...choices.keys()]) if (!keep.has(id)) choices.delete(id);
}

/**
 * A word as written, without a plural's or a feminine's last letters ("cards" / "card", "théières"
 * / "théière"; not "warranties" / "warranty"), and in English without a verb's "-ing" or "-ed"
 * ("riding" / "ride").
 */
const bareForm = (surface: string, language: string): string => (language === 'en' ? surface.replace(/(?<=\p{L}{3})(?:ing|ed)$/u, '') : surface).replace(/(?:es|s|x|e)$/u, '');

/**
 * Keeps the records of `choices` whose title writes every content word of `query` (a follow-up
 * asked alone: "And what about the warranty?"), as the follow-up writes it, give or take a plural:
 * "Warranty", not the returns record; not a record a stem, a related word or a word of its text
 * links it to ("il est payant ?" is not "Quels moyens de paiement acceptez-vous ?", though both
 * stem to "pai"; "And acupuncture?" is not the first visit, though WordNet puts both under
 * treatment). None when the follow-up has no such word.
 */
function keepTitledWith(query: string, choices: Map<string, RecordChoice>, o: ResolvedOptions, language: string): void {
  const words = o.stats?.expand(query).words.filter((w) => !isAnswerTypeTerm(w.term)) ?? [];
  const named = (c: RecordChoice) => {
    if (c.record.title === null) return false;
    const title = new Set(analyzeWords(c.record.title, language, 'index').surfaces.map((s) => bareForm(s, language)));
    // A phrasal verb ("runs out") is written in the title when each of its words is.
    return words.every((w) => w.surface.split(' ').every((part) => title.has(bareForm(part, language))));
  };
  for (const [id, c] of [...choices]) if (words.length === 0 || !named(c)) choices.delete(id);
}

/** Drops the products of `choices` a follow-up does not ask about (product-follow-up.ts). */
function keepProductAskedAbout(query: string, choices: Map<string, RecordChoice>, retrieved: readonly RetrievedRecord[], o: ResolvedOptions, conversation: readonly Turn[] | undefined): void {
  const words = o.stats?.expand(query).words ?? [];
  const asked = productsAskedAbout(words, [...choices.values()].map((c) => c.record), retrieved, conversation, o.stats?.language ?? 'en');
  if (asked === undefined) return;
  const keep = new Set(asked.map((r) => r.recordId));
  for (const id of [...choices.keys()]) if (!keep.has(id)) choices.delete(id);
}

/** Whether some unit uses `word` in some form or meaning, or holds the kind of answer it stands for. */
const usedByUnits = (word: QueryWord, units: readonly Unit[]): boolean =>
  word.matches.some((m) => units.some((u) => unitTermCount(u, m.term) > 0 || contextHas(u, m.term)));

/** General-language informativeness from which a word the records lack still names a topic ("decaf", not "habt"). */
const TOPIC_INFORMATIVENESS = 0.5;

/**
 * Whether the records chosen for a follow-up answer what it adds to its context. "And can I pay for
 * them with bitcoin?" after "Do you sell gift cards?" is searched together with the gift cards, so
 * the gift-card record is chosen again; unless it also says something of bitcoin, quoting it again
 * answers nothing the visitor asked. So each word of the follow-up's own that names a topic (one
 * too rare in general language to be filler, not a kind of answer such as a price or a duration)
 * must be one a chosen record uses, in some form or meaning. "And how long does that take?" or
 * "How much is it?" add only kinds of answer, which the plan has already looked for. A place is
 * answered by a record that says which places it holds for: "And if I live in Ireland?" after
 * Klarna, by "You need a UK address". A product is held to more: its lines answer what its fields
 * say, so at least one word the follow-up asks with, of any weight, or the kind of answer it asks
 * for, must be in the product's lines ("what's the warranty on it?" after the E64's price is
 * refused when the E64's lines say nothing of a warranty; "how long does one last?" is answered by
 * the canister's "75 min"). Any other record is held to that too when the follow-up has no word
 * that names a topic: "et des vélos ?" after canoe hire is not answered by the canoes again.
 */
function answersFollowUp(query: string, choices: ReadonlyMap<string, RecordChoice>, o: ResolvedOptions, language: string, naming?: ReadonlySet<string>): boolean {
  const units = [...choices.values()].flatMap((c) => c.entry?.units ?? []);
  // A listed range (no analysed units) was chosen for what the question names: nothing to check against.
  if (units.length === 0) return true;
  const words = o.stats?.expand(query).words ?? [];
  // Quoted for the earlier question only ("and is there a women's fit?" after the jacket's sizes).
  if ([...choices.values()].some((c) => c.record.kind === 'product') && words.length > 0 && !words.some((w) => usedByUnits(w, units))) return false;
  const own = words.filter((w) => !isAnswerTypeTerm(w.term) && w.general >= TOPIC_INFORMATIVENESS && naming?.has(w.surface) !== true);
  const missing = own.filter((w) => !usedByUnits(w, units));
  // Nothing it asks with is in them ("et des vélos ?" after canoe hire, "vélos" too common a word to
  // name a topic by the rule above): quoted for the earlier question only. A place is judged below.
  if (missing.length === 0) return words.length === 0 || words.some((w) => usedByUnits(w, units) || isPlaceName(w.surface));
  if (!missing.every((w) => isPlaceName(w.surface))) return false;
  return [...choices.values()].some((c) => analyzeWords(c.record.text, language, 'index').surfaces.some((surface) => isPlaceName(surface)));
}

export function answerExtractively(query: string, retrieved: readonly RetrievedRecord[], options?: ExtractiveAnswerOptions): Answer {
  const o = resolveOptions(options);
  const language = o.stats?.language ?? 'en';
  const followUp = isFollowUp(query, options?.conversation);
  const asked = followUp ? contextualQuery(query, options?.conversation) : query;
  // A follow-up is one question in its context; otherwise each part of a two-part question is answered on its own.
  const questions = followUp ? [asked] : splitQuestion(asked);
  // Each part's units are gathered per record, so a record that answers two parts is quoted once.
  const choices = new Map<string, RecordChoice>();
  const answer = (q: string, from: readonly RetrievedRecord[] = retrieved) => {
    const plan = planResolved(q, from, o);
    if (plan.grounded) collect(plan, choices, o.maxChars);
  };
  for (const q of questions) answer(questions.length > 1 && namesNoTopic(q, o) ? asked : q);
  // Parts too short to stand alone may still be answerable together.
  if (choices.size === 0 && questions.length > 1) answer(asked);
  if (choices.size === 0) return notFound(query, language, options?.fallbackMessage);
  if (followUp && choices.size > 1) keepWhatFollowUpNames(query, choices, o);
  // Words of a follow-up that only describe which product it asks about (`wordsNamingProducts`, `switchedProductQuestion`).
  let naming: ReadonlySet<string> | undefined;
  if (followUp) {
    keepProductAskedAbout(query, choices, retrieved, o, options?.conversation);
    // Kept on the products it names: the words that describe which ("dünnen") are no topic of its own.
    const kept = [...choices.values()].map((c) => c.record);
    if (kept.length > 0 && kept.every((r) => r.kind === 'product')) naming = wordsNamingProducts(query, kept, language);
    // It names another product than the one chosen for its context ("und bei den dünnen
    // Nitril-Handschuhen?" after the leather gloves' sizes, whose words chose the leather gloves
    // again): the question in its context, without the words that named the other, asked of that
    // product alone.
    if (choices.size === 0) {
      const switched = switchedProductQuestion(query, o.stats?.expand(query).words ?? [], asked, retrieved, options?.conversation, language);
      if (switched !== undefined) {
        answer(switched.question, switched.products);
        naming = switched.naming;
      }
    }
    if (choices.size === 0) return notFound(query, language, options?.fallbackMessage);
  }
  if (followUp && !answersFollowUp(query, choices, o, language, naming)) {
    // What it adds may be a topic of its own, asked as the earlier question was ("And what about
    // the warranty?" after returns): asked alone, over the same records, it is answered from the
    // records whose titles name that topic in the follow-up's own words; else it is refused.
    choices.clear();
    answer(query);
    keepTitledWith(query, choices, o, language);
    if (choices.size === 0 || !answersFollowUp(query, choices, o, language)) return notFound(query, language, options?.fallbackMessage);
  }
  const parts = [...choices.values()].map((c) => partOf(c, o));

  const sources: Citation[] = [];
  const pieces: string[] = [];
  for (const part of parts) {
    sources.push({
      sourceName: part.record.sourceName,
      title: part.record.title,
      recordId: part.record.recordId,
      passage: part.record.text.length <= WHOLE_PASSAGE_CHARS ? part.record.text : part.text,
      score: part.record.score,
    });
    pieces.push(`${part.text} [${sources.length}]`);
  }
  return { answer: pieces.join(' '), grounded: true, sources };
}
