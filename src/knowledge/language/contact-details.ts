/**
 * How and when a business can be reached, as its records write it: a phone number, an email
 * address, opening hours, a postal address. Questions for them rarely share a word with the record that answers
 * ("What's your phone number?" / "call us on 0114 496 0321"; "When are you open?" / "Monday to
 * Friday 9am–5:30pm"), so the answerer looks for the form itself (answer-types.ts reads these as
 * kinds of answer, and the index counts them as terms of a record: `contactKindsIn`), and for the
 * words with which records offer them (`offerWords`).
 *
 * Deliberately narrow: a phone number is 8 to 15 digits in groups written as phone numbers are; an
 * email address has an "@" between a name and a domain; opening hours are a time of day written as
 * a clock time ("9am", "17:30", "17 Uhr", "de 10 h à 18 h"); a postal address has a postcode or a
 * street and its number. English, German and French.
 */

export type ContactKind = 'phone' | 'email' | 'hours' | 'address';

/**
 * What a question may ask for: one kind, or `contact`, any way to reach a person ("How can I
 * contact you?", "Can I talk to a human?"), which a phone number or an email address answers.
 */
export type ContactAsk = ContactKind | 'contact';

/** The kinds that answer a question asking for `contact`. */
export const CONTACT_KINDS: readonly ContactKind[] = ['phone', 'email'];

type PerLanguage = Readonly<Record<string, readonly string[]>>;

/**
 * Words with which records offer a kind of contact ("call us on …", "telefonisch unter …",
 * "écrivez-nous à …", "available Monday to Friday"): a question for one also looks for them.
 */
const OFFER_WORDS: Readonly<Record<ContactAsk, PerLanguage>> = {
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
  hours: {
    en: ['available', 'open', 'opening', 'hours', 'contact'],
    de: ['erreichbar', 'geöffnet', 'öffnungszeiten', 'offen', 'kontakt'],
    fr: ['horaires', 'ouvert', 'ouverts', 'joignable', 'joignables', 'disponible', 'disponibles', 'contact'],
  },
  // Not "address": records speak of the customer's ("save your addresses", "adresse e-mail").
  address: {
    en: ['located', 'based', 'headquartered', 'visit'],
    de: ['sitz', 'ansässig', 'anschrift'],
    fr: ['situé', 'située', 'situés', 'installé', 'installée', 'installés', 'siège'],
  },
  contact: {
    en: ['phone', 'telephone', 'call', 'ring', 'helpline', 'hotline', 'email', 'e-mail', 'mail', 'write', 'contact'],
    de: ['telefon', 'telefonisch', 'anrufen', 'anruf', 'hotline', 'e-mail', 'email', 'mail', 'schreiben', 'schreib', 'kontakt', 'erreichbar'],
    fr: ['téléphone', 'téléphonique', 'appeler', 'appelez', 'appel', 'e-mail', 'email', 'mail', 'courriel', 'écrire', 'écrivez', 'contact', 'contacter'],
  },
};

/** Days and parts of the day, named in a question about opening hours ("Are you open on Sundays?", "Wann macht ihr morgens auf?"). */
const WEEKDAYS: Readonly<Record<'en' | 'de' | 'fr', readonly string[]>> = {
  en: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'mondays', 'tuesdays', 'wednesdays', 'thursdays', 'fridays', 'saturdays', 'sundays', 'weekend', 'weekends', 'weekday', 'weekdays', 'morning', 'mornings', 'afternoon', 'afternoons', 'evening', 'evenings'],
  de: ['montag', 'dienstag', 'mittwoch', 'donnerstag', 'freitag', 'samstag', 'sonntag', 'montags', 'dienstags', 'mittwochs', 'donnerstags', 'freitags', 'samstags', 'sonntags', 'wochenende', 'feiertag', 'feiertags', 'feiertagen', 'morgens', 'vormittags', 'mittags', 'nachmittags', 'abends'],
  fr: ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche', 'lundis', 'mardis', 'mercredis', 'jeudis', 'vendredis', 'samedis', 'dimanches', 'week-end', 'weekend', 'férié', 'fériés', 'matin', 'matins', 'soir', 'soirs'],
};

/**
 * Words that, in a question asking for a kind of contact, name that kind rather than a topic the
 * answer must share: "phone number" is answered by "call us on 0114 496 0321", "Are you open on
 * Sundays?" by the days and hours the records give.
 */
const KIND_NAMES: Readonly<Record<ContactAsk, PerLanguage>> = {
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
  hours: {
    en: ['open', 'opening', 'closed', 'close', 'hours', 'hour', 'time', ...WEEKDAYS.en],
    de: ['öffnungszeiten', 'geöffnet', 'offen', 'geschlossen', 'servicezeiten', 'sprechzeiten', 'uhrzeit', 'uhr', ...WEEKDAYS.de],
    fr: ['horaires', 'horaire', 'heures', 'heure', 'ouverture', 'ouvert', 'ouverts', 'ouverte', 'ouvertes', 'fermé', 'fermés', ...WEEKDAYS.fr],
  },
  address: {
    en: ['address', 'postal', 'street', 'located', 'based', 'location'],
    de: ['adresse', 'anschrift', 'postadresse', 'befindet', 'befinden', 'sitzt'],
    fr: ['adresse', 'postale', 'situé', 'située', 'situés', 'situées', 'trouvez', 'trouve'],
  },
  // "Can I talk to a human?": whom and how, not a topic. "contact" and "support" stay: records use them.
  contact: {
    en: ['talk', 'speak', 'touch', 'reach', 'hold', 'human', 'humans', 'person', 'people', 'someone', 'somebody', 'agent', 'representative', 'rep', 'real', 'actual', 'live', 'member', 'staff'],
    de: ['sprechen', 'reden', 'mensch', 'menschen', 'mitarbeiter', 'mitarbeiterin', 'jemanden', 'jemandem', 'person', 'echten', 'echte', 'erreichen', 'kontaktieren'],
    fr: ['parler', 'humain', 'conseiller', 'conseillère', 'personne', 'quelqu', 'vrai', 'vraie', 'joindre', 'contacter'],
  },
};

/** Words with which records offer `kind`, in `language`. */
export function offerWords(kind: ContactAsk, language: string): readonly string[] {
  return OFFER_WORDS[kind][language] ?? [];
}

/** Words of a question asking for `kind` that name that kind, in `language`. */
export function kindNames(kind: ContactAsk, language: string): readonly string[] {
  return KIND_NAMES[kind][language] ?? [];
}

/**
 * Eight or more characters from digit to digit with only the characters that separate a phone
 * number's groups between them: what every phone number of 8 digits or more has, found by one
 * pattern (a regular expression scans faster than a loop here), so that the phone number pattern
 * runs only on the few texts that may hold one (indexing reads every record's text).
 */
const DIGIT_RUN_RE = /\d[\d +().\-/]{6,}\d/;
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
  if (!DIGIT_RUN_RE.test(text)) return false;
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

/**
 * A time of day written as a clock time: "9am", "5:30 pm", "8:00", "20:00", "17 Uhr", "9.30 Uhr",
 * or a French range "de 10 h à 18 h", "9h30-18h" (a lone "48 h" is a duration). Not "1:2" or "16:9".
 */
const CLOCK_RE =
  /(?:(?:1[0-2]|0?[1-9])(?:[:.][0-5]\d)?\s?(?:am|pm|a\.m\.|p\.m\.)(?!\p{L})|(?:[01]?\d|2[0-4]):[0-5]\d(?![\p{N}:])|(?:[01]?\d|2[0-4])(?:[.:][0-5]\d)?\s?uhr(?!\p{L})|(?:[01]?\d|2[0-4])\s?h(?:\s?[0-5]\d)?\s?(?:à|-|–)\s?(?:[01]?\d|2[0-4])\s?h(?!\p{L}))/giu;
/** What every clock time of `CLOCK_RE` has, found without Unicode classes: the precise pattern runs only after it. */
const CLOCK_HINT_RE = /\d(?:[:.][0-5]\d)?\s?(?:[ap]\.?m|uhr|h)|\d:[0-5]\d/i;
/** A clock time does not continue a number or a word: "123:45" and "v1:30" hold none. */
const CLOCK_BOUNDARY_RE = /[\p{L}\p{N}.,:]/u;

function holdsOpeningHours(text: string): boolean {
  return CLOCK_HINT_RE.test(text) && startsAtBoundary(text, CLOCK_RE, CLOCK_BOUNDARY_RE);
}

/**
 * Whether a match of `pattern` (global, every alternative starting at a digit) starts where no
 * character of `before` precedes it. A pattern that starts with a look-behind is tried at every
 * character of the text, about ten times slower here; one that starts at a digit is tried at digits.
 */
function startsAtBoundary(text: string, pattern: RegExp, before: RegExp): boolean {
  // exec on the shared pattern, not matchAll, which copies the pattern on every call.
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    if (m.index === 0 || !before.test(text[m.index - 1] as string)) {
      pattern.lastIndex = 0;
      return true;
    }
  }
  return false;
}

/**
 * A postal address: a postcode before a town ("04229 Leipzig", "69002 Lyon"), a street and its
 * number ("Gießerstraße 18", "14 impasse des Tisserands", "221 Baker Street"), a British postcode
 * ("S1 2AB", "SW1A 1AA") or an American state and ZIP code ("NY 10001"). Not "10000 Euro" nor
 * "2 kg". Every pattern but the British and American postcodes starts at a digit (see
 * `startsAtBoundary`): indexing reads every record's text.
 */
const ADDRESS_FROM_DIGIT_RE = new RegExp(
  [
    // "04229 Leipzig", "69004 Lyon", "1010 Wien" (not "10000 Euro", nor a year: "in 2016 Lyon")
    '(?!(?:19|20)\\d\\d\\s)\\d{4,5}\\s+(?!(?:Euro|EUR|CHF|Stück|Pakete?|Artikel|Kunden|Nutzer|Punkte|Bestellungen)(?!\\p{L}))\\p{Lu}\\p{Ll}{2}',
    // "14 impasse des Tisserands", "3 bis, rue Neuve"
    '\\d{1,5}(?:\\s?(?:bis|ter))?,?\\s(?:rue|avenue|av\\.|boulevard|bd|place|chemin|allée|impasse|quai|route)\\s',
    // "221 Baker Street", "1600 Pennsylvania Avenue"
    '\\d{1,5}\\s(?:\\p{Lu}\\p{Ll}+\\s){1,3}(?:Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Drive|Dr|Boulevard|Blvd|Way|Place|Square)\\b',
    // "Gießerstraße 18", "Am Mühlweg 4a" (the street word is looked for behind the number)
    '\\d{1,4}(?<=(?:[Ss]tra(?:ß|ss)e|[Ss]tr\\.|[Ww]eg|[Gg]asse|[Pp]latz|[Aa]llee|[Dd]amm|[Uu]fer)\\s{1,2}\\d{1,4})\\p{Ll}?(?!\\p{N})',
  ].join('|'),
  'gu',
);
/** "S1 2AB", "SW1A 1AA"; "NY 10001". */
const UK_OR_US_POSTCODE_RE = /\b(?:[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}|[A-Z]{2}\s\d{5}(?:-\d{4})?)\b/;
const HAS_DIGIT_RE = /\d/;
const WORD_CHAR_RE = /[\p{L}\p{N}.,]/u;

function holdsPostalAddress(text: string): boolean {
  if (!HAS_DIGIT_RE.test(text)) return false;
  return startsAtBoundary(text, ADDRESS_FROM_DIGIT_RE, WORD_CHAR_RE) || UK_OR_US_POSTCODE_RE.test(text);
}

const NONE: readonly ContactKind[] = Object.freeze([]);

/** The kinds of contact `text` gives, in the order of `ContactKind`; a shared empty list when none (read it, never change it). */
export function contactKindsIn(text: string): readonly ContactKind[] {
  const phone = holdsPhoneNumber(text);
  const email = holdsEmailAddress(text);
  const hours = holdsOpeningHours(text);
  const address = holdsPostalAddress(text);
  if (!phone && !email && !hours && !address) return NONE;
  const found: ContactKind[] = [];
  if (phone) found.push('phone');
  if (email) found.push('email');
  if (hours) found.push('hours');
  if (address) found.push('address');
  return found;
}

/** Whether `type` (a kind of answer) is a kind of contact. */
export function isContactKind(type: string): type is ContactKind {
  return type === 'phone' || type === 'email' || type === 'hours' || type === 'address';
}

/** Whether `type` (a kind of answer a question asks for) asks for a kind of contact or any way to reach a person. */
export function isContactAsk(type: string): type is ContactAsk {
  return type === 'contact' || isContactKind(type);
}
