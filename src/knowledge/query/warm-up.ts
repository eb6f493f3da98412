/**
 * Start-up warm-up of the question path: a small English knowledge base of its own, indexed,
 * searched and asked five questions as the query service does, then dropped. A fresh process
 * otherwise does this work for its first visitors: each question path's regular expressions are
 * compiled on first use and its code runs unoptimised, so several of the first questions after a
 * deploy held the event loop for 40–280 ms (every tenant's requests waited) against 3–12 ms
 * afterwards (docs/decisions.md, "The question path is loaded and warmed at start-up"). English
 * only: a question in another language would also make that language's misspelling index (~1 MB,
 * made in time slices), which language/preload.ts leaves to the deployments that use it. Nothing
 * here is kept: the index and the analysed records are garbage once it returns.
 */
import { answerExtractively } from '../answering/extractive.js';
import { loadLanguageData } from '../language/preload.js';
import type { RetrievedRecord } from '../answering/types.js';
import { type IndexableRecord, KnowledgeIndex } from '../retrieval/knowledge-index.js';

const RECORDS: IndexableRecord[] = [
  { recordId: 'w1', sourceName: 'faq.json', kind: 'qa', title: 'How long do deliveries take?', text: 'We ship to Canada and Mexico within 5 business days. Shipping costs $7, free over $50.' },
  { recordId: 'w2', sourceName: 'faq.json', kind: 'qa', title: 'Can I return an item?', text: 'Returns are accepted within 30 days of delivery. Contact help@shop.example or call +1 555 0100.' },
  { recordId: 'w3', sourceName: 'catalogue.json', kind: 'product', title: 'Arden tamper', text: 'Arden tamper\nPrice: £38\nSpecs › Diameter: 58 mm\nA steel tamper that fits 58 mm baskets.' },
  { recordId: 'w4', sourceName: 'help.md', kind: 'passage', title: 'Billing › Payment methods', text: 'We accept Visa, Mastercard and PayPal. Invoices are sent every month on the 1st.' },
];

/** Answerable, two-part, misspelt, follow-up (each question follows the one before) and unanswerable. */
const QUESTIONS = ['How long does delivery to Mexico take?', 'how much is the tamper and does it fit 58mm', 'wat cards do u take', 'Who pays for returns, and how long do I have?', 'Do you sell oat milk?'];

/**
 * What a process does before its first question: the language data loaded (language/preload.ts)
 * and the question path warmed. The server calls it at start-up, and so do the in-process
 * benchmarks, which would otherwise measure a process no server runs as (its misspelling index
 * still being made, its words scanned meanwhile). Returns how long it took, in ms.
 */
export function prepareQuestionPath(): number {
  const started = performance.now();
  loadLanguageData();
  warmUpAnswering();
  return Math.round(performance.now() - started);
}

/** Runs the question path over the warm-up knowledge base; returns how many of its questions were answered. */
export function warmUpAnswering(): number {
  const index = KnowledgeIndex.build(RECORDS);
  const byId = new Map(RECORDS.map((r) => [r.recordId, r]));
  let grounded = 0;
  let previous: string | undefined;
  for (const question of QUESTIONS) {
    const retrieved: RetrievedRecord[] = index.search(question, 6).map((hit) => {
      const r = byId.get(hit.recordId) as IndexableRecord;
      return { recordId: r.recordId, sourceName: r.sourceName, title: r.title, text: r.text, kind: r.kind as RetrievedRecord['kind'], score: hit.score };
    });
    const conversation = previous === undefined ? undefined : [{ role: 'user' as const, content: previous }];
    if (answerExtractively(question, retrieved, { stats: index, conversation }).grounded) grounded++;
    previous = question;
  }
  return grounded;
}
