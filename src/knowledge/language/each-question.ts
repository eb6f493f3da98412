/**
 * Questions that ask the same thing of every product of a kind: "How much do both grinders
 * weigh?", "What's the capacity of each of your milk jugs?", "Wie dicke Äste schaffen eure beiden
 * Astscheren jeweils?", "Quelle est la contenance de chacune de vos bouilloires ?". The quantifier
 * names the asking, not a word the records contain: the answerer gives the field asked for of each
 * product whose name or category holds the words naming the kind (`eachOfKind`,
 * answering/product-kinds.ts), instead of the one product that matched best.
 *
 * Only quantifiers that range over the things named: "each", "both", "every", and "all" before
 * "your", "the", "these" or "those" ("all your kettles", not "all day" or "is that all?"); German
 * "beide", "jeweils", and "alle" before an article or "eure"/"Ihre"; French "chacun(e)", "chaque",
 * "les deux", and "tous"/"toutes" before "vos" or "ces" ("tous les jours" is every day). "each" and
 * "every" not before a span of time ("every day", "each week"). A quantifier that still ranges over
 * something else does no harm: the answerer reads it so only when the question names a kind of
 * product of which two or more hold what it asks.
 */

const PHRASES: Readonly<Record<string, RegExp>> = {
  en: /(?<![\p{L}\p{N}])(?:(?:each|every)(?! (?:day|week|month|year|time|morning|evening|night|weekend)s?(?![\p{L}\p{N}]))|both|all(?= (?:of )?(?:your|the|these|those)(?![\p{L}\p{N}])))(?![\p{L}\p{N}])/gu,
  de: /(?<![\p{L}\p{N}])(?:beide[nrs]?|jeweils|alle[n]?(?= (?:eure[nr]?|ihre[nr]?|die|den|der|diese[nr]?)(?![\p{L}\p{N}])))(?![\p{L}\p{N}])/gu,
  fr: /(?<![\p{L}\p{N}])(?:chacune?|chaque|les deux|(?:tous|toutes)(?= (?:vos|ces)(?![\p{L}\p{N}])))(?![\p{L}\p{N}])/gu,
};

const WORD_RE = /[\p{L}\p{N}]+/gu;

/** The words (lower case) by which `question` (any case) asks something of each of several things, or undefined when it does not. */
export function askedOfEach(question: string, language: string): ReadonlySet<string> | undefined {
  const phrase = PHRASES[language];
  if (!phrase) return undefined;
  const found = question.toLowerCase().match(phrase);
  if (!found) return undefined;
  return new Set(found.flatMap((p) => p.match(WORD_RE) ?? []));
}
