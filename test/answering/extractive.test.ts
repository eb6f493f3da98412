import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { citedIndices, removeDanglingCitations } from '../../src/knowledge/answering/citations.js';
import { answerExtractively, notFound } from '../../src/knowledge/answering/extractive.js';
import { confidenceOf, matchedRareWords } from '../../src/knowledge/answering/confidence.js';
import { collapseSpace, splitSentences } from '../../src/knowledge/answering/sentences.js';
import { type Answer, NOT_FOUND_ANSWER, type RetrievedRecord } from '../../src/knowledge/answering/types.js';
import { type FixtureRecord, qa, retrieverFor, section, SHOP_FAQ } from './fixtures.js';

const shop = retrieverFor(SHOP_FAQ);
const ask = (q: string): Answer => answerExtractively(q, shop.retrieve(q), shop.options);

/** The answer with its markers removed, split back into the quoted pieces per source. */
function quotedPieces(answer: string): string[] {
  return answer
    .split(/\s*\[\d+\]\s*/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function expectWellCited(a: Answer): void {
  const cited = citedIndices(a.answer);
  // Numbered in order of first appearance, every source cited, nothing dangling.
  expect(cited).toEqual(a.sources.map((_, i) => i + 1));
  expect(removeDanglingCitations(a.answer, a.sources.length)).toBe(a.answer);
}

describe('answerExtractively on a shop FAQ', () => {
  it('answers a Q&A record with its answer, not its question', () => {
    const a = ask('What is the return policy?');
    expect(a.grounded).toBe(true);
    expect(a.answer).toMatch(/^You can return any unworn item within 30 days of delivery\./);
    expect(a.answer).not.toContain('What is your return policy?');
    expect(a.sources[0]?.recordId).toBe('ret');
    expectWellCited(a);
  });

  it('answers a paraphrase through the question', () => {
    const a = ask('how many days until shipping arrives');
    expect(a.grounded).toBe(true);
    expect(a.sources[0]?.recordId).toBe('ship');
    expect(a.answer).toContain('Standard shipping takes 3 to 5 business days.');
  });

  it('quotes the relevant sentences of a passage', () => {
    const a = ask('Can I put a wool sweater in the dryer?');
    expect(a.grounded).toBe(true);
    expect(a.answer).toContain('Never put them in the dryer, because heat shrinks the fibres.');
    expect(a.sources.map((s) => s.recordId)).toContain('care');
  });

  it('abstains on off-topic questions', () => {
    for (const q of [
      'What is the capital of Mongolia?',
      'Who painted the Mona Lisa?',
      'How do I reset my router password?',
      'What is the boiling point of water?',
    ]) {
      expect(ask(q)).toEqual({ answer: NOT_FOUND_ANSWER, grounded: false, sources: [] });
    }
  });

  it('abstains without records, without content terms, and on an empty query', () => {
    expect(answerExtractively('What is the return policy?', [], shop.options).grounded).toBe(false);
    expect(ask('what is it?').grounded).toBe(false);
    expect(ask('').grounded).toBe(false);
  });

  it('cites passages that contain the sentences used', () => {
    for (const q of ['Which payment methods do you accept?', 'wool dryer hanger', 'ship to Canada customs']) {
      const a = ask(q);
      expect(a.grounded).toBe(true);
      const pieces = quotedPieces(a.answer);
      expect(pieces).toHaveLength(a.sources.length);
      a.sources.forEach((s, i) => {
        const record = SHOP_FAQ.find((r) => r.recordId === s.recordId) as FixtureRecord;
        expect(collapseSpace(record.text)).toContain(collapseSpace(s.passage));
        // Every sentence quoted for source i is in its passage.
        for (const sentence of splitSentences(pieces[i] ?? '')) expect(collapseSpace(s.passage)).toContain(sentence.text);
      });
    }
  });

  it('works without index statistics (IDF estimated from the retrieved records)', () => {
    const a = answerExtractively('What is the return policy?', shop.retrieve('What is the return policy?'));
    expect(a.grounded).toBe(true);
    expect(a.sources[0]?.recordId).toBe('ret');
  });

  it('quotes a short section whole, in order, so the condition it opens with is not dropped', () => {
    const help = retrieverFor([
      section(
        'refunds',
        'Refunds on yearly subscriptions',
        'If you cancel a yearly subscription within 14 days of the payment, we refund the full amount. After 14 days, yearly payments are not refundable, but the subscription stays active until the end of the paid year. Refunds go back to the original card within 5 to 10 business days.',
      ),
      section('invoices', 'Invoices', 'Invoices are emailed to the billing contact after each payment. Past invoices can be downloaded as PDF files from the billing page.'),
      section('plans', 'Changing your plan', 'Upgrades take effect at once and you pay the difference. Downgrades take effect at the start of the next billing period.'),
    ]);
    const question = 'We paid for a whole year last week but it is not working out. Can we get our money back?';
    const a = answerExtractively(question, help.retrieve(question), help.options);
    expect(a.grounded).toBe(true);
    expect(a.sources.map((s) => s.recordId)).toEqual(['refunds']);
    // Before: the second and third sentences only, which share "paid", "year" and "back" with the question.
    expect(a.answer).toBe(
      'If you cancel a yearly subscription within 14 days of the payment, we refund the full amount. After 14 days, yearly payments are not refundable, but the subscription stays active until the end of the paid year. Refunds go back to the original card within 5 to 10 business days. [1]',
    );
    // A section longer than the answer's budget is still quoted by its best sentences.
    const long = section('long', 'Refunds on yearly subscriptions', `${'We refund yearly payments within 14 days of paying. '.repeat(3)}${'Other terms apply to monthly payments, which renew every month. '.repeat(10)}`);
    const clipped = answerExtractively('Can we get a refund of a yearly payment?', [{ ...long, score: 3 }], { maxChars: 300 });
    expect(clipped.grounded).toBe(true);
    expect(clipped.answer.replace(/ \[\d+\]/g, '').length).toBeLessThanOrEqual(300);
  });

  it('quotes the sentence before a chosen one that leans back ("They…"), within the budget', () => {
    const history: FixtureRecord = {
      recordId: 'history',
      sourceName: 'history.md',
      title: 'History',
      kind: 'passage',
      text: [
        'Our workshop opened in 1998 in a former dairy on the edge of Leeds.',
        'The first kettles were made by hand, one at a time, by two brothers from Otley.',
        'They fitted every spout with a copper rivet that we still use today.',
        'In 2010 the workshop moved to a larger unit beside the canal, where the shop is now.',
        'The canal unit has a showroom that is open on Saturdays from ten until four.',
        'Visitors can watch the polishing bench through a glass wall while they wait.',
        'There is parking for six cars behind the building and a bike rack by the door.',
        'Every autumn the workshop holds an open day with tea, cake and a short talk on enamel.',
      ].join(' '),
    };
    const a = answerExtractively('Which rivet do the spouts have?', [{ ...history, score: 3 }]);
    expect(a.grounded).toBe(true);
    // Before: "They fitted every spout with a copper rivet…" alone, "they" naming nobody.
    expect(a.answer).toContain('The first kettles were made by hand, one at a time, by two brothers from Otley. They fitted every spout with a copper rivet');
    // "There is" points at nothing before it: the sentence before stays out.
    const parking = answerExtractively('Is there parking for cars?', [{ ...history, score: 3 }]);
    expect(parking.answer).toContain('There is parking for six cars');
    expect(parking.answer).not.toContain('through a glass wall');
    // The sentence before is added only within the answer's budget.
    const tight = answerExtractively('Which rivet do the spouts have?', [{ ...history, score: 3 }], { maxChars: 90 });
    expect(tight.answer).not.toContain('two brothers');
  });

  it('keeps to the sentence and character budget', () => {
    const long: RetrievedRecord = {
      recordId: 'long',
      sourceName: 'long.txt',
      title: null,
      kind: 'passage',
      score: 3,
      text: Array.from({ length: 30 }, (_, i) => `Warranty fact number ${i} says the warranty covers part ${i} for two years.`).join(' '),
    };
    const a = answerExtractively('warranty covers', [long], { maxSentences: 3, maxChars: 200 });
    expect(a.grounded).toBe(true);
    expect(a.answer.replace(/ \[\d+\]/g, '').length).toBeLessThanOrEqual(200);
    expect(quotedPieces(a.answer)[0]?.split(/(?<=\.) /).length).toBeLessThanOrEqual(3);
  });

  it('drops footnote markers copied into a record, so they cannot pose as citations', () => {
    const wiki: RetrievedRecord = {
      recordId: 'w',
      sourceName: 'wiki.txt',
      title: null,
      kind: 'passage',
      score: 2,
      text: 'The warranty lasts two years.[7] It covers parts [2][9] and labour.',
    };
    const a = answerExtractively('warranty parts labour', [wiki]);
    expect(a.grounded).toBe(true);
    expectWellCited(a);
    expect(a.answer).toBe('The warranty lasts two years. It covers parts and labour. [1]');
  });

  it('never throws on hostile queries and records', () => {
    const odd: RetrievedRecord = { recordId: 'o', sourceName: 'o', title: '\u0000', kind: 'qa', score: 1, text: '\u0000\n🎉 مرحبا \u202e' };
    for (const q of ['x'.repeat(10_000), 'return '.repeat(1500), '🎉🔥', '\u202eمرحبا\u202c', '\u0000\u001b[31m', '\ud800']) {
      expect(() => answerExtractively(q, [...shop.retrieve(q), odd], shop.options)).not.toThrow();
    }
  });

  it('quotes a sentence once when both parts of a two-part question are answered by it', () => {
    // No units cache: each part's plan analyses the records anew, so the parts' units are different objects.
    const a = ask('How long does standard shipping take, and does express shipping arrive the next business day?');
    expect(a.grounded).toBe(true);
    expect(a.sources.map((s) => s.recordId)).toEqual(['ship']);
    for (const sentence of splitSentences(a.answer.replace(/\s*\[\d+\]/g, ''))) expect(a.answer.split(sentence.text).length - 1, sentence.text).toBe(1);
    expectWellCited(a);
  });

  it('adds another record only for an informative word it answers, not for an ordinary one it shares ("two")', () => {
    const help = retrieverFor([
      qa('refund', 'Can I get a refund on an annual plan?', 'If you cancel an annual plan within 30 days of the payment, we refund the full amount. Refunds go back to the original payment method.'),
      qa('2fa', 'How do I turn on two-step sign-in?', 'You can protect your account with a second step at sign-in, using an authenticator app. Codes change every few seconds.'),
      qa('invoices', 'Where are my invoices?', 'Invoices are emailed to the billing contact when each payment is taken.'),
      qa('seats', 'How do I add users?', 'Owners can invite users under Settings. Each user is billed from the day they join.'),
    ]);
    const cited = (q: string, options = {}) => answerExtractively(q, help.retrieve(q), { ...help.options, ...options }).sources.map((s) => s.recordId);
    const asked = 'Can I get a refund on the annual plan? We signed up two weeks ago.';
    expect(cited(asked)).toEqual(['refund']);
    // Counting every word, as before, the sign-in record came in for "two".
    expect(cited(asked, { minNewWordInformativeness: 0 })).toEqual(['refund', '2fa']);
    // A part of the question only the second record answers still brings it in.
    expect(cited('Refund for an annual plan paid two weeks ago, and can the app change every few seconds?')).toEqual(['refund', '2fa']);
  });

  it('clips a single over-long sentence to the budget', () => {
    const run: RetrievedRecord = { recordId: 'r', sourceName: 's', title: null, kind: 'passage', score: 1, text: `warranty ${'word '.repeat(400)}` };
    const a = answerExtractively('warranty', [run], { maxChars: 100 });
    expect(a.grounded).toBe(true);
    expect(a.answer).toMatch(/… \[1\]$/);
    expect(a.answer.length).toBeLessThan(110);
  });
});

describe('answerExtractively analysed-record cache', () => {
  const passage = (recordId: string, text: string): RetrievedRecord => ({ recordId, sourceName: 's.txt', title: null, kind: 'passage', score: 1, text });
  const withoutIds = (a: Answer) => ({ ...a, sources: a.sources.map(({ recordId: _, ...rest }) => rest) });

  it('analyses a record afresh when its id comes back with other content', () => {
    expect(answerExtractively('warranty years', [passage('reused', 'The warranty lasts two years.')]).answer).toBe('The warranty lasts two years. [1]');
    expect(answerExtractively('warranty years', [passage('reused', 'The warranty lasts five years.')]).answer).toBe('The warranty lasts five years. [1]');
  });

  it('answers as for a never-seen record whatever budgets were used before', () => {
    // A Q&A answer is one unit when it fits the budget, its sentences otherwise.
    const question = 'How long is the warranty?';
    const answer = 'The warranty lasts two years. It covers parts and labour. Batteries are covered for one year.';
    const qa = (recordId: string): RetrievedRecord => ({ recordId, sourceName: 'faq.json', title: question, kind: 'qa', score: 1, text: `${question}\n${answer}` });
    const budgets = [600, 60, 200, 600, 60];
    const answers = budgets.map((maxChars) => {
      const cached = answerExtractively('warranty batteries', [qa('budgets')], { maxChars });
      const fresh = answerExtractively('warranty batteries', [qa(`fresh-${maxChars}-${Math.random()}`)], { maxChars });
      expect(withoutIds(cached)).toEqual(withoutIds(fresh));
      return cached.answer;
    });
    expect(answers[0]).not.toBe(answers[1]);
  });
});

describe('answerExtractively citations (property)', () => {
  const vocab = ['refund', 'shipping', 'order', 'wool', 'price', 'canada', 'size', 'days', 'the', 'is', 'café', '退货政策'];
  const sentence = fc.array(fc.constantFrom(...vocab), { minLength: 1, maxLength: 8 }).map((w) => `${w.join(' ')}.`);
  const record = fc.record({
    title: fc.option(sentence, { nil: null }),
    body: fc.array(sentence, { minLength: 1, maxLength: 5 }).map((s) => s.join(' ')),
    kind: fc.constantFrom('qa' as const, 'passage' as const, 'product' as const),
  });
  const records = fc.array(record, { minLength: 0, maxLength: 8 }).map((rs) =>
    rs.map(
      (r, i): FixtureRecord => ({
        recordId: `r${i}`,
        sourceName: `src${i % 3}.txt`,
        title: r.title,
        text: r.kind === 'qa' && r.title ? `${r.title}\n${r.body}` : r.body,
        kind: r.kind,
      }),
    ),
  );
  const query = fc.array(fc.constantFrom(...vocab, 'mongolia', 'what'), { minLength: 0, maxLength: 5 }).map((w) => w.join(' '));

  it('never dangles a marker, cites every source once, numbers in order', () => {
    fc.assert(
      fc.property(records, query, (recs, q) => {
        const { retrieve, options } = retrieverFor(recs);
        const a = answerExtractively(q, retrieve(q), options);
        if (!a.grounded) {
          // The refusal follows the question's language ("café café café" reads as Spanish).
          expect(a).toEqual(notFound(q, options.stats?.language ?? 'en'));
          return;
        }
        expectWellCited(a);
        expect(new Set(a.sources.map((s) => s.recordId)).size).toBe(a.sources.length);
        for (const s of a.sources) expect(recs.some((r) => r.recordId === s.recordId && collapseSpace(r.text).includes(collapseSpace(s.passage)))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('answer-or-refuse confidence', () => {
  it('grows with coverage and with the best record’s score, on a scale that does not depend on the knowledge base’s size', () => {
    expect(confidenceOf(0.9, 6, 30)).toBeGreaterThan(confidenceOf(0.4, 6, 30));
    expect(confidenceOf(0.6, 9, 30)).toBeGreaterThan(confidenceOf(0.6, 3, 30));
    // The same match (two rare words) in a small and a large knowledge base.
    const rare = (n: number) => Math.log(1 + (n - 0.5) / 1.5);
    expect(matchedRareWords(2 * rare(10), 10)).toBeCloseTo(2, 6);
    expect(matchedRareWords(2 * rare(5000), 5000)).toBeCloseTo(2, 6);
    for (const c of [confidenceOf(0, 0, 1), confidenceOf(1, 100, 1)]) expect(c).toBeGreaterThanOrEqual(0);
  });
});
