/**
 * Questions that ask for the cheapest or the dearest of something ("Which of your grinders is the
 * cheapest?", "Was ist eure günstigste Mühle?", "Quel est le moulin le moins cher ?"), or for the
 * lightest or the heaviest ("What's your lightest tent?", "das leichteste Zelt", "la tente la plus
 * légère"). The phrase names an order, not a thing the records must contain: the answerer picks,
 * among the products that match the rest of the question, the one with the lowest or highest price,
 * weight or capacity (answering/product-selection.ts).
 *
 * Also the comparative after an article, which picks one of a kind as the superlative does ("On
 * the cheaper walking sticks, …", "die günstigere Astschere"): without the article it compares
 * with something else ("if I find it cheaper somewhere else").
 *
 * The biggest or the smallest is the one that holds the most or the least ("the biggest milk jug",
 * "die größte Gießkanne": a capacity or volume field): a size of several dimensions has no order.
 *
 * Deliberately narrow: price, weight and capacity only, in the languages with analysers, and only
 * phrases that cannot mean anything else ("cheap" alone can: "is shipping cheap?"; "light" is also a
 * lamp, and "the lighter" a thing a shop may sell).
 */

/** Lowest first or highest first. */
export type OrderDirection = 'lowest' | 'highest';

/** What the products are ordered by. */
export type OrderedBy = 'price' | 'weight' | 'capacity';

interface OrderPhrase {
  order: OrderDirection;
  by: OrderedBy;
  /** The phrase in a lower-cased question. */
  phrase: RegExp;
}

const PHRASES: Readonly<Record<string, readonly OrderPhrase[]>> = {
  en: [
    { order: 'lowest', by: 'price', phrase: /\b(?:cheapest|least (?:expensive|costly|pricey)|most (?:affordable|inexpensive)|lowest[- ]priced?|(?:lowest|smallest) price|the (?:cheaper|less expensive|lower[- ]priced))\b/u },
    { order: 'highest', by: 'price', phrase: /\b(?:priciest|dearest|most (?:expensive|costly|pricey)|highest[- ]priced?|highest price|the (?:dearer|pricier|more expensive|higher[- ]priced))\b/u },
    { order: 'lowest', by: 'weight', phrase: /\b(?:lightest|least heavy|lowest weight|the less heavy)\b/u },
    { order: 'highest', by: 'weight', phrase: /\b(?:heaviest|highest weight|the heavier)\b/u },
    { order: 'lowest', by: 'capacity', phrase: /\b(?:smallest|lowest capacity|the smaller)\b/u },
    { order: 'highest', by: 'capacity', phrase: /\b(?:biggest|largest|highest capacity|the (?:bigger|larger))\b/u },
  ],
  de: [
    { order: 'lowest', by: 'price', phrase: /\b(?:am )?(?:günstigst|billigst|preiswertest|preisgünstigst)(?:e[nmrs]?)?\b|\b(?:der|die|das|den|dem|des) (?:günstiger|billiger|preiswerter)e[nmrs]?\b/u },
    { order: 'highest', by: 'price', phrase: /\b(?:am )?teuerst(?:e[nmrs]?)?\b|\b(?:der|die|das|den|dem|des) teurere[nmrs]?\b/u },
    { order: 'lowest', by: 'weight', phrase: /\b(?:am )?leichtest(?:e[nmrs]?)?\b|\b(?:der|die|das|den|dem|des) leichtere[nmrs]?\b/u },
    { order: 'highest', by: 'weight', phrase: /\b(?:am )?schwerst(?:e[nmrs]?)?\b|\b(?:der|die|das|den|dem|des) schwerere[nmrs]?\b/u },
    { order: 'lowest', by: 'capacity', phrase: /\b(?:am )?kleinst(?:e[nmrs]?)?\b|\b(?:der|die|das|den|dem|des) kleinere[nmrs]?\b/u },
    { order: 'highest', by: 'capacity', phrase: /(?<![\p{L}])(?:am )?gr(?:ö|oe)(?:ß|ss)t(?:e[nmrs]?)?(?![\p{L}])|\b(?:der|die|das|den|dem|des) gr(?:ö|oe)(?:ß|ss)ere[nmrs]?(?![\p{L}])/u },
  ],
  fr: [
    { order: 'lowest', by: 'price', phrase: /\b(?:l[ea] |les )?moins (?:cher|chère|chers|chères|coûteu(?:x|se|ses))(?![\p{L}])|\bmeilleur marché(?!\p{L})|\bprix le plus bas\b/u },
    { order: 'highest', by: 'price', phrase: /\b(?:l[ea] |les )?plus (?:cher|chère|chers|chères|coûteu(?:x|se|ses))(?![\p{L}])|\bprix le plus (?:élevé|haut)(?!\p{L})/u },
    { order: 'lowest', by: 'weight', phrase: /\b(?:l[ea] |les )?(?:plus (?:léger|légère|légers|légères)|moins (?:lourd|lourde|lourds|lourdes))(?![\p{L}])/u },
    { order: 'highest', by: 'weight', phrase: /\b(?:l[ea] |les )?plus (?:lourd|lourde|lourds|lourdes)(?![\p{L}])/u },
    { order: 'lowest', by: 'capacity', phrase: /\b(?:l[ea] |les )?plus (?:petit|petite|petits|petites)(?![\p{L}])/u },
    { order: 'highest', by: 'capacity', phrase: /\b(?:l[ea] |les )?plus (?:grand|grande|grands|grandes)(?![\p{L}])/u },
  ],
};

export interface AskedOrder {
  order: OrderDirection;
  by: OrderedBy;
  /** The phrase's words (lower case), which name the order rather than something to find. */
  words: ReadonlySet<string>;
}

/** The order of products `question` (any case) asks for ("the cheapest", "the lightest"), if any. */
export function askedOrder(question: string, language: string): AskedOrder | undefined {
  const phrases = PHRASES[language];
  if (!phrases) return undefined;
  const lower = question.toLowerCase();
  for (const { order, by, phrase } of phrases) {
    const m = phrase.exec(lower);
    if (m) return { order, by, words: new Set(m[0].split(/[\s-]+/u).filter((w) => w.length > 0)) };
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

/** Grams per unit of mass, by the unit's symbol. */
const GRAMS: Readonly<Record<string, number>> = { mg: 0.001, g: 1, kg: 1000, lb: 453.59237, oz: 28.349523125 };
/**
 * A number and a unit of mass, by symbol or name ("1.35 kg", "620 g", "2 lbs", "12 oz", "230
 * Gramm", "1,2 Kilo", "3 pounds"). Case-sensitive so that "4G" (a mobile network) is no weight.
 */
const MASS_RE = /(\d[\d.,]*)\s?(kg|g|mg|lbs?|oz|[Kk]ilo(?:gram(?:me|m)?s?|s)?|[Gg]ram(?:me|m)?s?|[Pp]ounds?|[Oo]unces?)(?![\p{L}\p{N}])/u;

/** A unit of mass as `MASS_RE` finds it, as the symbol `GRAMS` knows ("Kilogramm" → "kg", "lbs" → "lb"). */
function massSymbol(unit: string): string {
  const u = unit.toLowerCase();
  if (u.startsWith('kilo')) return 'kg';
  if (u.startsWith('gram')) return 'g';
  if (u.startsWith('pound') || u === 'lbs') return 'lb';
  if (u.startsWith('ounce')) return 'oz';
  return u;
}

/** Millilitres per unit of volume, by the unit's symbol. */
const MILLILITRES: Readonly<Record<string, number>> = { ml: 1, cl: 10, dl: 100, l: 1000 };
/** A number and a unit of volume ("0.6 L", "350 ml", "10 l", "40 Liter", "1.5 litres"). */
const VOLUME_RE = /(\d[\d.,]*)\s?(ml|cl|dl|[lL]|[Ll]it(?:er|re)s?)(?![\p{L}\p{N}])/u;

/** The first volume in a text ("0.6 L", "350 ml", "ca. 650 l") in millilitres; undefined without one. */
export function volumeValue(text: string): number | undefined {
  const m = VOLUME_RE.exec(text);
  if (!m) return undefined;
  const amount = priceValue(m[1] as string);
  const unit = (m[2] as string).toLowerCase();
  const ml = MILLILITRES[unit.startsWith('lit') ? 'l' : unit];
  return amount === undefined || ml === undefined ? undefined : amount * ml;
}

/** The first weight in a text ("1.35 kg", "460 g per pair", "1,2 Kilo", "12 oz") in grams; undefined without one. */
export function weightValue(text: string): number | undefined {
  const m = MASS_RE.exec(text);
  if (!m) return undefined;
  const amount = priceValue(m[1] as string);
  const grams = GRAMS[massSymbol(m[2] as string)];
  return amount === undefined || grams === undefined ? undefined : amount * grams;
}
