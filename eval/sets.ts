/**
 * The visitor-question evaluation sets (eval/sets/<name>/): a knowledge base as a user would
 * upload it (the file goes through the real extraction pipeline) and questions written the way
 * customers ask, with gold records (by title) and the facts a correct answer must contain.
 *
 * A set marked `heldOut` is measured like the others but never tuned on: the calibration and the
 * tuning grids leave it out (`tuningSetNames`), so it keeps telling how the answerer does on
 * records and wording it was not fitted to.
 *
 * `npx tsx eval/sets.ts [name]` checks a set: every gold title names a record, every fact is in
 * one of its gold records, the counts per question type are those the issue asks for.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extract, type SourceFormat } from '../src/knowledge/extraction/index.js';
import type { EvalRecord } from './dataset.js';

export const setsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'sets');

export type VisitorQuestionType = 'paraphrase' | 'multi' | 'typo' | 'unanswerable';

/** A previous turn of the conversation, as the widget sends it. */
export interface Turn {
  role: 'user' | 'assistant';
  content: string;
}

export interface VisitorQuestion {
  id: string;
  type: VisitorQuestionType;
  question: string;
  /** Titles of the records that answer it (empty for unanswerable questions). */
  gold: string[];
  /** Each fact is a list of acceptable spellings; all facts must be in the answer. */
  facts: string[][];
  /** Earlier turns, for follow-up questions. */
  conversation?: Turn[];
  /** Which half it belongs to: tuning decisions look only at `tune`. */
  half: 'tune' | 'report';
}

export interface VisitorSet {
  name: string;
  /** ISO 639-1 language of the records and questions. */
  language: string;
  shape: string;
  records: EvalRecord[];
  questions: VisitorQuestion[];
  /** Gold record ids per question id. */
  goldIds: Map<string, string[]>;
  /** Never tuned on: left out of the calibration and the tuning grids. */
  heldOut: boolean;
}

interface SetFile {
  name: string;
  language: string;
  shape: string;
  source: string;
  format: SourceFormat;
  heldOut?: boolean;
  questions: Omit<VisitorQuestion, 'half'>[];
}

export const EXPECTED_COUNTS: Readonly<Record<VisitorQuestionType, number>> = { paraphrase: 20, multi: 5, typo: 5, unanswerable: 10 };

export function setNames(): string[] {
  return readdirSync(setsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** The sets the answerer may be tuned on: all but the held-out ones. */
export function tuningSetNames(): string[] {
  return setNames().filter((name) => !loadSet(name).heldOut);
}

/**
 * Loads a set. Halves alternate within each question type in file order (1st tune, 2nd report,
 * …), so both halves have the same mix and nobody chooses which question lands where.
 */
export function loadSet(name: string): VisitorSet {
  const dir = path.join(setsDir, name);
  const file = JSON.parse(readFileSync(path.join(dir, 'set.json'), 'utf8')) as SetFile;
  const bytes = readFileSync(path.join(dir, file.source));
  const { records: extracted } = extract(new Uint8Array(bytes), file.format);
  const records: EvalRecord[] = extracted.map((r, i) => ({
    recordId: `${name}#${i + 1}`,
    sourceName: file.source,
    title: r.title ?? null,
    text: r.text,
    kind: r.kind,
  }));
  const seen = new Map<VisitorQuestionType, number>();
  const questions: VisitorQuestion[] = file.questions.map((q) => {
    const n = seen.get(q.type) ?? 0;
    seen.set(q.type, n + 1);
    return { ...q, half: n % 2 === 0 ? 'tune' : 'report' };
  });
  const goldIds = new Map<string, string[]>();
  for (const q of questions) goldIds.set(q.id, q.gold.flatMap((title) => records.filter((r) => r.title === title).map((r) => r.recordId)));
  return { name: file.name, language: file.language, shape: file.shape, records, questions, goldIds, heldOut: file.heldOut === true };
}

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');

/** Problems with a set, as sentences; empty when it is sound. */
export function checkSet(set: VisitorSet): string[] {
  const problems: string[] = [];
  const counts = new Map<string, number>();
  const ids = new Set<string>();
  for (const q of set.questions) {
    if (ids.has(q.id)) problems.push(`${q.id}: duplicate id`);
    ids.add(q.id);
    counts.set(q.type, (counts.get(q.type) ?? 0) + 1);
    const gold = set.goldIds.get(q.id) ?? [];
    for (const title of q.gold) if (!set.records.some((r) => r.title === title)) problems.push(`${q.id}: no record has the title ${JSON.stringify(title)}`);
    if (q.type === 'unanswerable' && (q.gold.length > 0 || q.facts.length > 0)) problems.push(`${q.id}: an unanswerable question has no gold and no facts`);
    if (q.type !== 'unanswerable' && (q.gold.length === 0 || q.facts.length === 0)) problems.push(`${q.id}: needs gold records and facts`);
    if (q.type === 'multi' && q.gold.length < 2) problems.push(`${q.id}: a multi-record question names at least two gold records`);
    const goldText = set.records.filter((r) => gold.includes(r.recordId)).map((r) => norm(`${r.title ?? ''}\n${r.text}`));
    for (const fact of q.facts) {
      if (!fact.some((alt) => goldText.some((t) => t.includes(norm(alt))))) problems.push(`${q.id}: fact ${JSON.stringify(fact)} is in none of its gold records`);
    }
  }
  for (const [type, expected] of Object.entries(EXPECTED_COUNTS)) {
    if ((counts.get(type) ?? 0) !== expected) problems.push(`${counts.get(type) ?? 0} ${type} questions, expected ${expected}`);
  }
  if (set.records.length < 25) problems.push(`${set.records.length} records, expected at least 25`);
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const names = args.length > 0 ? args : setNames();
  let bad = 0;
  for (const name of names) {
    const set = loadSet(name);
    const problems = checkSet(set);
    console.log(`${name}: ${set.records.length} records, ${set.questions.length} questions, ${problems.length === 0 ? 'OK' : `${problems.length} problems`}`);
    if (process.argv.includes('--titles') || problems.length > 0) for (const r of set.records) console.log(`  [${r.kind}] ${JSON.stringify(r.title)}`);
    for (const p of problems) console.log(`  - ${p}`);
    bad += problems.length;
  }
  process.exitCode = bad > 0 ? 1 : 0;
}
