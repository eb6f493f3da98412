/** Writing plain data in each format; refuses data the target format cannot hold. */
import Papa from 'papaparse';
import { stringify as stringifyToml } from 'smol-toml';
import { stringify as stringifyYaml } from 'yaml';
import { ToolInputError } from '../types.js';
import type { DataFormat } from './parse.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** CSV is a table: a list of records whose values are all scalars. */
function writeCsv(data: unknown): string {
  if (!Array.isArray(data) || data.length === 0) throw new ToolInputError('CSV needs a non-empty array of objects, e.g. [{"id": 1}, {"id": 2}].', { field: 'to' });
  const columns: string[] = [];
  data.forEach((row, i) => {
    if (!isPlainObject(row)) throw new ToolInputError(`CSV needs an array of objects, but item ${i} is not an object.`, { field: 'to' });
    for (const [key, value] of Object.entries(row)) {
      if (typeof value === 'object' && value !== null && !(value instanceof Date)) {
        throw new ToolInputError(`CSV needs flat records, but item ${i} has a nested value in "${key}".`, { field: 'to' });
      }
      if (!columns.includes(key)) columns.push(key);
    }
  });
  const rows = data.map((row: Record<string, unknown>) => columns.map((key) => {
    const value = row[key];
    return value instanceof Date ? value.toISOString() : (value ?? '');
  }));
  return Papa.unparse({ fields: columns, data: rows });
}

/** The path of the first null, which TOML has no way to write. */
function findNull(value: unknown, path: string): string | undefined {
  if (value === null) return path || '(top level)';
  if (typeof value !== 'object' || value instanceof Date) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = findNull(item, path ? `${path}.${key}` : key);
    if (found) return found;
  }
  return undefined;
}

function writeToml(data: unknown): string {
  if (!isPlainObject(data)) throw new ToolInputError('TOML needs an object (a table) at the top level, not an array or a single value.', { field: 'to' });
  const nullAt = findNull(data, '');
  if (nullAt) throw new ToolInputError(`TOML has no null value, but "${nullAt}" is null.`, { field: 'to' });
  try {
    return stringifyToml(data);
  } catch (error) {
    // smol-toml refuses values TOML has no type for (null, mixed nesting).
    throw new ToolInputError(`The data cannot be written as TOML: ${(error as Error).message}`, { field: 'to' });
  }
}

export function writeData(data: unknown, format: DataFormat): string {
  if (format === 'json') return JSON.stringify(data, null, 2);
  if (format === 'yaml') return stringifyYaml(data);
  if (format === 'csv') return writeCsv(data);
  return writeToml(data);
}
