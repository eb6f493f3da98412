/**
 * Questions about what a shop sells ("Do you sell espresso machines?", "What scales do you have?",
 * "Habt ihr Lenker?", "Vendez-vous des théières ?"): they ask for the products of a kind, not for
 * a fact of one product. "sell", "have" or "stock" name the asking, not a word the answer must
 * contain: the answerer lists the products whose names say what was asked for, and refuses when
 * none does (answering/product-selection.ts). Only the whole question, in the languages with analysers; "Do you
 * have the milk jug in a bigger size?" names one product ("the"), and is no question about the range.
 */

export interface AskedRange {
  /** Words of the question that ask (lower case), as opposed to the words naming the kind of product. */
  words: ReadonlySet<string>;
  /** The words naming the kind itself (lower case), before any qualifier ("descaling solution" of "… for the espresso machines"). */
  head: ReadonlySet<string>;
  /** The kind has a qualifier ("filters for the glass dripper"): no list by name can honour it. */
  qualified: boolean;
}

/** Each pattern captures the kind of product asked for as its `kind` group. */
const PATTERNS: Readonly<Record<string, readonly RegExp[]>> = {
  en: [
    /^(?:(?:hi|hello|hey)(?: there)?\s*[,!.]?\s*)?(?:do|does) (?:you|u|ya|you guys|your (?:shop|store)) (?:also |even |still |currently )?(?:sell|stock|carry|offer|have)(?: any)?\s+(?!the\b|your\b|my\b|this\b|that\b|these\b|those\b|it\b|them\b|one\b|anything\b|something\b)(?<kind>[\p{L}\p{N}][\p{L}\p{N}\s'’-]*?)\s*[?.!]*$/u,
    /^(?:what|which) (?:kinds? of |types? of |sorts? of )?(?<kind>[\p{L}\p{N}][\p{L}\p{N}\s'’-]*?) do (?:you|u) (?:sell|stock|carry|offer|have)(?: on offer| in stock| available)?\s*[?.!]*$/u,
    /^(?:have you got|got) (?:any )?(?!the\b|your\b|my\b|it\b|one\b)(?<kind>[\p{L}\p{N}][\p{L}\p{N}\s'’-]*?)\s*[?.!]*$/u,
  ],
  de: [
    /^(?:verkauft|habt|führt) ihr (?:auch |denn |eigentlich |noch )*(?:(?:eine?n?|welche|irgendwelche)\s+)?(?!den\b|die\b|das\b|dem\b|es\b)(?<kind>\p{L}[\p{L}\p{N}\s-]*?)\s*[?.!]*$/u,
    /^(?:verkaufen|haben|führen) sie (?:auch |denn |eigentlich |noch )*(?:(?:eine?n?|welche|irgendwelche)\s+)?(?!den\b|die\b|das\b|dem\b|es\b)(?<kind>\p{L}[\p{L}\p{N}\s-]*?)\s*[?.!]*$/u,
    /^welche (?<kind>\p{L}[\p{L}\p{N}\s-]*?) (?:habt|verkauft|führt) ihr\b[^?]*[?.!]*$/u,
  ],
  fr: [
    /^(?:est-ce que |est ce que )?vous (?:vendez|avez|proposez) (?:aussi |également )?(?:des|du|de la|de l['’]|d['’]|un|une)\s*(?<kind>\p{L}[\p{L}\p{N}\s'’-]*?)\s*[?.!]*$/u,
    /^(?:vendez|avez|proposez)-vous (?:aussi |également )?(?:des|du|de la|de l['’]|d['’]|un|une)\s*(?<kind>\p{L}[\p{L}\p{N}\s'’-]*?)\s*[?.!]*$/u,
    /^quel(?:le)?s? (?<kind>\p{L}[\p{L}\p{N}\s'’-]*?) (?:vendez|avez|proposez)-vous\s*[?.!]*$/u,
  ],
};

/** Words of up to this many: a longer "kind" is a question of its own. */
const MAX_KIND_WORDS = 8;
const MAX_HEAD_WORDS = 4;

/** Where a qualifier starts: "solution **for** the machines", "Schläuche **für** 28 Zoll", "thé **pour** enfants". */
const QUALIFIER_RE: Readonly<Record<string, RegExp>> = {
  en: /\s(?:for|with|that|which|to|from|in|on|compatible)\s/u,
  de: /\s(?:für|mit|ohne|die|der|das|zum|zur|aus|von|in)\s/u,
  fr: /\s(?:pour|avec|sans|qui|compatibles?|en|de|du|des|à)\s/u,
};

const WORD_RE = /[\p{L}\p{N}]+/gu;

/** Sentence ends: after ".", "!" or "?" and a space. */
const SENTENCE_END_RE = /(?<=[.!?？])\s+(?=\S)/u;

/**
 * Whether `question` (any case) asks what products of a kind the shop has, and which words ask: the
 * whole question, or its one asking sentence among statements that give its context ("Do you sell
 * bivvy bags? I want to try sleeping out this summer.", "Going to Wales. Have you got gaiters?").
 */
export function askedRange(question: string, language: string): AskedRange | undefined {
  const whole = rangeOf(question, language);
  if (whole !== undefined) return whole;
  const sentences = question.trim().split(SENTENCE_END_RE);
  if (sentences.length < 2) return undefined;
  const asking = sentences.filter((s) => /[?？]\s*$/u.test(s));
  return asking.length === 1 ? rangeOf(asking[0] as string, language) : undefined;
}

function rangeOf(question: string, language: string): AskedRange | undefined {
  const patterns = PATTERNS[language];
  if (!patterns) return undefined;
  const lower = question.trim().toLowerCase();
  for (const pattern of patterns) {
    const kind = pattern.exec(lower)?.groups?.kind;
    if (kind === undefined) continue;
    const kindWords = new Set(kind.match(WORD_RE) ?? []);
    if (kindWords.size === 0 || kindWords.size > MAX_KIND_WORDS) return undefined;
    const cut = QUALIFIER_RE[language]?.exec(` ${kind} `);
    const head = new Set((cut ? ` ${kind} `.slice(0, cut.index) : kind).match(WORD_RE) ?? []);
    if (head.size === 0 || head.size > MAX_HEAD_WORDS) return undefined;
    return { words: new Set((lower.match(WORD_RE) ?? []).filter((w) => !kindWords.has(w))), head, qualified: cut !== null && cut !== undefined };
  }
  return undefined;
}
