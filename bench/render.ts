/**
 * Rewrites docs/performance.md (and prints the tables) from a results file
 * without measuring again: `npx tsx bench/render.ts [bench/results/<file>.json]`,
 * bench/results/latest.json by default. The targets are judged again by the current rules
 * (report.ts), so a changed rule shows on the page without a new run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { benchDir, repoRoot } from './children.js';
import { type BenchResults, consoleReport, evaluateTargets, markdown } from './report.js';

const latest = path.join(benchDir, 'results', 'latest.json');
const file = path.resolve(process.argv[2] ?? latest);
const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as BenchResults;
const results: BenchResults = { ...stored, targets: evaluateTargets(stored) };
// latest.json is a copy: name the timestamped file it copies.
const named = file === latest ? path.join(benchDir, 'results', `${results.startedAt.replace(/[:.]/g, '-')}.json`) : file;
fs.writeFileSync(path.join(repoRoot, 'docs', 'performance.md'), markdown(results, path.relative(repoRoot, named)));
process.stdout.write(`${consoleReport(results)}\n\nRewrote docs/performance.md from ${path.relative(repoRoot, file)}.\n`);
