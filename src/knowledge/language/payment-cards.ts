/**
 * Payment cards and the networks that issue them, for meeting a visitor's "Which cards do you
 * take?" with a shop's "We accept Visa, Mastercard and PayPal", and "Do you take Amex?" with
 * "American Express". Every shop's payment answer names networks, not the word "card", and
 * visitors ask either way; a general thesaurus has neither the brands nor the abbreviations.
 *
 * A card is a payment card only in a question about paying (`asksAboutPaying`): "Do you sell gift
 * cards?" is not answered with the networks. In such a question, "take" is "accept" ("Do you take
 * Amex?" / "We accept American Express"), which it is nowhere else ("delivery takes 3 days").
 *
 * Closed lists, the same in every language the answerer analyses (a network's name does not
 * change with the language; the word for "card" does). Names are matched as the question's words
 * are: normalised (lower case, diacritics folded, German umlauts as ae/oe/ue). Used by
 * retrieval/query-expansion.ts; measured in docs/quality.md, "Session 16".
 */

/** The word for a payment card, singular and plural, in English, German, French, Spanish, Italian, Dutch and Portuguese. */
const CARD_WORDS: ReadonlySet<string> = new Set(
  `card cards creditcard creditcards debitcard debitcards
   karte karten kreditkarte kreditkarten debitkarte debitkarten bankkarte bankkarten girokarte girokarten
   carte cartes
   tarjeta tarjetas
   carta
   kaart kaarten pinpas betaalpas
   cartao cartoes`
    .split(/\s+/)
    .filter((w) => w.length > 0),
);

/**
 * Card networks, each with the names it is written under (the first is the full name). Left out:
 * names that are also ordinary words of a shop's text ("Discover our range", "CB" as an
 * abbreviation of anything, "Diners" alone).
 */
const NETWORKS: readonly (readonly string[])[] = [
  ['visa'],
  ['mastercard', 'master card'],
  ['maestro'],
  ['american express', 'amex'],
  ['jcb'],
  ['diners club'],
  ['unionpay', 'union pay'],
  ['girocard'],
  ['bancontact'],
  ['carte bancaire', 'cartes bancaires'],
];

const NETWORK_NAMES: readonly string[] = NETWORKS.flat();
const CARD_WORD_LIST: readonly string[] = [...CARD_WORDS];

const NETWORK_OF_WORD = new Map<string, readonly string[]>();
for (const names of NETWORKS) for (const name of names) if (!name.includes(' ')) NETWORK_OF_WORD.set(name, names);

/**
 * Words that make a question one about paying ("Kann ich mit Karte zahlen?", "Vous acceptez la
 * carte bancaire ?"), normalised, in the same languages: with one of them, a card is a payment
 * card, not a gift card or a graphics card. "Take" is not one of them ("How long does delivery
 * take?"): it is only with a card ("Which cards do you take?") or a network's name.
 */
const PAYING_WORDS: ReadonlySet<string> = new Set(
  `pay pays paying paid payment payments accept accepts accepted checkout credit debit
   zahlen zahle zahlt bezahlen bezahle bezahlt zahlung bezahlung zahlungsart zahlungsarten akzeptiert akzeptieren kredit
   payer paie paye payez paiement paiements regler reglez reglement acceptez accepter acceptes credit debit bancaire
   pagar pago pagos pago aceptan aceptais aceptar credito debito
   pagare pago pagamento pagamenti accettate accettare credito debito
   betalen betaal betaalt betaling betalingen accepteren accepteert aanvaarden
   pagamento aceitam aceitar aceita`
    .split(/\s+/)
    .filter((w) => w.length > 0),
);

/** Ways to pay other than a card, that visitors ask a shop to take ("Do you take cheques?", "Nehmt ihr Bargeld?"), normalised. */
const PAYMENT_METHODS: ReadonlySet<string> = new Set(
  'cash cheque cheques paypal klarna bargeld scheck schecks especes liquide efectivo contanti assegno assegni contant dinheiro insurance voucher vouchers'.split(' '),
);

/** Whether the question's words (normalised surfaces) ask about paying: a paying word, a network's name, or a card or another way to pay that one takes. */
export function asksAboutPaying(words: readonly string[]): boolean {
  let means = false;
  let take = false;
  for (const w of words) {
    if (PAYING_WORDS.has(w) || NETWORK_OF_WORD.has(w)) return true;
    means ||= CARD_WORDS.has(w) || PAYMENT_METHODS.has(w);
    take ||= TAKE_WORDS.has(w);
  }
  return means && take;
}

/**
 * "Take" as visitors say it of a way to pay ("Do you take Amex?", "Nehmt ihr Kreditkarten?",
 * "Vous prenez les chèques ?"), and the words shops write for it ("We accept…"), normalised.
 */
const TAKE_WORDS: ReadonlySet<string> = new Set(
  `take takes taking took
   nehmt nehmen nimmst nimmt
   prenez prendre prend prenons
   cogeis coger tomais tomar
   prendete prendere prende
   neemt nemen neem
   levam levar`
    .split(/\s+/)
    .filter((w) => w.length > 0),
);
const ACCEPT_WORDS: readonly string[] = `accept accepts accepted
  akzeptieren akzeptiert annehmen
  accepter acceptons acceptees acceptes
  aceptar aceptamos aceptan
  accettare accettiamo accettati
  accepteren accepteert aanvaarden
  aceitar aceitamos aceites`
  .split(/\s+/)
  .filter((w) => w.length > 0);

/** Whether `word` (one normalised word) says "take" as one says it of a way to pay. */
export function isTakeWord(word: string): boolean {
  return TAKE_WORDS.has(word);
}

/** The words a shop writes for taking a way to pay ("accept"), in every language here. */
export function acceptWords(): readonly string[] {
  return ACCEPT_WORDS;
}

/** Whether `word` (one normalised word) is a word for a payment card ("cards", "Kreditkarte", "tarjeta"). */
export function isCardWord(word: string): boolean {
  return CARD_WORDS.has(word);
}

/** Every network's every name: what a card word may be met with in the records. */
export function cardNetworkNames(): readonly string[] {
  return NETWORK_NAMES;
}

/** The names of the network `word` (one normalised word: "amex", "visa") is written under, or undefined. */
export function networkNames(word: string): readonly string[] | undefined {
  return NETWORK_OF_WORD.get(word);
}

/** The words for a payment card, for a network's name to be met with ("Amex" → "card"). */
export function cardWords(): readonly string[] {
  return CARD_WORD_LIST;
}
