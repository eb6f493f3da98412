/**
 * An order that has not come: "My parcel never arrived", "I haven't received my order", "Mein
 * Paket ist nicht angekommen", "Mon colis n'est toujours pas arrivé". The records answer it under
 * a lost, missing or late order ("What should I do if my order is late or missing?", "Was passiert,
 * wenn mein Paket verloren gegangen ist?"), words the visitor never writes; and the visitor's
 * verb ("arrived") meets records about what arrives ("My item arrived damaged"). So the phrase's
 * negation and verb only ask, as "where is" does of a tracking question (answer-types.ts), and the
 * question gains one word that the records' words for a lost or late delivery meet
 * (retrieval/query-expansion.ts).
 *
 * Narrow on purpose: only a delivery (an order, a parcel, a package, what was ordered…) that has
 * not arrived or was not received, not a refund or an email: "I never got my refund" is answered
 * by the refund record.
 */

interface MissingAsk {
  /** The words that only ask (the negation and the verb: group 1) next to the thing that has not come, in a lower-cased question. */
  phrases: readonly RegExp[];
  /** A negation, without which no phrase can match: most questions have none, and are done with at one cheap test. */
  negation: RegExp;
  /** The words for what has not come: an order is a parcel is a delivery ("Bestellung" / "mein Paket"). */
  deliveries: RegExp;
  /** Words with which records speak of a delivery that is lost, missing or late. */
  recordWords: readonly string[];
}

const DELIVERY_EN = '(?:order|orders|ordered|bought|purchased|parcel|parcels|package|packages|delivery|shipment|item|items|stuff|goods)';
const DELIVERY_DE = '(?:bestellt|bestellte|bestellten|gekauft|bestellung|lieferung|sendung|ware|paket|päckchen|packet)';
const DELIVERY_FR = '(?:commandée?s?|achetée?s?|commande|colis|paquet|livraison|article|articles)';

const ASKS: Readonly<Record<string, MissingAsk>> = {
  en: {
    phrases: [
      // "my parcel never arrived", "my package still hasn't turned up", "the order has not been delivered".
      new RegExp(`(?<!\\p{L})${DELIVERY_EN}(?!\\p{L})[^?.!]{0,30}?((?<!\\p{L})(?:never|not|hasn['’]?t|haven['’]?t|didn['’]?t|isn['’]?t|wasn['’]?t|yet to)(?!\\p{L})[^?.!]{0,15}?(?<!\\p{L})(?:arrived?|come|came|turned up|turn up|shown up|show up|delivered|got here)(?!\\p{L}))`, 'giu'),
      // "I haven't received my order", "never got the parcel".
      new RegExp(`(?<!\\p{L})((?:never|not|haven['’]?t|hasn['’]?t|didn['’]?t|yet to)\\s+(?:yet\\s+|still\\s+|even\\s+)?(?:received|receive|got|gotten|get))(?=\\s+(?:my|our|the|an?)\\s+${DELIVERY_EN}(?!\\p{L}))`, 'giu'),
    ],
    negation: /(?<!\p{L})(?:never|not|yet to|(?:has|have|did|is|was)n['’]?t)(?!\p{L})/iu,
    deliveries: new RegExp(`(?<!\\p{L})${DELIVERY_EN}(?!\\p{L})`, 'giu'),
    recordWords: ['missing', 'lost', 'late', 'delayed', 'undelivered'],
  },
  de: {
    phrases: [
      // "Mein Paket ist nicht angekommen", "die Bestellung habe ich nie erhalten", "Paket kommt nicht an".
      new RegExp(`(?<!\\p{L})${DELIVERY_DE}(?!\\p{L})[^?.!]{0,40}?((?<!\\p{L})(?:nicht|nie|niemals)(?!\\p{L})[^?.!]{0,15}?(?<!\\p{L})(?:angekommen|gekommen|geliefert|eingetroffen|zugestellt|erhalten|bekommen|da)(?!\\p{L}))`, 'giu'),
      new RegExp(`(?<!\\p{L})${DELIVERY_DE}(?!\\p{L})[^?.!]{0,10}?((?<!\\p{L})(?:kommt|kam)(?!\\p{L})[^?.!]{0,25}?(?<!\\p{L})(?:nicht|nie)\\s+an(?!\\p{L}))`, 'giu'),
    ],
    negation: /(?<!\p{L})(?:nicht|nie|niemals)(?!\p{L})/iu,
    deliveries: new RegExp(`(?<!\\p{L})${DELIVERY_DE}(?!\\p{L})`, 'giu'),
    recordWords: ['verloren', 'verschollen', 'verspätet', 'verspätung', 'fehlt'],
  },
  fr: {
    phrases: [
      // "Mon colis n'est toujours pas arrivé", "ma commande n'a jamais été livrée".
      new RegExp(`(?<!\\p{L})${DELIVERY_FR}(?!\\p{L})[^?.!]{0,40}?((?<!\\p{L})(?:pas|jamais)(?!\\p{L})[^?.!]{0,12}?(?<!\\p{L})(?:arrivée?s?|livrée?s?|reçue?s?|parvenue?s?)(?!\\p{L}))`, 'giu'),
      // "Je n'ai jamais reçu ma commande".
      new RegExp(`(?<!\\p{L})((?:pas|jamais)\\s+(?:encore\\s+)?reçue?s?)(?=\\s+(?:ma|mon|mes|la|le|les|notre|nos)\\s+${DELIVERY_FR}(?!\\p{L}))`, 'giu'),
    ],
    negation: /(?<!\p{L})(?:pas|jamais)(?!\p{L})/iu,
    deliveries: new RegExp(`(?<!\\p{L})${DELIVERY_FR}(?!\\p{L})`, 'giu'),
    recordWords: ['perdu', 'perdue', 'égaré', 'égarée', 'retard'],
  },
};

/**
 * The words of `question` that ask after a delivery that has not come ("never arrived", "haven't
 * received", and the words for the delivery: "order", "parcel"), joined by spaces; undefined when
 * it asks no such thing, as most do not.
 */
export function missingDeliveryAsking(question: string, language: string): string | undefined {
  const ask = ASKS[language];
  if (ask === undefined) return undefined;
  if (!ask.negation.test(question)) return undefined;
  const lower = question.toLowerCase();
  const found = ask.phrases.flatMap((phrase) => [...lower.matchAll(phrase)].map((m) => m[1] as string));
  if (found.length === 0) return undefined;
  return [...found, ...[...lower.matchAll(ask.deliveries)].map((m) => m[0])].join(' ');
}

/** Words with which records of `language` speak of a lost, missing or late delivery. */
export function missingDeliveryWords(language: string): readonly string[] {
  return ASKS[language]?.recordWords ?? [];
}
