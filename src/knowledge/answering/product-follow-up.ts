/**
 * Which product a follow-up asks about. After "Can the espresso cups go in the dishwasher?", "and in
 * the microwave?" is still about the espresso cups: quoting the glass tumblers' "microwave safe: no"
 * answers a question nobody asked. After "What's the warranty on the Kestrel 2?", "And on the
 * sleeping bags?" asks about the sleeping bags: quoting the Kestrel 2 again answers nothing. So a
 * follow-up answered from a product stays on the product the bot's last answer named, unless it
 * names another by a word of that product's name ("and the large one?", "what about the Duo?").
 *
 * The product the conversation is about is read from the assistant's last turn, which the client
 * sends back (the server keeps nothing): a product reply starts with the product's name.
 */
import type { QueryWord } from '../retrieval/query-expansion.js';
import { analyzeWords } from '../retrieval/tokenize.js';
import type { RetrievedRecord, Turn } from './types.js';

/** The bot's last answer in `conversation`, lower-cased ('' when there is none). */
function lastAnswer(conversation: readonly Turn[] | undefined): string {
  for (let i = (conversation?.length ?? 0) - 1; i >= 0; i--) {
    const turn = (conversation as readonly Turn[])[i] as Turn;
    if (turn.role === 'assistant') return turn.content.toLowerCase();
  }
  return '';
}

/** The products a conversation named last and those a follow-up switches to, by record id; undefined when no product was named before. */
interface AskedProducts {
  named: ReadonlySet<string>;
  switchedTo: ReadonlySet<string>;
}

function askedProducts(words: readonly QueryWord[], retrieved: readonly RetrievedRecord[], conversation: readonly Turn[] | undefined, language: string): AskedProducts | undefined {
  const before = lastAnswer(conversation);
  const products = retrieved.filter((r) => r.kind === 'product' && r.title !== null && r.title.trim() !== '');
  const named = new Set(products.filter((r) => before.includes((r.title as string).toLowerCase())).map((r) => r.recordId));
  if (named.size === 0) return undefined;
  const titleTerms = new Map<string, ReadonlySet<string>>();
  const termsOfTitle = (r: RetrievedRecord): ReadonlySet<string> => {
    let terms = titleTerms.get(r.recordId);
    if (terms === undefined) {
      terms = new Set(analyzeWords(r.title as string, language, 'index').terms);
      titleTerms.set(r.recordId, terms);
    }
    return terms;
  };
  const inTitle = (r: RetrievedRecord, w: QueryWord) => {
    const terms = termsOfTitle(r);
    return w.matches.some((m) => terms.has(m.term));
  };
  const namedBefore = products.filter((r) => named.has(r.recordId));
  // A word of another product's name that the product named before does not have switches to it.
  const switchedTo = new Set(
    products.filter((r) => !named.has(r.recordId) && words.some((w) => inTitle(r, w) && !namedBefore.some((p) => inTitle(p, w)))).map((r) => r.recordId),
  );
  return { named, switchedTo };
}

/**
 * The records of `choices` a follow-up (`words`: its own words, expanded) may be answered from, when
 * a product is among them: records that are not products, and the product the last answer named or
 * the one the follow-up names instead. Undefined when the rule does not apply (no product chosen, no
 * product named before).
 */
export function productsAskedAbout(
  words: readonly QueryWord[],
  choices: readonly RetrievedRecord[],
  retrieved: readonly RetrievedRecord[],
  conversation: readonly Turn[] | undefined,
  language: string,
): RetrievedRecord[] | undefined {
  if (!choices.some((r) => r.kind === 'product')) return undefined;
  const found = askedProducts(words, retrieved, conversation, language);
  if (found === undefined) return undefined;
  const asked = found.switchedTo.size > 0 ? found.switchedTo : found.named;
  return choices.filter((r) => r.kind !== 'product' || asked.has(r.recordId));
}

/**
 * A follow-up that switches products ("und bei den dünnen Nitril-Handschuhen?" after the leather
 * gloves' sizes; `words` its own words, expanded): the products it switches to; its question in
 * context (`asked`) without the words that named the product before ("Rosenhandschuhen", "Leder")
 * unless they also name the new one, so that what was asked of the one is asked of the other; and
 * the words of the follow-up that describe which product it names (`naming`). Undefined when it
 * switches to none.
 */
export function switchedProductQuestion(
  followUp: string,
  words: readonly QueryWord[],
  asked: string,
  retrieved: readonly RetrievedRecord[],
  conversation: readonly Turn[] | undefined,
  language: string,
): { products: RetrievedRecord[]; question: string; naming: ReadonlySet<string> } | undefined {
  const found = askedProducts(words, retrieved, conversation, language);
  if (found === undefined || found.switchedTo.size === 0) return undefined;
  const before = titleTerms(retrieved.filter((r) => found.named.has(r.recordId)), language);
  const products = retrieved.filter((r) => found.switchedTo.has(r.recordId));
  const now = titleTerms(products, language);
  const question = asked.replace(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu, (word) => {
    const terms = analyzeWords(word, language, 'query').terms;
    return terms.length > 0 && terms.every((t) => before.has(t) && !now.has(t)) ? '' : word;
  });
  return { products, question, naming: wordsNaming(followUp, now, language) };
}

function titleTerms(records: readonly { title: string | null }[], language: string): Set<string> {
  return new Set(records.flatMap((r) => (r.title === null ? [] : analyzeWords(r.title, language, 'index').terms)));
}

/**
 * A content word right before a word of a product's name describes which product it is ("den
 * dünnen Nitril-Handschuhen", "the puffy Loft jacket"): part of the naming, not a topic.
 */
function wordsNaming(followUp: string, nameTerms: ReadonlySet<string>, language: string): ReadonlySet<string> {
  const { surfaces, stops, terms } = analyzeWords(followUp, language, 'query');
  const naming = new Set<string>();
  for (let i = 1; i < terms.length; i++) if (nameTerms.has(terms[i] as string) && !stops[i - 1]) naming.add(surfaces[i - 1] as string);
  return naming;
}

/** The words of `followUp` that describe which of `products` it means (`wordsNaming`), for a follow-up kept on those products. */
export function wordsNamingProducts(followUp: string, products: readonly { title: string | null }[], language: string): ReadonlySet<string> {
  return wordsNaming(followUp, titleTerms(products, language), language);
}
