import { DomainError } from '../../errors.js';
import { classifyItem, type Draft } from './classify.js';
import { extractCsv } from './csv.js';
import { decodeText } from './decode.js';
import type { Json } from './flatten.js';
import { itemPlace, jsonItems, jsonlItems } from './json.js';
import { extractHtml } from './html.js';
import { extractMarkdown } from './markdown.js';
import { extractPdf, type PdfPages } from './pdf.js';
import { effectiveMax, splitText, truncate } from './split.js';
import { extractText } from './text.js';
import {
  defaultExtractionOptions,
  type ExtractedRecord,
  type Extraction,
  type ExtractionOptions,
  maxListedRejections,
  type Rejection,
  type SourceFormat,
} from './types.js';

export { decodeText } from './decode.js';
export { detectFormat } from './format.js';
export type { PdfPages } from './pdf.js';
export type { ExtractedRecord, Extraction, ExtractionOptions, RecordKind, Rejection, SourceFormat } from './types.js';
export { defaultExtractionOptions } from './types.js';

/** Titles are labels, not content: one line, and short enough to show in a list. */
export const MAX_TITLE_CHARS = 300;

function cleanTitle(title: string): string {
  // Only the start can be shown; collapsing all of a 10 MB heading would be wasted work.
  return truncate(
    truncate(title, MAX_TITLE_CHARS * 4)
      .replace(/\s+/g, ' ')
      .trim(),
    MAX_TITLE_CHARS,
  );
}

/** Flattened JSON may be this many times the file's length (plus a floor) before items are refused. */
export const FLATTEN_BUDGET_FACTOR = 8;

/** Rejected items as they are found: the first `maxListedRejections` listed, all counted. */
export interface RejectionLog {
  listed: Rejection[];
  count: number;
}

function* jsonDrafts(text: string, format: 'json' | 'jsonl', rejections: RejectionLog): Generator<Draft, void, undefined> {
  const budget = { remaining: FLATTEN_BUDGET_FACTOR * text.length + 1_000_000 };
  const items = format === 'json' ? jsonItems(text) : jsonlItems(text);
  const { values } = items;
  for (let k = 0; k < values.length; k++) {
    const result = classifyItem(values[k] as Json, budget);
    if ('reason' in result) {
      rejections.count++;
      if (rejections.listed.length < maxListedRejections) rejections.listed.push({ at: itemPlace(items, k), reason: result.reason });
    } else yield result;
  }
}

function nothingToExtract(format: SourceFormat, rejected: readonly Rejection[], rejectedCount: number): DomainError {
  if (rejectedCount > 0) {
    const sample = rejected
      .slice(0, 3)
      .map((r) => `${r.at}: ${r.reason}`)
      .join('; ');
    const more = rejectedCount > 3 ? `; and ${rejectedCount - 3} more` : '';
    return new DomainError('no_extractable_text', `None of the ${rejectedCount} items could become a record (${sample}${more}).`);
  }
  const what =
    format === 'md'
      ? 'once Markdown markup, images and HTML are removed'
      : format === 'html'
        ? 'once scripts, styles, navigation, headers, footers and markup are removed'
        : 'that can become a record';
  return new DomainError('no_extractable_text', `The file holds no text ${what}.`);
}

/**
 * Turns an upload's bytes into records, one at a time: a caller that has seen
 * enough (a quota that cannot fit, a per-upload cap) stops reading and the
 * rest of the file is never extracted. Rejected items go into `rejections` as
 * they are met. Pure: no I/O. Throws only DomainError with code invalid_utf8,
 * invalid_json, too_deeply_nested (JSON: before the first record; HTML: where
 * the file nests too deep) or no_extractable_text (at the end, when no record
 * came out).
 */
export function* extractRecords(
  bytes: Uint8Array,
  format: SourceFormat,
  options: ExtractionOptions | undefined,
  rejections: RejectionLog,
  pdfPages?: PdfPages,
): Generator<ExtractedRecord, void, undefined> {
  const max = effectiveMax(options?.maxRecordChars ?? defaultExtractionOptions.maxRecordChars);
  const reject = (at: string, reason: string): void => {
    rejections.count++;
    if (rejections.listed.length < maxListedRejections) rejections.listed.push({ at, reason });
  };
  let drafts: Iterable<Draft>;
  if (format === 'pdf') {
    // PDF text is read asynchronously by pdf.js beforehand (readPdfPages), on the ingestion thread.
    if (!pdfPages) throw new Error('a PDF upload needs its pages read first (readPdfPages)');
    drafts = extractPdf(pdfPages, reject);
  } else {
    const text = decodeText(bytes);
    if (text.trim() === '') throw new DomainError('no_extractable_text', 'The file is empty or holds only white space.');
    if (format === 'json' || format === 'jsonl') drafts = jsonDrafts(text, format, rejections);
    else if (format === 'csv') drafts = extractCsv(text, { remaining: FLATTEN_BUDGET_FACTOR * text.length + 1_000_000 }, reject);
    else if (format === 'md') drafts = extractMarkdown(text);
    else if (format === 'html') drafts = extractHtml(text);
    else drafts = extractText(text, max);
  }
  let records = 0;
  for (const draft of drafts) {
    const title = draft.title === undefined ? '' : cleanTitle(draft.title);
    for (const part of splitText(draft.text, max)) {
      records++;
      yield title === '' ? { kind: draft.kind, text: part } : { kind: draft.kind, title, text: part };
    }
  }
  if (records === 0) throw nothingToExtract(format, rejections.listed, rejections.count);
}

/**
 * Turns an upload's bytes into all its records. Pure: no I/O. Throws only
 * DomainError with code invalid_utf8, invalid_json, too_deeply_nested or
 * no_extractable_text. In-file duplicates are returned as they are; the
 * service dedupes by fingerprint.
 */
export function extract(bytes: Uint8Array, format: SourceFormat, options?: ExtractionOptions, pdfPages?: PdfPages): Extraction {
  const rejections: RejectionLog = { listed: [], count: 0 };
  const records = [...extractRecords(bytes, format, options, rejections, pdfPages)];
  return { records, rejected: rejections.listed, rejectedCount: rejections.count };
}
