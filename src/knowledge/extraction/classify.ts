import {
  type Budget,
  FlattenOverflow,
  flattenValue,
  hasText,
  isIgnoredKey,
  isPlainObject,
  type Json,
  labelFor,
  normaliseKey,
  scalarText,
  valueText,
} from './flatten.js';
import type { RecordKind } from './types.js';

/** A record before splitting to the size limit. */
export interface Draft {
  kind: RecordKind;
  title?: string;
  text: string;
}

// All names are in normalised form (lower case, no `_`, `-` or spaces).
export const QUESTION_KEYS = new Set(['question', 'q', 'query', 'prompt', 'questiontext', 'faqquestion', 'userquestion']);
export const ANSWER_KEYS = new Set(['answer', 'a', 'response', 'reply', 'solution', 'answertext', 'faqanswer', 'ans']);
/** Only count as the question when an answer-like key is present too. */
export const QA_TITLE_KEYS = new Set(['title', 'subject', 'heading', 'topic']);
export const NAME_KEYS = new Set(['name', 'product', 'productname', 'producttitle', 'itemname', 'title']);
export const PRODUCT_KEYS = new Set([
  'price',
  'cost',
  'msrp',
  'saleprice',
  'listprice',
  'unitprice',
  'currency',
  'description',
  'desc',
  'productdescription',
  'shortdescription',
  'longdescription',
  'sku',
  'mpn',
  'gtin',
  'ean',
  'upc',
  'brand',
  'manufacturer',
  'model',
  'features',
  'feature',
  'specs',
  'specifications',
  'variants',
  'options',
  'stock',
  'instock',
  'availability',
  'inventory',
  'weight',
  'dimensions',
  'warranty',
]);
/** A passage borrows its title from the first of these holding text. */
const PASSAGE_TITLE_KEYS = new Set(['title', 'name', 'heading', 'subject', 'topic']);

type Entry = [key: string, value: Json];

/** First entry whose key is in `keys` and whose value is a string with text. */
function findString(entries: readonly Entry[], keys: ReadonlySet<string>): Entry | undefined {
  return entries.find(([k, v]) => keys.has(normaliseKey(k)) && typeof v === 'string' && scalarText(v) !== undefined);
}

function findWithText(entries: readonly Entry[], keys: ReadonlySet<string>): Entry | undefined {
  return entries.find(([k, v]) => keys.has(normaliseKey(k)) && hasText(v));
}

/** `Key: value` lines for every field except the ones already used. */
function otherLines(entries: readonly Entry[], used: ReadonlySet<string>, budget: Budget): string[] {
  const out: string[] = [];
  for (const [k, v] of entries) {
    if (used.has(k) || isIgnoredKey(k)) continue;
    flattenValue(v, [labelFor(k)], out, budget);
  }
  return out;
}

function asQa(entries: readonly Entry[], budget: Budget): Draft | undefined {
  const answer = findWithText(entries, ANSWER_KEYS);
  if (!answer) return undefined;
  const question = findString(entries, QUESTION_KEYS) ?? findString(entries, QA_TITLE_KEYS);
  if (!question) return undefined;
  const q = scalarText(question[1]) as string;
  const answerText = valueText(answer[1], budget);
  const rest = otherLines(entries, new Set([question[0], answer[0]]), budget);
  const text = [q, answerText, ...rest].join('\n');
  return { kind: 'qa', title: q, text };
}

function asProduct(entries: readonly Entry[], budget: Budget): Draft | undefined {
  const name = findString(entries, NAME_KEYS);
  if (!name) return undefined;
  const hasDetail = entries.some(([k, v]) => k !== name[0] && PRODUCT_KEYS.has(normaliseKey(k)) && hasText(v));
  if (!hasDetail) return undefined;
  const n = scalarText(name[1]) as string;
  const text = [`Name: ${n}`, ...otherLines(entries, new Set([name[0]]), budget)].join('\n');
  return { kind: 'product', title: n, text };
}

/**
 * Turns one JSON object into a draft record, or explains why it cannot be
 * one. Q&A wins over product, product over passage, so an FAQ entry that
 * also has a `title` is still a Q&A.
 */
export function classifyObject(obj: { [key: string]: Json }, budget: Budget): Draft | { reason: string } {
  const entries = Object.entries(obj);
  if (entries.length === 0) return { reason: 'empty object' };
  const draft = asQa(entries, budget) ?? asProduct(entries, budget);
  if (draft) return draft;
  const lines = otherLines(entries, new Set(), budget);
  if (lines.length === 0) {
    return { reason: 'the object has no text: every value is empty, null or an ignored field such as id or createdAt' };
  }
  const titled = findString(entries, PASSAGE_TITLE_KEYS);
  const passage: Draft = { kind: 'passage', text: lines.join('\n') };
  if (titled) passage.title = scalarText(titled[1]) as string;
  return passage;
}

// Shared, so that millions of rejected items do not mean millions of reason objects.
const OVER_BUDGET = { reason: 'the file expands to too much text when its nested fields are flattened; later items are skipped too' };
const EMPTY_STRING = { reason: 'empty string' };
const NOT_A_RECORD = {
  array: { reason: 'an array is not a record; items must be objects or strings' },
  null: { reason: 'null is not a record; items must be objects or strings' },
  number: { reason: 'a number is not a record; items must be objects or strings' },
  boolean: { reason: 'a boolean is not a record; items must be objects or strings' },
};

/** Any JSON item (array element or JSON Lines value) to a draft or a rejection reason. */
export function classifyItem(item: Json, budget: Budget): Draft | { reason: string } {
  if (isPlainObject(item)) {
    try {
      return classifyObject(item, budget);
    } catch (err) {
      if (!(err instanceof FlattenOverflow)) throw err;
      return OVER_BUDGET;
    }
  }
  if (typeof item === 'string') {
    const t = scalarText(item);
    return t === undefined ? EMPTY_STRING : { kind: 'passage', text: t };
  }
  if (Array.isArray(item)) return NOT_A_RECORD.array;
  if (item === null) return NOT_A_RECORD.null;
  return typeof item === 'number' ? NOT_A_RECORD.number : NOT_A_RECORD.boolean;
}
