/**
 * The lines of a product record as extraction writes them ("Price: £38", "SKU: ACC-TMP-58",
 * "Specs › Weight: 450 g"), and what a product reply makes of them: the price goes next to the
 * name, identifiers and the category are never quoted, every other field may be.
 */
import { priceValue, volumeValue, weightValue } from '../language/product-order.js';
import type { RetrievedRecord } from './types.js';

const LABEL_LINE_RE = /^([^:\n]{1,60}):\s+(.+)$/s;
export const PRICE_LABELS: ReadonlySet<string> = new Set(['price', 'cost', 'msrp', 'sale price', 'list price', 'unit price', 'preis', 'prix', 'precio', 'prezzo', 'prijs', 'preco']);
export const HIDDEN_LABELS: ReadonlySet<string> = new Set(['name', 'sku', 'mpn', 'gtin', 'ean', 'upc', 'id', 'category', 'categories']);

export interface LabelledLine {
  label: string;
  value: string;
}

/** "Specs › Dishwasher safe: top rack only" → { label: "dishwasher safe", value: "top rack only" }. */
export function labelled(text: string): LabelledLine | undefined {
  const m = LABEL_LINE_RE.exec(text);
  if (!m) return undefined;
  const path = (m[1] as string).split('›');
  return { label: (path[path.length - 1] as string).trim().toLowerCase(), value: (m[2] as string).trim() };
}

/** Whether a product's field is one its reply never quotes as a field: the name, an identifier, the category or the price (the price goes next to the name). */
export function isUnquotedLabel(label: string): boolean {
  return HIDDEN_LABELS.has(label) || PRICE_LABELS.has(label);
}

/** Whether a product's line is one of those fields (`isUnquotedLabel`). */
export function isUnquotedLine(text: string): boolean {
  const l = labelled(text);
  return l !== undefined && isUnquotedLabel(l.label);
}

/** The value of a product's price line ("£38"), if it has one. */
export function priceLine(record: RetrievedRecord): string | undefined {
  for (const line of record.text.split('\n')) {
    const l = labelled(line.trim());
    if (l && PRICE_LABELS.has(l.label)) return l.value;
  }
  return undefined;
}

/** A product's price as a number (38 for "£38"), if its price line has one. */
export function priceOf(record: RetrievedRecord): number | undefined {
  const line = priceLine(record);
  return line === undefined ? undefined : priceValue(line);
}

/** Labels of a product's weight field ("Weight: 1.35 kg", "Net weight", "Gewicht", "Poids"). */
const WEIGHT_LABEL_RE = /(?:^|\s)(?:weight|gewicht|poids)$/u;

/** A product's weight in grams, from its weight field, if it has one with a unit of mass. */
export function weightOf(record: RetrievedRecord): number | undefined {
  for (const line of record.text.split('\n')) {
    const l = labelled(line.trim());
    if (l && WEIGHT_LABEL_RE.test(l.label)) return weightValue(l.value);
  }
  return undefined;
}

/** Labels of what a product holds ("Capacity: 0.6 L", "Hopper capacity", "Füllvolumen", "Fassungsvermögen", "Contenance"). */
const CAPACITY_LABEL_RE = /(?:capacity|volume|volumen|fassungsvermögen|inhalt|contenance|capacité)$/u;

/** What a product holds in millilitres, from its capacity or volume field, if it has one with a unit of volume. */
export function capacityOf(record: RetrievedRecord): number | undefined {
  for (const line of record.text.split('\n')) {
    const l = labelled(line.trim());
    if (l && CAPACITY_LABEL_RE.test(l.label)) return volumeValue(l.value);
  }
  return undefined;
}

/** Spec lines worth listing when the question's field was not found: not the name, SKU, category, price or description. */
export function specLines(record: RetrievedRecord): LabelledLine[] {
  const out: LabelledLine[] = [];
  for (const line of record.text.split('\n')) {
    const l = labelled(line.trim());
    if (l && !HIDDEN_LABELS.has(l.label) && !PRICE_LABELS.has(l.label) && l.label !== 'description') out.push(l);
  }
  return out;
}
