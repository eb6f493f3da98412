import { cleanText } from './decode.js';
import { truncate } from './split.js';

/** Keys compare case-insensitively and ignoring `_`, `-` and spaces: `Product_Name` = `productName`. */
export function normaliseKey(key: string): string {
  return key.toLowerCase().replace(/[\s_-]+/g, '');
}

/**
 * Bookkeeping fields that say nothing a reader would search for, and that
 * would make two otherwise identical records look different to dedupe.
 */
const IGNORED_KEYS = new Set(['id', 'uuid', 'guid', 'oid', 'createdat', 'updatedat', 'deletedat', 'modifiedat']);

export function isIgnoredKey(key: string): boolean {
  return IGNORED_KEYS.has(normaliseKey(key));
}

const ACRONYMS = new Set(['sku', 'url', 'uri', 'faq', 'api', 'id', 'ean', 'upc', 'isbn', 'gtin', 'mpn', 'usb', 'vat']);

/** Keys are labels; a longer one is cut, since it is repeated on every line below it. */
export const MAX_LABEL_CHARS = 60;

/** `unit_price` → `Unit price`, `productName` → `Product name`, `SKU` → `SKU`. */
export function labelFor(key: string): string {
  const words = cleanText(key.length > MAX_LABEL_CHARS * 4 ? key.slice(0, MAX_LABEL_CHARS * 4) : key)
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/[_\-\s]+/g, ' ')
    .trim()
    .split(' ')
    .filter((w) => w !== '');
  if (words.length === 0) return 'Value';
  const label = words
    .map((w, i) => {
      if (ACRONYMS.has(w.toLowerCase())) return w.toUpperCase();
      // Keep words that are already all capitals (e.g. "HDMI") as they are.
      if (w.length > 1 && w === w.toUpperCase()) return w;
      const lower = w.toLowerCase();
      return i === 0 ? lower.charAt(0).toUpperCase() + lower.slice(1) : lower;
    })
    .join(' ');
  return truncate(label, MAX_LABEL_CHARS);
}

/** A JSON string value as record text: line breaks and control characters cleaned, ends trimmed. */
export function cleanInlineValue(value: string): string {
  return cleanText(value).trim();
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function isPlainObject(value: unknown): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Text of a scalar, or undefined when it carries nothing (null, empty string, non-finite number). */
export function scalarText(value: Json): string | undefined {
  if (typeof value === 'string') {
    const t = cleanInlineValue(value);
    return t === '' ? undefined : t;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return undefined;
}

/**
 * Characters flattening may still produce. Paths repeat on every line, so a
 * hostile file (long keys nested deep above thousands of tiny values) could
 * otherwise turn 10 MB into gigabytes of text.
 */
export interface Budget {
  remaining: number;
}

/** Thrown when a Budget runs out; classify turns it into a rejection. */
export class FlattenOverflow extends Error {}

/** True when the value holds any text at all; cheaper than flattening it. */
export function hasText(value: Json): boolean {
  if (value === null) return false;
  if (Array.isArray(value)) return value.some(hasText);
  if (typeof value === 'object') return Object.entries(value).some(([k, v]) => !isIgnoredKey(k) && hasText(v));
  return scalarText(value) !== undefined;
}

const SEP = ' › ';

function line(path: readonly string[], text: string): string {
  return path.length === 0 ? text : `${path.join(SEP)}: ${text}`;
}

/**
 * Appends readable `Path › Key: value` lines for a JSON value. Arrays of
 * scalars become one comma-separated line; each object in an array is
 * flattened in turn, numbered when there are several so their fields stay
 * grouped (`Variants 2 › Colour: red`). Depth is bounded by the JSON scanner.
 */
export function flattenValue(value: Json, path: readonly string[], out: string[], budget: Budget): void {
  if (value === null) return;
  if (Array.isArray(value)) {
    const scalars: string[] = [];
    const nested: Json[] = [];
    for (const item of value) {
      if (item !== null && typeof item === 'object') nested.push(item);
      else {
        const t = scalarText(item);
        if (t !== undefined) scalars.push(t);
      }
    }
    if (scalars.length > 0) emit(out, line(path, scalars.join(', ')), budget);
    nested.forEach((item, k) => {
      let itemPath = path;
      if (nested.length > 1) {
        const last = path.length > 0 ? `${path[path.length - 1]} ${k + 1}` : `${k + 1}`;
        itemPath = [...path.slice(0, -1), last];
      }
      flattenValue(item, itemPath, out, budget);
    });
    return;
  }
  if (typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (isIgnoredKey(key)) continue;
      flattenValue(v, [...path, labelFor(key)], out, budget);
    }
    return;
  }
  const t = scalarText(value);
  if (t !== undefined) emit(out, line(path, t), budget);
}

function emit(out: string[], text: string, budget: Budget): void {
  budget.remaining -= text.length + 1;
  if (budget.remaining < 0) throw new FlattenOverflow('flattened text over budget');
  out.push(text);
}

/** Flattened text of one value with no label prefix at the top (used for answers and descriptions). */
export function valueText(value: Json, budget: Budget): string {
  const out: string[] = [];
  flattenValue(value, [], out, budget);
  return out.join('\n');
}
