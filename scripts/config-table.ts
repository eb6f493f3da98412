/**
 * The README's configuration table, generated from the settings schema in src/config.ts.
 *
 *   npx tsx scripts/config-table.ts           prints the table
 *   npx tsx scripts/config-table.ts --write   rewrites it in README.md (`npm run docs:config`)
 *
 * The table sits between the two marker comments below; test/config/schema.test.ts fails when
 * the README's copy differs from this output.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Setting, settings } from '../src/config.js';

export const tableStart = '<!-- config-table:start (generated from src/config.ts by `npm run docs:config`; do not edit) -->';
export const tableEnd = '<!-- config-table:end -->';
export const readmePath = path.resolve(import.meta.dirname, '../README.md');

/** A table cell: one line, with pipes escaped (GitHub reads `\|` as a pipe inside code spans too). */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

export function renderConfigTable(): string {
  const rows = (Object.entries(settings) as [string, Setting<unknown>][]).map(
    ([name, s]) => `| \`${name}\` | ${cell(s.defaultText)} | ${cell(s.accepts)} | ${cell(s.meaning)} |`,
  );
  return ['| Variable | Default | Accepted values | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}

/** The text between the markers (without them), or undefined when the markers are missing or repeated. */
export function tableIn(readme: string): string | undefined {
  const start = readme.indexOf(tableStart);
  const end = readme.indexOf(tableEnd);
  if (start < 0 || end < start || readme.indexOf(tableStart, start + 1) >= 0 || readme.indexOf(tableEnd, end + 1) >= 0) return undefined;
  return readme.slice(start + tableStart.length, end).trim();
}

export function withTable(readme: string, table: string): string {
  if (tableIn(readme) === undefined) throw new Error(`README.md needs exactly one ${tableStart} … ${tableEnd} pair`);
  const start = readme.indexOf(tableStart) + tableStart.length;
  return `${readme.slice(0, start)}\n${table}\n${readme.slice(readme.indexOf(tableEnd))}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const table = renderConfigTable();
  if (process.argv.includes('--write')) {
    const readme = readFileSync(readmePath, 'utf8');
    const updated = withTable(readme, table);
    if (updated !== readme) writeFileSync(readmePath, updated);
    console.log(updated === readme ? 'README.md: configuration table already up to date' : 'README.md: configuration table rewritten');
  } else {
    console.log(table);
  }
}
