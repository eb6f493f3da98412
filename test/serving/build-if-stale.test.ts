/**
 * scripts/build-if-stale.mjs (what `npm start` runs first): builds when the inputs changed since
 * the stamp of the last successful build, or an output is missing, and not otherwise. Exercised on
 * a temporary project whose "build" is a one-line command that counts its runs — not the real build.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const script = path.resolve('scripts/build-if-stale.mjs');

describe('build-if-stale', () => {
  let root: string;
  const runs = () => (fs.existsSync(path.join(root, 'runs.txt')) ? fs.readFileSync(path.join(root, 'runs.txt'), 'utf8').length : 0);
  // The fake build appends one character per run and produces the output.
  const command = `node -e "require('fs').appendFileSync('runs.txt','x');require('fs').mkdirSync('out',{recursive:true});require('fs').writeFileSync('out/app.js','')"`;
  const run = (extra: string[] = []) =>
    spawnSync(process.execPath, [script, '--root', root, '--stamp', 'out/.stamp', '--inputs', 'src,config.json', '--outputs', 'out/app.js', '--command', command, ...extra], {
      encoding: 'utf8',
    });

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-stale-'));
    fs.mkdirSync(path.join(root, 'src', 'nested'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'nested', 'a.ts'), 'export const a = 1;\n');
    fs.writeFileSync(path.join(root, 'config.json'), '{}\n');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('builds on the first run and not on the second', () => {
    const first = run();
    expect(first.status, first.stderr).toBe(0);
    expect(runs()).toBe(1);
    expect(fs.existsSync(path.join(root, 'out', '.stamp'))).toBe(true);
    const second = run();
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/up to date/);
    expect(runs()).toBe(1);
    expect(run(['--check']).status).toBe(0);
  });

  it('rebuilds when a source changes, a source is added, or an output is missing', () => {
    run();
    fs.writeFileSync(path.join(root, 'src', 'nested', 'a.ts'), 'export const a = 2;\n');
    expect(run(['--check']).status).toBe(1);
    run();
    expect(runs()).toBe(2);
    fs.writeFileSync(path.join(root, 'src', 'b.ts'), '');
    run();
    expect(runs()).toBe(3);
    fs.rmSync(path.join(root, 'out', 'app.js'));
    run();
    expect(runs()).toBe(4);
    run();
    expect(runs()).toBe(4);
  });

  it('writes no stamp when the build fails, so the next run tries again', () => {
    const failed = spawnSync(process.execPath, [script, '--root', root, '--stamp', 'out/.stamp', '--inputs', 'src', '--outputs', '', '--command', 'node -e "process.exit(3)"'], {
      encoding: 'utf8',
    });
    expect(failed.status).toBe(3);
    expect(fs.existsSync(path.join(root, 'out', '.stamp'))).toBe(false);
  });

  it('--write-stamp records the current inputs as built (npm run build does this in postbuild)', () => {
    fs.mkdirSync(path.join(root, 'out'));
    fs.writeFileSync(path.join(root, 'out', 'app.js'), '');
    expect(run(['--write-stamp']).status).toBe(0);
    run();
    expect(runs()).toBe(0);
  });
});
