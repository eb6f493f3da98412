/** What extraction turns an upload into. Pure data: no I/O, no HTTP. */
export type RecordKind = 'qa' | 'product' | 'passage';

export type SourceFormat = 'json' | 'jsonl' | 'txt' | 'md' | 'csv' | 'pdf' | 'html';

export interface ExtractedRecord {
  kind: RecordKind;
  /** The question of a Q&A, a product's name, a section heading; absent for plain passages. */
  title?: string;
  /** The searchable text of the record, readable by a person (never raw JSON). */
  text: string;
}

/** An item of the upload that could not become a record, with the place it came from. */
export interface Rejection {
  /** Where the item is, e.g. `item 3`, `line 12`, `section "Pricing"`. */
  at: string;
  reason: string;
}

export interface Extraction {
  records: ExtractedRecord[];
  /** The first rejected items (at most `maxListedRejections`), with where and why. */
  rejected: Rejection[];
  /** How many items were rejected in all. */
  rejectedCount: number;
}

/** A hostile file can hold millions of unusable items; only this many are listed. */
export const maxListedRejections = 1000;

export interface ExtractionOptions {
  /** Longest record text in characters; longer text is split at paragraph, then sentence boundaries. */
  maxRecordChars: number;
}

export const defaultExtractionOptions: ExtractionOptions = { maxRecordChars: 2000 };
