/**
 * Evaluation data:
 * - SQuAD 2.0 "Normans" (one record per paragraph) plus our off-topic questions (eval/off-topic.json);
 * - a small shop knowledge base with customer-style questions (eval/faq.json), closer to what
 *   Groundwork's users load than encyclopaedia paragraphs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RetrievedRecord } from '../src/knowledge/answering/types.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const squadPath = path.resolve(repoRoot, '../shared/eval/squad-v2-normans.json');
const offTopicPath = path.resolve(repoRoot, 'eval/off-topic.json');
const faqPath = path.resolve(repoRoot, 'eval/faq.json');

export type EvalRecord = Omit<RetrievedRecord, 'score'>;
export type QuestionKind = 'answerable' | 'unanswerable' | 'off-topic';

export interface EvalQuestion {
  question: string;
  kind: QuestionKind;
  /** recordId of the record that answers it (SQuAD: the paragraph it was written on), or null. */
  gold: string | null;
  /** Gold answer spans (empty unless answerable). */
  answers: string[];
}

export interface Dataset {
  name: string;
  records: EvalRecord[];
  questions: EvalQuestion[];
}

interface SquadFile {
  data: { title: string; paragraphs: { context: string; qas: { question: string; is_impossible?: boolean; answers: { text: string }[] }[] }[] }[];
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

export function loadSquad(): Dataset {
  const squad = readJson<SquadFile>(squadPath);
  const records: EvalRecord[] = [];
  const questions: EvalQuestion[] = [];
  for (const article of squad.data) {
    for (const p of article.paragraphs) {
      const n = records.length + 1;
      const recordId = `p${n}`;
      records.push({ recordId, sourceName: `normans.txt#p${n}`, title: null, text: p.context, kind: 'passage' });
      for (const qa of p.qas) {
        const impossible = qa.is_impossible === true;
        questions.push({ question: qa.question, kind: impossible ? 'unanswerable' : 'answerable', gold: recordId, answers: qa.answers.map((a) => a.text) });
      }
    }
  }
  for (const question of readJson<{ questions: string[] }>(offTopicPath).questions) {
    questions.push({ question, kind: 'off-topic', gold: null, answers: [] });
  }
  return { name: 'SQuAD 2.0 Normans', records, questions };
}

interface FaqFile {
  records: EvalRecord[];
  questions: { question: string; kind: QuestionKind; record?: string; answers?: string[] }[];
}

export function loadFaq(): Dataset {
  const faq = readJson<FaqFile>(faqPath);
  const questions = faq.questions.map((q) => ({ question: q.question, kind: q.kind, gold: q.record ?? null, answers: q.answers ?? [] }));
  return { name: 'Shop FAQ', records: faq.records, questions };
}
