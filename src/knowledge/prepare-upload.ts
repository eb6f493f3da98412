/**
 * Everything an upload costs before the database sees it: extraction, a SHA-256 fingerprint per
 * record, record ids and the file's own SHA-256. Pure (no I/O), and run on an ingestion thread
 * (ingest-worker.ts) so that a 10 MB file never stalls the queries of other knowledge bases.
 *
 * Reading stops as soon as the answer is known:
 * - more distinct fingerprints than `maxDistinct` cannot fit, whatever the knowledge base holds
 *   (at most `recordCount` of them can be duplicates of stored records), so the upload is
 *   refused with 409 quota_exceeded without extracting the rest (when the file ends right
 *   there, it goes to the store whole, which reports the exact count as before);
 * - more than `maxRecords` records in all (duplicates included) is refused with 413
 *   too_many_records: a file of one entry repeated a million times must not cost a million
 *   fingerprints and look-ups either.
 */
import { newId } from '../ids.js';
import { extractRecords, type PdfPages, type RejectionLog } from './extraction/index.js';
import type { ExtractionOptions, RecordKind, Rejection, SourceFormat } from './extraction/types.js';
import { fingerprint, sha256Hex } from './fingerprint.js';
import type { CandidateRecord } from './model.js';

/** Records one upload may yield when the knowledge base's own limit is smaller. */
export const MIN_RECORDS_PER_UPLOAD = 10_000;
/** Per-record outcomes reported for an upload (the first ones). */
export const MAX_REPORTED_ITEMS = 200;
/** Rejected items listed in an upload's report (the first ones). */
export const MAX_REPORTED_REJECTIONS = 50;

export interface PrepareLimits {
  /** Distinct fingerprints past which the upload cannot fit: max(limit, recordCount). */
  maxDistinct: number;
  /** Records (duplicates included) one upload may yield. */
  maxRecords: number;
}

export interface PrepareInput {
  bytes: Uint8Array;
  format: SourceFormat;
  options: ExtractionOptions;
  limits: PrepareLimits;
  /** A PDF's text per page, read beforehand by `readPdfPages` (prepareUploadAsync does so). */
  pdfPages?: PdfPages;
}

/** One of the first records, as the upload report shows it. */
export interface ReportedRecord {
  kind: RecordKind;
  title: string | null;
  /** The first 160 characters of the record's text. */
  preview: string;
  fingerprint: string;
  /** The id of the first record of the upload with this fingerprint (the one stored if it is new). */
  recordId: string;
}

export type PreparedUpload =
  | {
      kind: 'prepared';
      sha256: string;
      /** The first record of each fingerprint, in upload order, with its id. */
      unique: CandidateRecord[];
      /** For every record in upload order, its index in `unique`. */
      order: number[];
      head: ReportedRecord[];
      rejected: Rejection[];
      rejectedCount: number;
    }
  | { kind: 'over_quota'; distinct: number }
  | { kind: 'too_many_records'; maxRecords: number };

/** prepareUpload, after reading a PDF's pages with pdf.js (asynchronous) when the upload is one. */
export async function prepareUploadAsync(input: PrepareInput): Promise<PreparedUpload> {
  if (input.format !== 'pdf' || input.pdfPages) return prepareUpload(input);
  // pdf.js is loaded into this thread only when a PDF arrives.
  const { readPdfPages } = await import('./extraction/pdf-read.js');
  return prepareUpload({ ...input, pdfPages: await readPdfPages(input.bytes) });
}

export function prepareUpload({ bytes, format, options, limits, pdfPages }: PrepareInput): PreparedUpload {
  const rejections: RejectionLog = { listed: [], count: 0 };
  const unique: CandidateRecord[] = [];
  const indexOf = new Map<string, number>();
  const order: number[] = [];
  const head: ReportedRecord[] = [];
  for (const record of extractRecords(bytes, format, options, rejections, pdfPages)) {
    // Past maxDistinct the upload cannot fit. When that record was the file's last, the store
    // still gets the whole upload and reports the exact count; otherwise reading stops here.
    if (unique.length > limits.maxDistinct) return { kind: 'over_quota', distinct: unique.length };
    if (order.length >= limits.maxRecords) return { kind: 'too_many_records', maxRecords: limits.maxRecords };
    const print = fingerprint(record.text);
    let index = indexOf.get(print);
    if (index === undefined) {
      index = unique.length;
      indexOf.set(print, index);
      unique.push({ recordId: newId('rec'), kind: record.kind, title: record.title ?? null, text: record.text, fingerprint: print });
    }
    order.push(index);
    if (head.length < MAX_REPORTED_ITEMS) {
      const first = unique[index] as CandidateRecord;
      head.push({ kind: record.kind, title: record.title ?? null, preview: record.text.slice(0, 160), fingerprint: print, recordId: first.recordId });
    }
  }
  return {
    kind: 'prepared',
    sha256: sha256Hex(bytes),
    unique,
    order,
    head,
    rejected: rejections.listed.slice(0, MAX_REPORTED_REJECTIONS),
    rejectedCount: rejections.count,
  };
}
