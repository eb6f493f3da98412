/**
 * Asks questions of one visitor set's records and prints each answer as a visitor would read it,
 * with the titles of the records it cites: `npx tsx eval/ask.ts <set> "question" ["question" …]`.
 * For trying questions by hand (docs/quality.md); `debug-question.ts` explains the decision.
 */
import { answerExtractively } from '../src/knowledge/answering/extractive.js';
import type { RetrievedRecord } from '../src/knowledge/answering/types.js';
import { KnowledgeIndex } from '../src/knowledge/retrieval/knowledge-index.js';
import { loadSet } from './sets.js';

const [setName, ...questions] = process.argv.slice(2);
if (!setName || questions.length === 0) throw new Error('usage: tsx eval/ask.ts <set> "question" ["question" …]');
const set = loadSet(setName);
const index = KnowledgeIndex.build(set.records);
const byId = new Map(set.records.map((r) => [r.recordId, r]));
for (const question of questions) {
  const retrieved: RetrievedRecord[] = index.search(question, 6).flatMap((h) => {
    const record = byId.get(h.recordId);
    return record ? [{ ...record, score: h.score }] : [];
  });
  const answer = answerExtractively(question, retrieved, { stats: index });
  console.log(`Q: ${question}`);
  console.log(`A: ${answer.grounded ? answer.answer : `(refused) ${answer.answer}`}`);
  for (const [i, source] of answer.sources.entries()) console.log(`   [${i + 1}] ${source.title ?? source.recordId}`);
  console.log('');
}
