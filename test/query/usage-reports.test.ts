/**
 * The usage report's own logic: the window of days, the totals, and the words no record uses beside
 * each unanswered question; when those cannot be found, the report still comes, without them. The
 * stores behind it are tested by the storage contract; here a store holding one report stands in.
 */
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/errors.js';
import type { AskedQuestion, UsageStore } from '../../src/ports/storage.js';
import { UsageReports } from '../../src/knowledge/query/usage-reports.js';

const stored = {
  days: [
    { day: '2026-11-30', queries: 3, cacheHits: 1, unanswered: 2, helpful: 2, unhelpful: 0 },
    { day: '2026-12-01', queries: 4, cacheHits: 0, unanswered: 1, helpful: 1, unhelpful: 1 },
  ],
  unanswered: [
    { question: 'Was kostet das Porto?', count: 2, lastAskedAt: '2026-12-01T08:00:00.000Z' },
    { question: 'Do you sell oat milk?', count: 1, lastAskedAt: '2026-11-30T08:00:00.000Z' },
    { question: 'And how long does that take?', askedAfter: 'Do you ship to Mexico?', count: 1, lastAskedAt: '2026-11-30T07:00:00.000Z' },
  ],
  feedback: [
    {
      question: 'How long is the warranty?',
      helpful: 1,
      unhelpful: 1,
      lastAt: '2026-12-01T09:00:00.000Z',
      records: [{ recordId: 'rec_warranty', title: 'Warranty', sourceName: 'faq.md' }],
    },
  ],
};

function reports(
  unknownWords: (ragId: string, questions: readonly string[]) => Promise<string[][]>,
  answeredNow?: (ragId: string, questions: readonly AskedQuestion[]) => Promise<(boolean | undefined)[]>,
) {
  const asked: { since: string; limit: number }[] = [];
  const failures: unknown[] = [];
  let flushed = 0;
  const store: UsageStore = {
    recordUsage: () => Promise.resolve(),
    usage: (owner, ragId, since, limit) => {
      asked.push({ since, limit });
      return Promise.resolve(owner === 'acc_owner' && ragId === 'kb_shop' ? stored : undefined);
    },
    dismissUnanswered: (owner, ragId, { question, askedAfter }) =>
      Promise.resolve(owner === 'acc_owner' && ragId === 'kb_shop' && question === 'Was kostet das Porto?' && askedAfter === undefined),
    dismissFeedback: (owner, ragId, { question }) => Promise.resolve(owner === 'acc_owner' && ragId === 'kb_shop' && question === 'How long is the warranty?'),
  };
  const service = new UsageReports({
    store,
    flush: () => {
      flushed++;
      return Promise.resolve();
    },
    unknownWords,
    answeredNow,
    limits: { queryRatePerMinute: 10, queryQuotaPerDay: 100 },
    onUnknownWordsFailed: (error) => failures.push(error),
    now: () => Date.parse('2026-12-01T12:00:00Z'),
  });
  return { service, asked, failures, flushed: () => flushed };
}

describe('usage reports', () => {
  it('flush first, read the last days, total them and add the words no record uses', async () => {
    const { service, asked, flushed } = reports((_, questions) => Promise.resolve(questions.map((q) => (q.includes('Porto') ? ['Porto'] : q.includes('oat') ? ['oat'] : []))));
    const report = await service.report('acc_owner', 'kb_shop', 7);
    expect(flushed()).toBe(1);
    expect(asked).toEqual([{ since: '2026-11-25', limit: 50 }]);
    expect(report.totals).toEqual({ queries: 7, cacheHits: 1, unanswered: 3, helpful: 3, unhelpful: 1 });
    expect(report.feedback).toEqual(stored.feedback);
    expect(report.limits).toEqual({ queriesPerMinute: 10, queriesPerDay: 100 });
    expect(report.unanswered.map((u) => u.unknownWords)).toEqual([['Porto'], ['oat'], []]);
    expect(report.unanswered[2]).toMatchObject({ question: 'And how long does that take?', askedAfter: 'Do you ship to Mexico?' });
  });

  it('mark the unanswered questions the records answer now, when that was asked, a follow-up asked after its questions', async () => {
    const reasked: AskedQuestion[] = [];
    const { service } = reports(
      () => Promise.resolve([[], [], []]),
      (_, questions) => {
        reasked.push(...questions);
        return Promise.resolve(questions.map((q) => (q.question.includes('Porto') ? true : q.askedAfter ? false : undefined)));
      },
    );
    const report = await service.report('acc_owner', 'kb_shop');
    expect(report.unanswered.map((u) => [u.question, u.answeredNow])).toEqual([
      ['Was kostet das Porto?', true],
      ['Do you sell oat milk?', undefined],
      ['And how long does that take?', false],
    ]);
    expect(reasked).toEqual([
      { question: 'Was kostet das Porto?' },
      { question: 'Do you sell oat milk?' },
      { question: 'And how long does that take?', askedAfter: 'Do you ship to Mexico?' },
    ]);
    expect('answeredNow' in (report.unanswered[1] ?? {})).toBe(false);
    // Not asked (a model answers): no field at all.
    expect((await reports(() => Promise.resolve([])).service.report('acc_owner', 'kb_shop')).unanswered.some((u) => 'answeredNow' in u)).toBe(false);
  });

  it('come without the words when they cannot be found, and say so', async () => {
    const down = new Error('connection refused');
    const { service, failures } = reports(
      () => Promise.reject(down),
      () => Promise.reject(down),
    );
    const report = await service.report('acc_owner', 'kb_shop');
    expect(report.unanswered.map((u) => [u.question, u.unknownWords])).toEqual([
      ['Was kostet das Porto?', []],
      ['Do you sell oat milk?', []],
      ['And how long does that take?', []],
    ]);
    expect(report.unanswered.some((u) => 'answeredNow' in u)).toBe(false);
    expect(failures).toEqual([down, down]);
  });

  it("are not found for another account's knowledge base, nor is a question not listed dismissed", async () => {
    const { service } = reports(() => Promise.resolve([]));
    await expect(service.report('acc_other', 'kb_shop')).rejects.toMatchObject({ code: 'not_found' });
    await expect(service.dismiss('acc_owner', 'kb_shop', { question: 'Do you sell oat milk?' })).rejects.toBeInstanceOf(DomainError);
    await expect(service.dismiss('acc_owner', 'kb_shop', { question: 'Was kostet das Porto?', askedAfter: 'Hallo?' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(service.dismiss('acc_owner', 'kb_shop', { question: 'Was kostet das Porto?' })).resolves.toBeUndefined();
    await expect(service.dismissFeedback('acc_owner', 'kb_shop', { question: 'Was kostet das Porto?' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(service.dismissFeedback('acc_owner', 'kb_shop', { question: 'How long is the warranty?' })).resolves.toBeUndefined();
  });
});
