/**
 * Explains the answer-or-refuse decision for one question of a visitor set:
 * `npx tsx eval/debug-question.ts <set> <question id>`, or `<set> - "any question"` for a question of one's
 * own on that set's records (e.g. one part of a two-part question).
 */
import { contextualQuery } from '../src/knowledge/answering/follow-up.js';
import { planAnswer } from '../src/knowledge/answering/plan.js';
import { KnowledgeIndex } from '../src/knowledge/retrieval/knowledge-index.js';
import { loadSet } from './sets.js';

const [setName, id, text] = process.argv.slice(2);
if (!setName || !id) throw new Error('usage: tsx eval/debug-question.ts <set> <question id | - "question">');
const set = loadSet(setName);
const question = id === '-' && text ? { id, question: text, conversation: undefined } : set.questions.find((q) => q.id === id);
if (!question) throw new Error(`no question ${id} in ${setName}`);
const index = KnowledgeIndex.build(set.records);
const byId = new Map(set.records.map((r) => [r.recordId, r]));
const searched = contextualQuery(question.question, question.conversation);
const hits = index.search(searched, 6);
const plan = planAnswer(question.question, hits.flatMap((h) => { const r = byId.get(h.recordId); return r ? [{ ...r, score: h.score }] : []; }), { stats: index });
console.log(question.question, '\ngold:', set.goldIds.get(id));
console.log('hits:', hits.map((h) => `${h.recordId} ${h.score.toFixed(2)} (${byId.get(h.recordId)?.title?.split(' › ').pop()?.slice(0, 40) ?? ''})`).join(', '));
console.log('words:', plan.words.map((w, i) => `${JSON.stringify(w)}=${plan.weights[i]?.toFixed(2)}`).join(' '));
console.log('coverage', plan.coverage.toFixed(3), 'confidence', plan.confidence.toFixed(3), 'grounded', plan.grounded);
console.log('selected:', plan.selected.map((u) => `${plan.records[u.record]?.recordId} cov=${u.coverage.toFixed(2)} rel=${u.relevance.toFixed(3)} "${u.unit.text.slice(0, 60)}"`).join('\n  '));
