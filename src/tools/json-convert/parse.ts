/** Reading each format into plain data, with refusals that say where the text goes wrong. */
import Papa from 'papaparse';
import { parse as parseToml, TomlError } from 'smol-toml';
import { parseDocument } from 'yaml';
import { jsonErrorAt } from '../../json-scan.js';
import { lineColumn } from '../../text-position.js';
import { ToolInputError } from '../types.js';

export type DataFormat = 'json' | 'yaml' | 'csv' | 'toml';

/** Anchors that expand into more than this many copies are refused (the "billion laughs" document). */
const maxAliasCount = 100;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const found = jsonErrorAt(text);
    const offset = found?.offset ?? 0;
    const { line, column } = lineColumn(text, offset);
    throw new ToolInputError(`Invalid JSON at line ${line}, column ${column}: ${found?.message ?? 'cannot be parsed'}.`, { field: 'text', kind: 'invalid_json', line, column, offset });
  }
}

function parseYaml(text: string): unknown {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const error = doc.errors[0];
  if (error) {
    const where = error.linePos?.[0];
    const first = error.message.split('\n')[0] ?? error.message;
    throw new ToolInputError(`Invalid YAML: ${first}`, { field: 'text', ...(where ? { line: where.line, column: where.col } : {}), offset: error.pos[0] });
  }
  try {
    return doc.toJS({ maxAliasCount });
  } catch (error) {
    // yaml throws a ReferenceError when aliases expand past maxAliasCount.
    throw new ToolInputError(`The YAML cannot be expanded: ${(error as Error).message}`, { field: 'text', kind: 'too_large' });
  }
}

function parseCsv(text: string, types: boolean): unknown {
  const parsed = Papa.parse<Record<string, unknown>>(text.replace(/^\uFEFF/, ''), { header: true, dynamicTyping: types, skipEmptyLines: true });
  // A one-column file has no delimiter to detect: that warning is not an error.
  const error = parsed.errors.find((e) => e.code !== 'UndetectableDelimiter');
  if (error) {
    // papaparse counts data rows from 0; the header is line 1.
    const line = error.row === undefined ? undefined : error.row + 2;
    throw new ToolInputError(`Invalid CSV${line ? ` at line ${line}` : ''}: ${error.message}.`, { field: 'text', ...(line ? { line } : {}) });
  }
  if (parsed.meta.fields?.length === 0 || parsed.meta.fields === undefined) throw new ToolInputError('The CSV has no header row.', { field: 'text' });
  return parsed.data;
}

function parseTomlText(text: string): unknown {
  try {
    return parseToml(text);
  } catch (error) {
    if (error instanceof TomlError) {
      const first = error.message.split('\n')[0] ?? error.message;
      throw new ToolInputError(`Invalid TOML at line ${error.line}, column ${error.column}: ${first}`, { field: 'text', line: error.line, column: error.column });
    }
    throw error;
  }
}

export function parseData(text: string, format: DataFormat, csvTypes: boolean): unknown {
  if (text.trim() === '') throw new ToolInputError('The input is empty.', { field: 'text' });
  if (format === 'json') return parseJson(text);
  if (format === 'yaml') return parseYaml(text);
  if (format === 'csv') return parseCsv(text, csvTypes);
  return parseTomlText(text);
}
