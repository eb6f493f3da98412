#!/usr/bin/env node
// `npm test`: type-check, lint, then every test suite that can run here.
// Suites that need PostgreSQL, Redis or Chromium run when those are available
// and are reported as skipped (with the reason) when not; with CI=true a
// skipped suite is a failure. Ends with the plain line "N passed, N failed".
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ci = process.env.CI === 'true';
const bin = (name) => path.join('node_modules', '.bin', name);
let passed = 0;
let failed = 0;
let skipped = 0;
const skippedReasons = [];

function step(name, command, args, env = {}) {
  process.stdout.write(`\n▶ ${name}\n`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = result.status === 0;
  process.stdout.write(`${ok ? '✔' : '✘'} ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  return ok;
}

// The service, then the browser code (dashboard and widget) with DOM types.
for (const project of ['tsconfig.json', 'src/web/tsconfig.json', 'src/widget/tsconfig.json']) {
  const typecheck = step(`type-check ${project} (tsc --noEmit)`, bin('tsc'), ['--noEmit', '-p', project]);
  if (typecheck) passed++;
  else failed++;
}
const lint = step('lint (eslint)', bin('eslint'), ['src', 'test', 'scripts', 'bench', 'eval']);
if (lint) passed++;
else failed++;

// The tests serve the built dashboard, pages and widget (dist/web): build them, so that a clean
// checkout tests what `npm start` would serve rather than the "not built" placeholder.
for (const [name, config] of [['web pages', 'vite.config.ts'], ['chat widget', 'vite.widget.config.ts']]) {
  const built = step(`build the ${name} (vite build -c ${config})`, bin('vite'), ['build', '--logLevel', 'warn', '-c', config]);
  if (built) passed++;
  else failed++;
}

const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gw-test-')), 'vitest.json');
const extra = process.argv.slice(2);
const vitestPassed = step('tests (vitest)', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...extra]);
if (fs.existsSync(report)) {
  const results = JSON.parse(fs.readFileSync(report, 'utf8'));
  for (const file of results.testResults ?? []) {
    // A file that failed with no failed test in it: it did not load, or a hook (beforeAll/afterAll) failed.
    const anyTestFailed = (file.assertionResults ?? []).some((t) => t.status === 'failed');
    if (file.status === 'failed' && !anyTestFailed) {
      failed++;
      process.stdout.write(`failed outside its tests (loading or a hook): ${path.relative(process.cwd(), file.name)}\n`);
    }
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'passed') passed++;
      else if (test.status === 'failed') failed++;
      else {
        skipped++;
        skippedReasons.push(`${path.relative(process.cwd(), file.name)} › ${test.fullName}`);
      }
    }
  }
} else {
  failed++;
  process.stdout.write('vitest wrote no report\n');
}
// Whatever the report says, vitest's own verdict stands (an error it counts outside any file).
if (!vitestPassed && failed === 0) {
  failed++;
  process.stdout.write('vitest failed (see its output above)\n');
}

if (skippedReasons.length) {
  process.stdout.write(`\nSkipped (${ci ? 'a failure under CI=true' : 'not run on this machine'}):\n`);
  for (const reason of skippedReasons) process.stdout.write(`  - ${reason}\n`);
}
if (ci && skipped > 0) failed += skipped;
process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(failed > 0 ? 1 : 0);
