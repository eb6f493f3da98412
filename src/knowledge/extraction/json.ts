import { DomainError } from '../../errors.js';
import { isPlainObject, type Json } from './flatten.js';
import { type ScanResult, scanJson } from '../../json-scan.js';
import { lineColumn } from '../../text-position.js';

/** Deepest nesting of arrays/objects the extractor follows; the top-level container is depth 1. */
export const MAX_JSON_DEPTH = 32;

/**
 * The values to classify and where each came from. Positions are kept apart
 * from the values (rather than one object per item) because a 10 MB array
 * can hold five million items, and most of them never need a label.
 */
export interface JsonItems {
  values: Json[];
  /** File line of each value, for JSON Lines; absent for an array (positions are `item N`). */
  lines?: number[];
}

/** `item 3` or `line 12`: where value `k` of `items` came from. */
export function itemPlace(items: JsonItems, k: number): string {
  return items.lines ? `line ${items.lines[k]}` : `item ${k + 1}`;
}

function failure(text: string, result: Exclude<ScanResult, { ok: true }>, lineBase: number): DomainError {
  const { line, column } = lineColumn(text, result.pos);
  const where = { line: line + lineBase, column };
  if (result.kind === 'depth') {
    return new DomainError(
      'too_deeply_nested',
      `The JSON nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep (line ${where.line}, column ${where.column}).`,
      { ...where, maxDepth: MAX_JSON_DEPTH },
    );
  }
  return new DomainError('invalid_json', `Invalid JSON at line ${where.line}, column ${where.column}: ${result.message}.`, where);
}

/** Parses one JSON text after validating it; `lineBase` shifts reported lines for JSON Lines. */
function parseChecked(text: string, lineBase: number, scanned: ScanResult = scanJson(text, MAX_JSON_DEPTH)): Json {
  if (!scanned.ok) throw failure(text, scanned, lineBase);
  try {
    return JSON.parse(text) as Json;
  } catch {
    // Unreachable when the scanner and JSON.parse agree; kept so that a
    // disagreement still surfaces as the documented error, not a SyntaxError.
    throw new DomainError('invalid_json', `Invalid JSON at line ${lineBase + 1}, column 1.`, { line: lineBase + 1, column: 1 });
  }
}

/** JSON Lines: every non-blank line is one JSON value; the first bad line is the error. */
function jsonLinesItems(lines: readonly string[]): JsonItems {
  const values: Json[] = [];
  const numbers: number[] = [];
  lines.forEach((line, k) => {
    if (line.trim() === '') return;
    values.push(parseChecked(line, k));
    numbers.push(k + 1);
  });
  return { values, lines: numbers };
}

function describeScalar(value: Json): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return 'a single string';
  return `a single ${typeof value}`;
}

/**
 * The items of an object at the top level: the first property holding an
 * array with objects in it; else the only property, if it holds an array or
 * wraps another object (`{"data": {"faqs": [...]}}`); else the object itself
 * as the one item.
 */
function itemsOfObject(obj: { [key: string]: Json }): Json[] {
  const entries = Object.entries(obj);
  for (const [, v] of entries) {
    if (Array.isArray(v) && v.some(isPlainObject)) return v;
  }
  if (entries.length === 1) {
    const only = (entries[0] as [string, Json])[1];
    if (Array.isArray(only)) return only;
    // Depth is bounded by the scanner, so this recursion is too.
    if (isPlainObject(only) && Object.keys(only).length > 0) return itemsOfObject(only);
  }
  return [obj];
}

function itemsOfDocument(value: Json): JsonItems {
  let list: Json[];
  if (Array.isArray(value)) list = value;
  else if (isPlainObject(value)) list = itemsOfObject(value);
  else {
    throw new DomainError('no_extractable_text', `The JSON document is ${describeScalar(value)}, not an array of items or an object; nothing to extract.`);
  }
  if (list.length === 0) throw new DomainError('no_extractable_text', 'The JSON holds an empty array of items; nothing to extract.');
  return { values: list };
}

/** The items of a `.json` upload: a document, or JSON Lines when it is one value per line. */
export function jsonItems(text: string): JsonItems {
  const whole = scanJson(text, MAX_JSON_DEPTH);
  if (whole.ok) return itemsOfDocument(parseChecked(text, 0, whole));
  if (whole.kind === 'depth') throw failure(text, whole, 0);
  // JSON Lines saved as .json: several lines, the first of which is a
  // complete JSON value by itself. A pretty-printed document never starts so.
  const lines = text.split('\n');
  const nonBlank = lines.filter((l) => l.trim() !== '');
  if (nonBlank.length >= 2 && scanJson(nonBlank[0] as string, MAX_JSON_DEPTH).ok) return jsonLinesItems(lines);
  throw failure(text, whole, 0);
}

/** The items of a `.jsonl` / `.ndjson` upload. */
export function jsonlItems(text: string): JsonItems {
  return jsonLinesItems(text.split('\n'));
}
