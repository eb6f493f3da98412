/**
 * "Which tamper fits the Lintel Compact?": a question that names a product and asks for a product
 * of another kind to go with it. The named product's record says nothing of tampers, so the
 * answerer used to set it aside as "asked for what it lacks" and refuse; the tampers' records say
 * nothing of the Lintel Compact. What links them is a size both records give: the machine's
 * "Portafilter: 51 mm" and the tamper's "Fits: 51 mm baskets". The answer is the named product's
 * line with the size and each product of the kind asked for that gives the same size, each with
 * the line that gives it, so the reply shows why it fits.
 *
 * Only for a question that asks which one of the kind (`asksWhich`). Sizes are lengths and
 * voltages ("51 mm", "1/2 Zoll", "18 V"): what decides whether a part fits or a battery goes in.
 * Not weights, capacities or prices, which two products share by chance.
 */
import type { QueryWord } from '../retrieval/query-expansion.js';
import { analyzeWords } from '../retrieval/tokenize.js';
import { labelled } from './product-lines.js';
import type { KindNaming } from './product-kinds.js';
import type { ScoredUnit } from './unit-scores.js';
import type { RetrievedRecord } from './types.js';

/** A length or a voltage: a number (decimal point or comma) and its unit, or an inch size ("1/2 Zoll", '1/2"'). */
const SIZE_RE = /(?<![\p{L}\p{N}.,/])(\d+(?:[.,]\d+)?|\d+\/\d+)\s?(mm|cm|v|zoll|inch(?:es)?|″|")(?![\p{L}\p{N}])/giu;

const INCH_UNITS: ReadonlySet<string> = new Set(['zoll', 'inch', 'inches', '″', '"']);

/** The sizes `text` gives, normalised ("51 mm", "58.5 mm", "1/2 in", "18 v"). */
export function sizesIn(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(SIZE_RE)) {
    const unit = (m[2] as string).toLowerCase();
    out.add(`${(m[1] as string).replace(',', '.')} ${INCH_UNITS.has(unit) ? 'in' : unit}`);
  }
  return out;
}

/** Words that ask which one of a kind ("which tamper", "welchen Akku", "quel panier"), as the analysis writes them. */
const WHICH: Readonly<Record<string, ReadonlySet<string>>> = {
  en: new Set(['which', 'what']),
  de: new Set(['welche', 'welcher', 'welches', 'welchen', 'welchem', 'fuer']),
  fr: new Set(['quel', 'quelle', 'quels', 'quelles', 'lequel', 'laquelle', 'lesquels', 'lesquelles']),
};

/** Words between "which" and the kind it asks about at most ("which size of tamper"). */
const WHICH_REACH = 3;

/**
 * Whether the question asks which product of the kind ("Which tamper fits …?", "What size tamper
 * …", "Was für einen Akku …", "Quel panier …"): a question that asks whether the named product
 * comes with one ("Does the Lintel One come with a tamper?") is not answered with one that fits.
 */
function asksWhich(query: string, language: string, kind: readonly QueryWord[]): boolean {
  const which = WHICH[language];
  if (which === undefined) return false;
  const { surfaces } = analyzeWords(query, language, 'query');
  const kindSurfaces = new Set(kind.map((w) => w.surface));
  for (let i = 0; i < surfaces.length; i++) {
    if (!which.has(surfaces[i] as string)) continue;
    for (let j = i + 1; j <= i + WHICH_REACH && j < surfaces.length; j++) if (kindSurfaces.has(surfaces[j] as string)) return true;
  }
  return false;
}

/**
 * For a seed product the question names but asks something of that its record lacks: the products
 * of the kind asked for (every asked word that names products met in their name or category) that
 * give a size the seed gives, each with its unit that gives it, after the seed's unit that gives it.
 * Undefined when the question names no kind of product, or none of the kind gives a size of the seed.
 */
export function fittingProducts(query: string, language: string, seed: ScoredUnit, scored: readonly ScoredUnit[], records: readonly RetrievedRecord[], words: readonly QueryWord[], weights: readonly number[], names: KindNaming): ScoredUnit[] | undefined {
  const seedRecord = records[seed.record];
  if (seedRecord?.kind !== 'product') return undefined;
  const seedSizes = sizesIn(seedRecord.text);
  if (seedSizes.size === 0) return undefined;
  // The kind asked for: the words that weigh, do not name the seed, and name some other product.
  const kind = words.filter((w, i) => (weights[i] as number) > 0 && !names(seed, w) && scored.some((u) => u.record !== seed.record && records[u.record]?.kind === 'product' && names(u, w)));
  if (kind.length === 0 || !asksWhich(query, language, kind)) return undefined;
  const fitting = new Map<number, ScoredUnit>();
  let shared: string | undefined;
  for (const u of scored) {
    const record = records[u.record] as RetrievedRecord;
    if (u.record === seed.record || record.kind !== 'product' || fitting.has(u.record) || !kind.every((w) => names(u, w))) continue;
    const size = [...sizesIn(record.text)].find((s) => seedSizes.has(s));
    if (size === undefined) continue;
    shared ??= size;
    fitting.set(u.record, unitGiving(scored, u.record, size) ?? u);
  }
  if (fitting.size === 0 || shared === undefined) return undefined;
  const seedUnit = unitGiving(scored, seed.record, shared) ?? seed;
  return [seedUnit, ...[...fitting.values()].sort((a, b) => a.record - b.record)];
}

/**
 * Whether `seed` is a product of a third kind for a question that asks which product of a kind
 * ("Which tamper fits the Lintel One?"): its name and category hold none of the question's words,
 * while some other retrieved product's name holds the kind asked for. The bottomless portafilter
 * ("Fits the Lintel One and Lintel Duo") covered "fits" and "Lintel One" better than any tamper or
 * the machine and was the answer; it is set aside, so the machine and the tampers are weighed.
 * `kindNames` gives the answer's kind naming, made on first need: most seeds are no product.
 */
export function isThirdKind(query: string, language: string, seed: ScoredUnit, scored: readonly ScoredUnit[], records: readonly RetrievedRecord[], words: readonly QueryWord[], weights: readonly number[], kindNames: () => KindNaming): boolean {
  if (records[seed.record]?.kind !== 'product') return false;
  const names = kindNames();
  if (words.some((w, i) => (weights[i] as number) > 0 && names(seed, w))) return false;
  const kind = words.filter((w, i) => (weights[i] as number) > 0 && scored.some((u) => u.record !== seed.record && records[u.record]?.kind === 'product' && names(u, w)));
  return kind.length > 0 && asksWhich(query, language, kind);
}

/** The record's most relevant unit that gives `size`, a field before its name line (which the reply shows anyway). */
function unitGiving(scored: readonly ScoredUnit[], record: number, size: string): ScoredUnit | undefined {
  let best: ScoredUnit | undefined;
  let bestIsName = true;
  for (const u of scored) {
    if (u.record !== record || !sizesIn(u.unit.text).has(size)) continue;
    const isName = labelled(u.unit.text)?.label === 'name';
    if (best === undefined || (bestIsName && !isName) || (isName === bestIsName && u.relevance > best.relevance)) {
      best = u;
      bestIsName = isName;
    }
  }
  return best;
}
