/**
 * What kind of answer a question phrase asks for, and whether a text holds one. "How long do I have
 * to return something?" asks for a duration, and "Returns are accepted within 30 days" answers it
 * without the word "long"; "Wie viel kostet der Versand?" asks for an amount ("4,95 €"); "How many
 * filters are in a box?" asks for a quantity ("100 filters"); "What's your phone number?" for a
 * phone number ("call us on 0114 496 0321"). The phrase counts like one question word that a
 * passage covers when it holds an answer of that kind (answering/plan.ts reads it as the
 * pseudo-term `answerTypeTerm(type)` in a unit's terms). Phone numbers and email addresses are
 * also terms of the index (`contactTermsIn`), so such a question finds the records that give one.
 *
 * Deliberately narrow: only interrogative phrases that name the kind unambiguously, in the
 * languages with analysers (English, German, French), and only answers written with digits, a
 * currency, or a small number word next to a unit of time; a quantity is any number in digits; a
 * phone number is 8 to 15 digits in groups, written as phone numbers are; an email address has an
 * "@" between a name and a domain.
 */

/**
 * A span of time, a price, a count or measure ("how many filters", "how much coffee does it hold"),
 * or a way to reach the business: a phone number or an email address ("What's your phone number?"
 * is answered by "call us on 0114 496 0321", which says neither "phone" nor "number").
 */
export type AnswerType = 'duration' | 'amount' | 'quantity' | 'phone' | 'email';

/** The pseudo-term of a kind of answer: it cannot collide with a real term (a control character). */
export function answerTypeTerm(type: AnswerType): string {
  return `\u0001${type}`;
}

/** Whether `term` is the pseudo-term of a kind of answer (`answerTypeTerm`: a control character first). */
export function isAnswerTypeTerm(term: string): boolean {
  return term.charCodeAt(0) === 1;
}

interface Ask {
  type: AnswerType;
  /** The phrase in a lower-cased question. */
  phrase: RegExp;
}

const ASKS: Readonly<Record<string, readonly Ask[]>> = {
  en: [
    { type: 'duration', phrase: /\bhow (?:long|soon|quickly|fast)\b/u },
    { type: 'amount', phrase: /\bhow much\b/u },
    // "how much coffee does it hold" asks for a quantity besides a price; "how much is it" only for a price.
    { type: 'quantity', phrase: /\bhow many\b|\bhow much (?!(?:is|are|does|do|did|was|were|will|would|should|can|could|to|for|it|its|that|this|they|i|we|you|extra|more|less)\b)\p{L}/u },
    // A number to call, not an order's or a tracking number; "when can I phone you" asks for hours.
    { type: 'phone', phrase: /\b(?:(?:tele)?phone|contact|mobile|cell|support|helpline|hotline|customer service) (?:number|no\b)|\bnumber (?:to|i can|can i|we can|can we|should i) (?:call|ring|phone|dial)\b|\b(?:helpline|hotline)\b/u },
    { type: 'email', phrase: /\be-?mail (?:address|addy)\b|\baddress (?:to|i can|can i|should i) (?:e-?mail|write to)\b|\bwhat(?:'s| is) (?:your|the) e-?mail\b/u },
  ],
  de: [
    { type: 'duration', phrase: /\bwie (?:lange?|schnell|bald)\b/u },
    { type: 'amount', phrase: /\bwie ?viel\b/u },
    { type: 'quantity', phrase: /\bwie ?viele\b/u },
    { type: 'phone', phrase: /\btelefon-? ?nummer\b|\brufnummer\b|\b(?:hotline|servicenummer)\b/u },
    { type: 'email', phrase: /\b(?:e-?)?mail-? ?adresse\b/u },
  ],
  fr: [
    { type: 'duration', phrase: /\bcombien de (?:temps|jours)\b/u },
    { type: 'amount', phrase: /\bcombien (?:co[uû]te|ça co[uû]te|je (?:dois|vais) payer|faut-il payer)\b/u },
    { type: 'quantity', phrase: /\bcombien d(?:e |')(?!temps\b|jours\b)\p{L}/u },
    { type: 'phone', phrase: /\bnum[ée]ro (?:de (?:t[ée]l[ée]phone|t[ée]l\b|portable|contact)|(?:pour|à) (?:appeler|joindre))/u },
    { type: 'email', phrase: /\badresse (?:e-?mail|mail|m[ée]l|[ée]lectronique|courriel)\b/u },
  ],
};

/** The kinds of answer `question` (any case) asks for. */
export function askedAnswerTypes(question: string, language: string): AnswerType[] {
  const asks = ASKS[language];
  if (!asks) return [];
  const lower = question.toLowerCase();
  return asks.filter((ask) => ask.phrase.test(lower)).map((ask) => ask.type);
}

/**
 * Words with which records offer a way of reaching the business, per kind of contact and language
 * ("call us on …", "telefonisch unter …", "écrivez-nous à …"): a question for a phone number or an
 * email address also looks for them, since it rarely shares a word with the record that answers it.
 */
const CONTACT_WORDS: Readonly<Partial<Record<AnswerType, Readonly<Record<string, readonly string[]>>>>> = {
  phone: {
    en: ['phone', 'telephone', 'call', 'ring', 'helpline', 'hotline', 'contact'],
    de: ['telefon', 'telefonisch', 'anrufen', 'anruf', 'hotline', 'kontakt', 'erreichbar'],
    fr: ['téléphone', 'téléphonique', 'appeler', 'appelez', 'appel', 'joindre', 'contact', 'contacter'],
  },
  email: {
    en: ['email', 'e-mail', 'mail', 'write', 'contact'],
    de: ['e-mail', 'email', 'mail', 'schreiben', 'schreib', 'kontakt', 'erreichbar'],
    fr: ['e-mail', 'email', 'mail', 'courriel', 'écrire', 'écrivez', 'contact', 'contacter'],
  },
};

/** Words that offer the kind of contact `type` asks for, in `language` (empty for the other kinds). */
export function contactWords(type: AnswerType, language: string): readonly string[] {
  return CONTACT_WORDS[type]?.[language] ?? [];
}

/**
 * Words that, in a question asking for a phone number or an email address, name the kind of answer
 * rather than a topic: "phone number" is answered by "call us on 0114 496 0321", which has neither
 * word. (The words of "how long" stay: a record may repeat them, "how long a repair takes".)
 */
const ANSWER_NAMES: Readonly<Partial<Record<AnswerType, Readonly<Record<string, readonly string[]>>>>> = {
  phone: {
    en: ['phone', 'telephone', 'mobile', 'cell', 'number', 'no', 'helpline', 'hotline', 'call', 'ring', 'dial'],
    de: ['telefonnummer', 'telefon', 'rufnummer', 'nummer', 'hotline', 'servicenummer'],
    fr: ['numéro', 'téléphone', 'tél', 'portable', 'appeler', 'joindre'],
  },
  email: {
    en: ['email', 'e', 'mail', 'address', 'addy'],
    de: ['e', 'mail', 'email', 'adresse', 'mailadresse', 'emailadresse'],
    fr: ['adresse', 'e', 'mail', 'email', 'mél', 'courriel', 'électronique'],
  },
};

/** Words of a question asking for `type` that name that kind of answer, in `language` (normalised as the tokeniser does). */
export function answerNames(type: AnswerType, language: string): readonly string[] {
  return ANSWER_NAMES[type]?.[language] ?? [];
}

const NUMBER_WORD =
  '(?:\\d+(?:[.,]\\d+)?|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fourteen|thirty|ein(?:e[mnr]?)?|zwei|drei|vier|fünf|sechs|sieben|acht|zehn|zwölf|vierzehn|dreißig|un|une|deux|trois|quatre|cinq|six|sept|huit|dix|douze|quinze|trente)';
const TIME_UNIT =
  '(?:(?:working |business |calendar )?(?:minutes?|hours?|days?|weeks?|months?|years?|mins?|hrs?)|(?:werk|arbeits|kalender)?(?:tage?n?|minuten?|stunden?|wochen?|monate?n?|jahre?n?)|(?:jours?|semaines?|mois|ans|années?|heures?)(?: ouvrés| ouvrables| calendaires)?)';
/** "30 days", "2–4 working days", "a two-year warranty", "14 Tagen", "3 à 5 jours ouvrés", "48 h". */
const DURATION_RE = new RegExp(`(?<![\\p{L}])${NUMBER_WORD}(?:\\s*(?:–|-|to|bis|à|ou|or)\\s*${NUMBER_WORD})?[\\s-]*${TIME_UNIT}(?![\\p{L}])|\\b\\d+\\s*h\\b`, 'iu');
/** "£3.95", "4,95 €", "EUR 20", "$5", "10 euros", "free"/"kostenlos"/"gratuit" (an amount of nothing). */
const AMOUNT_RE = /[£€$]\s?\d|\d(?:[.,]\d+)?\s?(?:€|£|\$|eur\b|euros?\b|gbp\b|usd\b|chf\b|dollars?\b|pounds?\b|francs?\b)|\b(?:free of charge|kostenlos|gratuit(?:e|s|es)?)\b/iu;

/** Any number, written with digits: "100 filters", "80 ml", "up to 5 users". */
const QUANTITY_RE = /\p{Nd}/u;

/**
 * A phone number's candidates: digits in two to six groups, optionally after a country code or an
 * area code in brackets ("0114 496 0321", "+49 341 2569480", "(555) 123-4567", "01 23 45 67 89").
 * `isPhoneNumber` then requires a length and a start that dates, prices and account numbers lack.
 */
const PHONE_CANDIDATE_RE = /(?<![\p{L}\p{N}.,])(?:\+\s?\d{1,3}[\s.-]?)?(?:\(\d{1,5}\)[\s.-]?)?\d{1,5}(?:[\s.\-/]\d{2,8}){1,5}(?![\p{L}\p{N}]|[.,]\d)/gu;
/** North American "800-555-0199" and "555.123.4567". */
const NANP_RE = /^(?:1[\s.-])?\d{3}([.-])\d{3}\1\d{4}$/u;

/** 8 to 15 digits (E.164 has at most 15), written the way phone numbers are: international, national (a leading 0) or North American. */
function isPhoneNumber(candidate: string): boolean {
  let digits = 0;
  for (let i = 0; i < candidate.length; i++) {
    const c = candidate.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
  }
  if (digits < 8 || digits > 15) return false;
  return candidate.startsWith('+') || candidate.startsWith('0') || candidate.startsWith('(') || NANP_RE.test(candidate);
}

function holdsPhoneNumber(text: string): boolean {
  for (const m of text.matchAll(PHONE_CANDIDATE_RE)) if (isPhoneNumber(m[0])) return true;
  return false;
}

/** An address's local part's last character, before its "@". */
const LOCAL_PART_END_RE = /[\p{L}\p{N}._%+-]/u;
/** An address's domain, from its "@": "@ashgrovekitchen.co.uk", "@speichenwerk.de" (read where it lies: sticky). */
const DOMAIN_RE = /@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/uy;

/** Whether `text` holds an email address ("hello@ashgrovekitchen.co.uk"), looked for only at its "@" signs. */
function holdsEmailAddress(text: string): boolean {
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    if (at === 0 || !LOCAL_PART_END_RE.test(text[at - 1] as string)) continue;
    DOMAIN_RE.lastIndex = at;
    if (DOMAIN_RE.test(text)) return true;
  }
  return false;
}

const NONE: readonly string[] = Object.freeze([]);
const PHONE_TERMS: readonly string[] = Object.freeze([answerTypeTerm('phone')]);
const EMAIL_TERMS: readonly string[] = Object.freeze([answerTypeTerm('email')]);
const PHONE_AND_EMAIL_TERMS: readonly string[] = Object.freeze([answerTypeTerm('phone'), answerTypeTerm('email')]);

/**
 * Eight or more characters from digit to digit with only the characters that separate a phone
 * number's groups between them: what every phone number of 8 digits or more has, found by one
 * pattern (a regular expression scans faster than a loop here), so that the phone number pattern
 * runs only on the few texts that may hold one (indexing reads every record's text).
 */
const DIGIT_RUN_RE = /\d[\d +().\-/]{6,}\d/;

/**
 * The pseudo-terms of the ways of reaching the business that `text` offers (a phone number, an
 * email address), which the index counts as words of the record, so that "What's your email
 * address?" finds the record that gives one. Shared, frozen arrays: read them, never change them.
 */
export function contactTermsIn(text: string): readonly string[] {
  const phone = DIGIT_RUN_RE.test(text) && holdsPhoneNumber(text);
  const email = holdsEmailAddress(text);
  if (phone) return email ? PHONE_AND_EMAIL_TERMS : PHONE_TERMS;
  return email ? EMAIL_TERMS : NONE;
}

/** The kinds of answer `text` holds. */
export function answerTypesIn(text: string): AnswerType[] {
  const found: AnswerType[] = [];
  if (DURATION_RE.test(text)) found.push('duration');
  if (AMOUNT_RE.test(text)) found.push('amount');
  if (QUANTITY_RE.test(text)) {
    found.push('quantity');
    if (DIGIT_RUN_RE.test(text) && holdsPhoneNumber(text)) found.push('phone');
  }
  if (holdsEmailAddress(text)) found.push('email');
  return found;
}
