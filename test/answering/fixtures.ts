import type { ExtractiveOptions } from '../../src/knowledge/answering/plan-options.js';
import type { RetrievedRecord } from '../../src/knowledge/answering/types.js';
import type { RecordKind } from '../../src/knowledge/extraction/types.js';
import { KnowledgeIndex } from '../../src/knowledge/retrieval/knowledge-index.js';

export interface FixtureRecord {
  recordId: string;
  sourceName: string;
  title: string | null;
  text: string;
  kind: RecordKind;
}

/** A Q&A record as extraction makes it (text = question + answer). */
export const qa = (recordId: string, question: string, answer: string): FixtureRecord => ({
  recordId,
  sourceName: 'faq.json',
  title: question,
  text: `${question}\n${answer}`,
  kind: 'qa',
});

/** A help-centre section as extraction makes it from Markdown (text = heading + body). */
export const section = (recordId: string, title: string, body: string): FixtureRecord => ({
  recordId,
  sourceName: 'help.md',
  title,
  text: `${title}\n\n${body}`,
  kind: 'passage',
});

/** A small shop FAQ, shaped as extraction produces it (qa text = question + answer). */
export const SHOP_FAQ: FixtureRecord[] = [
  qa(
    'ret',
    'What is your return policy?',
    'You can return any unworn item within 30 days of delivery. Refunds go back to the original payment method within 5 business days.',
  ),
  qa(
    'ship',
    'How long does shipping take?',
    'Standard shipping takes 3 to 5 business days. Express shipping arrives the next business day if you order before 2 pm.',
  ),
  qa('intl', 'Do you ship internationally?', 'Yes, we ship to the EU, the UK and Canada. Customs fees are paid by the recipient.'),
  qa('size', 'How do I find my size?', 'Use the size chart on each product page. If you are between two sizes, pick the larger one.'),
  qa('pay', 'Which payment methods do you accept?', 'We accept Visa, Mastercard, PayPal and Apple Pay.'),
  {
    recordId: 'care',
    sourceName: 'care.md',
    title: 'Caring for wool',
    text: 'Wash wool sweaters by hand in cold water. Never put them in the dryer, because heat shrinks the fibres. Dry them flat on a towel. Store them folded, not on a hanger, so they keep their shape.',
    kind: 'passage',
  },
];

/** Retrieval over the fixture as the query service does it, plus the answer options with the index's IDF. */
export function retrieverFor(records: readonly FixtureRecord[], k = 5): { retrieve: (q: string) => RetrievedRecord[]; options: ExtractiveOptions } {
  const index = KnowledgeIndex.build(records, { language: 'en' });
  const byId = new Map(records.map((r) => [r.recordId, r]));
  return {
    retrieve: (q) => index.search(q, k).map((h) => ({ ...(byId.get(h.recordId) as FixtureRecord), score: h.score })),
    options: { stats: index },
  };
}
