/**
 * CSV (`.csv`): the first non-blank row is the header, every later row one item, classified like a
 * JSON object whose keys are the header names (classify.ts). Parsed with papaparse, strictly: a
 * quote that is never closed, a malformed quoted field, or a row with more or fewer cells than
 * the header is refused with the line the row starts on.
 */
import Papa from 'papaparse';
import { DomainError } from '../../errors.js';
import { classifyObject, type Draft } from './classify.js';
import { FlattenOverflow, type Json } from './flatten.js';

/** Delimiters tried, in order of preference when they occur equally often in the header line. */
const DELIMITERS = [',', ';', '\t'] as const;

/** The delimiter: whichever of `,` `;` tab occurs most often, outside quotes, in the first non-blank line. */
export function csvDelimiter(text: string): string {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let k = 0;
  while (k < text.length && (text[k] === '\n' || text[k] === ' ')) k++;
  let quoted = false;
  for (; k < text.length; k++) {
    const c = text[k] as string;
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === '\n') break;
    else if (!quoted && counts.has(c)) counts.set(c, (counts.get(c) as number) + 1);
  }
  let best: string = ',';
  for (const d of DELIMITERS) if ((counts.get(d) as number) > (counts.get(best) as number)) best = d;
  return best;
}

export interface CsvRow {
  /** 1-based line of the file the row starts on. */
  line: number;
  cells: string[];
}

function malformed(line: number, why: string): DomainError {
  return new DomainError('validation_failed', `Malformed CSV at line ${line}: ${why}.`, { line, reason: 'malformed_csv' });
}

/** All rows of the file with the line each starts on, empty rows left out. Throws on the first malformed row. */
export function csvRows(text: string): CsvRow[] {
  const rows: CsvRow[] = [];
  let start = 0;
  let line = 1;
  let failure: DomainError | undefined;
  Papa.parse<string[]>(text, {
    delimiter: csvDelimiter(text),
    header: false,
    skipEmptyLines: false,
    step: (result, parser) => {
      const rowLine = line;
      const end = result.meta.cursor;
      for (let k = start; k < end; k++) if (text.charCodeAt(k) === 10) line++;
      start = end;
      const error = result.errors[0];
      if (error) {
        failure = malformed(rowLine, error.code === 'MissingQuotes' ? 'a quoted field is never closed' : 'a quoted field has text after its closing quote');
        parser.abort();
        return;
      }
      const cells = result.data;
      if (cells.every((c) => c.trim() === '')) return;
      rows.push({ line: rowLine, cells });
    },
  });
  if (failure) throw failure;
  return rows;
}

/** Header names as keys: blank ones become `Column N`, repeated ones get ` 2`, ` 3`, … */
function headerKeys(cells: readonly string[]): string[] {
  const seen = new Set<string>();
  return cells.map((raw, k) => {
    const base = raw.trim() === '' ? `Column ${k + 1}` : raw.trim();
    let key = base;
    for (let n = 2; seen.has(key.toLowerCase()); n++) key = `${base} ${n}`;
    seen.add(key.toLowerCase());
    return key;
  });
}

/**
 * CSV to drafts: one per data row. Rows that cannot become a record (every cell empty but an
 * ignored column such as `id`) are listed in `reject` as `line N`. Lazy past the parse.
 */
export function* extractCsv(text: string, budget: { remaining: number }, reject: (at: string, reason: string) => void): Generator<Draft, void, undefined> {
  const rows = csvRows(text);
  const header = rows[0];
  if (!header) return;
  const keys = headerKeys(header.cells);
  if (rows.length === 1) throw new DomainError('no_extractable_text', 'The CSV file has a header row but no data rows.');
  // Every row is checked before the first record, so a malformed file yields nothing.
  for (let r = 1; r < rows.length; r++) {
    const { line, cells } = rows[r] as CsvRow;
    const extra = cells.length > keys.length && cells.slice(keys.length).some((c) => c.trim() !== '');
    if (extra || cells.length < keys.length) throw malformed(line, `the row has ${cells.length} cells but the header has ${keys.length}`);
  }
  for (let r = 1; r < rows.length; r++) {
    const { line, cells } = rows[r] as CsvRow;
    // fromEntries defines own properties, so a column called "__proto__" is just a column.
    const item = Object.fromEntries(keys.map((key, k) => [key, cells[k] as Json]));
    let result: Draft | { reason: string };
    try {
      result = classifyObject(item, budget);
    } catch (err) {
      if (!(err instanceof FlattenOverflow)) throw err;
      result = { reason: 'the file expands to too much text; later rows are skipped too' };
    }
    if ('reason' in result) reject(`line ${line}`, result.reason);
    else yield result;
  }
}
