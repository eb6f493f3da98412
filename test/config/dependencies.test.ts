/**
 * Dependencies are declared where they are used: every package the service imports at run time
 * is a dependency (not a devDependency, which `npm ci --omit=dev` would leave out), and every
 * dependency is used by the service.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
const builtins = new Set(builtinModules);

/**
 * Module specifiers of import and export statements (at the start of a line, so prose in comments
 * does not count), dynamic imports, require and require.resolve calls, and asset specifiers.
 */
const SPECIFIER_RE = /(?:^\s*(?:import|export)\b[^;'"`]*?\bfrom\s+|^\s*import\s+|\bimport\(\s*|\brequire(?:\.resolve)?\(\s*|\bspecifier:\s*)['"`]([^'"`.$/][^'"`$]*)/gm;

function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('node:') || builtins.has(specifier.split('/')[0] as string)) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string);
  // Only things that look like npm package names.
  return /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/.test(name) ? name : undefined;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.(?:ts|tsx|mts)$/.test(e.name) ? [full] : [];
  });
}

describe('dependencies', () => {
  const used = new Set<string>();
  for (const file of sourceFiles(path.join(root, 'src'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(SPECIFIER_RE)) {
      const name = packageOf(m[1] as string);
      if (name) used.add(name);
    }
  }
  const declared = new Set(Object.keys(pkg.dependencies));

  it('declares every package src/ imports as a run-time dependency', () => {
    expect([...used].filter((name) => !declared.has(name)).sort()).toEqual([]);
  });

  it('uses every run-time dependency in src/', () => {
    expect([...declared].filter((name) => !used.has(name)).sort()).toEqual([]);
  });
});
