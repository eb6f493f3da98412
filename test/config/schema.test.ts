/**
 * The settings schema (src/config.ts) is the one place a variable is declared: the README's
 * configuration table is generated from it, and src/ reads no variable it does not declare.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderConfigTable, readmePath, tableEnd, tableIn, tableStart, withTable } from '../../scripts/config-table.js';
import { type Setting, settings } from '../../src/config.js';

const root = path.resolve(import.meta.dirname, '../..');
const configPath = path.join(root, 'src/config.ts');
const declared = new Set(Object.keys(settings));
const entries = Object.entries(settings) as [string, Setting<unknown>][];

/**
 * Variables src/ may read that are not settings, each with the reason. None today: NODE_ENV is a
 * setting like the others. Only add a variable here that no operator sets (e.g. one a test runner
 * sets for itself), and say why.
 */
const notSettings: ReadonlyMap<string, string> = new Map<string, string>([]);

/**
 * How a source file reads the environment: variables read by name (`process.env.X`,
 * `process.env['X']`, `env.X`, `env['X']`; names in capitals only, so `env.devMode` is not one),
 * and how many times it takes `process.env` whole (passing it on or destructuring it), which
 * only config.ts may do.
 */
function environmentReads(source: string): { names: string[]; whole: number } {
  const named = [...source.matchAll(/\b(?:process\.)?env(?:\??\.([A-Z][A-Z0-9_]*)\b|(?:\?\.)?\[\s*['"`]([A-Z][A-Z0-9_]*)['"`]\s*\])/g)];
  const names = named.map((m) => (m[1] ?? m[2]) as string);
  const whole = source.match(/\bprocess\.env\b/g)?.length ?? 0;
  return { names, whole: whole - named.filter((m) => m[0].startsWith('process.')).length };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.(?:ts|tsx|mts|cts|js|mjs)$/.test(e.name) ? [full] : [];
  });
}

describe('the README table', () => {
  it('is the one the schema generates', () => {
    const readme = readFileSync(readmePath, 'utf8');
    const table = tableIn(readme);
    expect(table, `README.md needs one ${tableStart} … ${tableEnd} pair: run \`npm run docs:config\` after adding them`).toBeDefined();
    expect(table, "README.md's configuration table differs from src/config.ts: run `npm run docs:config`").toBe(renderConfigTable());
  });

  it('has one row per setting, in the schema order', () => {
    const rows = renderConfigTable().split('\n').slice(2);
    expect(rows.map((row) => /^\| `([A-Z0-9_]+)` \|/.exec(row)?.[1])).toEqual(Object.keys(settings));
  });

  it('is found between the markers and replaced there only', () => {
    const readme = `# R\n\n${tableStart}\n| old |\n${tableEnd}\n\nafter\n`;
    expect(tableIn(readme)).toBe('| old |');
    expect(withTable(readme, '| new |')).toBe(`# R\n\n${tableStart}\n| new |\n${tableEnd}\n\nafter\n`);
    expect(tableIn('no markers')).toBeUndefined();
    expect(tableIn(`${tableStart}\n${tableEnd}\n${tableStart}\n${tableEnd}`)).toBeUndefined();
    expect(() => withTable('no markers', '| new |')).toThrow(/config-table:start/);
  });
});

describe('every variable is declared in the schema', () => {
  it('finds each way of reading the environment', () => {
    const source = [
      'const a = process.env.ALPHA;',
      "const b = process.env['BETA'];",
      'const c = env.GAMMA ?? env["DELTA"];',
      'const d = process.env?.EPSILON;',
      'const { ZETA } = process.env;',
      'spawn(cmd, { env: process.env });',
      'const e = options.env.devMode; // not a variable',
    ].join('\n');
    expect(environmentReads(source)).toEqual({ names: ['ALPHA', 'BETA', 'GAMMA', 'DELTA', 'EPSILON'], whole: 2 });
  });

  it('src/ reads no variable the schema does not declare', () => {
    const undeclared: string[] = [];
    for (const file of sourceFiles(path.join(root, 'src'))) {
      for (const name of environmentReads(readFileSync(file, 'utf8')).names) {
        if (!declared.has(name) && !notSettings.has(name)) undeclared.push(`${path.relative(root, file)}: ${name}`);
      }
    }
    expect(undeclared, 'declare these in `settings` in src/config.ts (then `npm run docs:config`), and read them from Config').toEqual([]);
  });

  it('only config.ts takes the whole environment', () => {
    const readers = sourceFiles(path.join(root, 'src'))
      .filter((file) => file !== configPath && environmentReads(readFileSync(file, 'utf8')).whole > 0)
      .map((file) => path.relative(root, file));
    expect(readers, 'read settings from Config, not from process.env').toEqual([]);
    expect(environmentReads(readFileSync(configPath, 'utf8')).whole).toBeGreaterThan(0);
  });

  it('loadConfig uses every setting the schema declares', () => {
    const source = readFileSync(configPath, 'utf8');
    const body = source.slice(source.indexOf('export function loadConfig'));
    const unused = Object.keys(settings).filter((name) => !new RegExp(`\\b(?:values|settings)\\.${name}\\b`).test(body));
    expect(unused).toEqual([]);
  });

  it('leaves no stale names in the allowlist', () => {
    for (const name of notSettings.keys()) expect(declared.has(name), `${name} is a setting now`).toBe(false);
  });
});

describe('the schema itself', () => {
  it.each(entries)('%s is documented on one line', (_name, setting) => {
    for (const text of [setting.meaning, setting.accepts, setting.defaultText]) {
      expect(text.trim()).not.toBe('');
      expect(text).not.toMatch(/\n/);
    }
  });

  it.each(entries.filter(([, s]) => s.kind === 'integer' || s.kind === 'enum'))('%s accepts its own default', (_name, setting) => {
    expect(setting.parse(String(setting.fallback), { devMode: false })).toBe(setting.fallback);
  });

  it.each(entries.filter(([, s]) => s.sensitive))('%s never repeats a refused value', (_name, setting) => {
    for (const raw of ['mysql://gw:hunter2@db/gw', 'hunter2', 'hunter2 hunter2 hunter2 hunter2', 'not a url hunter2']) {
      try {
        setting.parse(raw, { devMode: false });
      } catch (error) {
        expect((error as Error).message).not.toContain('hunter2');
      }
    }
  });

  it('marks the settings that hold credentials', () => {
    expect(entries.filter(([, s]) => s.sensitive).map(([name]) => name)).toEqual(
      expect.arrayContaining(['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'LLM_API_KEY', 'METRICS_TOKEN', 'SECRET_KEY']),
    );
  });
});
