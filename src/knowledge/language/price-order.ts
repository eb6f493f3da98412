/**
 * Questions that ask for the cheapest or the dearest of something ("Which of your grinders is the
 * cheapest?", "Was ist eure günstigste Mühle?", "Quel est le moulin le moins cher ?"). The phrase
 * names an order, not a thing the records must contain: the answerer picks, among the products that
 * match the rest of the question, the one with the lowest or highest price (answering/plan.ts).
 *
 * Deliberately narrow: price only, in the languages with analysers, and only phrases that cannot
 * mean anything else ("cheap" alone can: "is shipping cheap?").
 */

export type PriceOrder = 'lowest' | 'highest';

interface OrderPhrase {
  order: PriceOrder;
  /** The phrase in a lower-cased question. */
  phrase: RegExp;
}

const PHRASES: Readonly<Record<string, readonly OrderPhrase[]>> = {
  en: [
    { order: 'lowest', phrase: /\b(?:cheapest|least (?:expensive|costly|pricey)|most (?:affordable|inexpensive)|lowest[- ]priced?|(?:lowest|smallest) price)\b/u },
    { order: 'highest', phrase: /\b(?:priciest|dearest|most (?:expensive|costly|pricey)|highest[- ]priced?|highest price)\b/u },
  ],
  de: [
    { order: 'lowest', phrase: /\b(?:am )?(?:günstigst|billigst|preiswertest|preisgünstigst)(?:e[nmrs]?)?\b/u },
    { order: 'highest', phrase: /\b(?:am )?teuerst(?:e[nmrs]?)?\b/u },
  ],
  fr: [
    { order: 'lowest', phrase: /\b(?:l[ea] |les )?moins (?:cher|chère|chers|chères|coûteu(?:x|se|ses))(?![\p{L}])|\bmeilleur marché(?!\p{L})|\bprix le plus bas\b/u },
    { order: 'highest', phrase: /\b(?:l[ea] |les )?plus (?:cher|chère|chers|chères|coûteu(?:x|se|ses))(?![\p{L}])|\bprix le plus (?:élevé|haut)(?!\p{L})/u },
  ],
};

export interface AskedPriceOrder {
  order: PriceOrder;
  /** The phrase's words (lower case), which name the order rather than something to find. */
  words: ReadonlySet<string>;
}

/** The price order `question` (any case) asks for, if any. */
export function askedPriceOrder(question: string, language: string): AskedPriceOrder | undefined {
  const phrases = PHRASES[language];
  if (!phrases) return undefined;
  const lower = question.toLowerCase();
  for (const { order, phrase } of phrases) {
    const m = phrase.exec(lower);
    if (m) return { order, words: new Set(m[0].split(/[\s-]+/u).filter((w) => w.length > 0)) };
  }
  return undefined;
}

/** The first number of a price ("£1,299.00", "129,90 €", "CHF 45") as a number; undefined without one. */
export function priceValue(price: string): number | undefined {
  const m = /\d[\d.,' ]*/u.exec(price);
  if (!m) return undefined;
  let digits = m[0].trim().replace(/[' ]/gu, '');
  // The last separator followed by one or two digits is the decimal mark; any other separates thousands.
  const decimal = /[.,](\d{1,2})$/u.exec(digits);
  if (decimal) digits = `${digits.slice(0, decimal.index).replace(/[.,]/gu, '')}.${decimal[1]}`;
  else digits = digits.replace(/[.,]/gu, '');
  const value = Number(digits);
  return Number.isFinite(value) ? value : undefined;
}
