import { describe, expect, it } from 'vitest';
import type { UsageDelta, UsageStore } from '../../src/ports/storage.js';
import { UsageRecorder } from '../../src/knowledge/query/usage-recorder.js';

function capturingStore(): { store: UsageStore; batches: UsageDelta[][] } {
  const batches: UsageDelta[][] = [];
  const store = {
    recordUsage: async (deltas: UsageDelta[]) => {
      batches.push(deltas);
    },
  } as unknown as UsageStore;
  return { store, batches };
}

describe('UsageRecorder', () => {
  it('counts per knowledge base and UTC day, splitting exactly at midnight, and writes ISO times', async () => {
    const { store, batches } = capturingStore();
    const recorder = new UsageRecorder(store, (error) => {
      throw error;
    });
    const midnight = Date.UTC(2026, 10, 22);
    recorder.record({ ragId: 'kb_a', at: midnight - 1, cached: false, grounded: true, question: 'q1' });
    recorder.record({ ragId: 'kb_a', at: midnight - 1000, cached: true, grounded: false, question: '  why?  ' });
    recorder.record({ ragId: 'kb_a', at: midnight, cached: false, grounded: true, question: 'q3' });
    recorder.record({ ragId: 'kb_b', at: midnight - 1, cached: false, grounded: true, question: 'q4' });
    // Back to the earlier day after the later one: the day is recomputed, not assumed.
    recorder.record({ ragId: 'kb_a', at: midnight - 2, cached: false, grounded: true, question: 'q5' });
    await recorder.close();

    expect(batches).toHaveLength(1);
    const byKey = new Map(batches[0]?.map((d) => [`${d.ragId}/${d.day}`, d]));
    expect(byKey.get('kb_a/2026-11-21')).toEqual({
      ragId: 'kb_a',
      day: '2026-11-21',
      queries: 3,
      cacheHits: 1,
      unanswered: 1,
      unansweredQuestions: [{ question: 'why?' }],
      at: new Date(midnight - 2).toISOString(),
    });
    expect(byKey.get('kb_a/2026-11-22')).toMatchObject({ queries: 1, at: '2026-11-22T00:00:00.000Z' });
    expect(byKey.get('kb_b/2026-11-21')).toMatchObject({ queries: 1 });
    expect(byKey.size).toBe(3);
  });
});

describe('UsageRecorder and the same question', () => {
  const recorderWith = () => {
    const { store, batches } = capturingStore();
    const recorder = new UsageRecorder(store, (error) => {
      throw error;
    });
    return { recorder, batches };
  };
  const at = Date.UTC(2026, 10, 22, 12);

  it('groups "Price?", "price" and " PRICE ! " as one question, counted three times, in its latest wording', async () => {
    const { recorder, batches } = recorderWith();
    for (const question of ['Price?', 'price', ' PRICE ! ', 'Opening hours?']) recorder.record({ ragId: 'kb_a', at, cached: false, grounded: false, question });
    await recorder.close();
    expect(batches[0]?.[0]?.unanswered).toBe(4);
    expect(batches[0]?.[0]?.unansweredQuestions).toEqual(['PRICE !', 'PRICE !', 'PRICE !', 'Opening hours?'].map((question) => ({ question })));
  });

  it('counts a follow-up apart from the same words asked on their own or after another question, with the questions it leaned on', async () => {
    const { recorder, batches } = recorderWith();
    const refused = { ragId: 'kb_a', at, cached: false, grounded: false };
    recorder.record({ ...refused, question: 'And how long does that take?', askedAfter: 'Do you ship to Mexico?' });
    recorder.record({ ...refused, question: 'and how long does that take', askedAfter: 'do you ship to mexico' });
    recorder.record({ ...refused, question: 'And how long does that take?', askedAfter: 'Can I return a kettle?' });
    recorder.record({ ...refused, question: 'And how long does that take?' });
    await recorder.close();
    expect(batches[0]?.[0]?.unansweredQuestions).toEqual([
      { question: 'and how long does that take', askedAfter: 'do you ship to mexico' },
      { question: 'and how long does that take', askedAfter: 'do you ship to mexico' },
      { question: 'And how long does that take?', askedAfter: 'Can I return a kettle?' },
      { question: 'And how long does that take?' },
    ]);
  });

  it('keeps room for other questions when one question floods a batch', async () => {
    const { recorder, batches } = recorderWith();
    for (let i = 0; i < 1_000; i++) recorder.record({ ragId: 'kb_a', at, cached: false, grounded: false, question: i % 2 ? 'Price?' : 'price' });
    for (let i = 0; i < 300; i++) recorder.record({ ragId: 'kb_a', at, cached: false, grounded: false, question: `question ${i}` });
    await recorder.close();
    const questions = (batches[0]?.[0]?.unansweredQuestions ?? []).map((q) => q.question);
    expect(questions.filter((q) => q === 'Price?')).toHaveLength(200); // counted, up to the per-batch bound
    expect(new Set(questions).size).toBe(200); // the flood took one of the 200 places
    expect(questions).toContain('question 0');
    expect(questions).not.toContain('question 199'); // past the bound of distinct questions
  });
});

describe("UsageRecorder and visitors' feedback", () => {
  const at = Date.UTC(2026, 10, 22, 12);
  const recorderWith = () => {
    const { store, batches } = capturingStore();
    const recorder = new UsageRecorder(store, (error) => {
      throw error;
    });
    return { recorder, batches };
  };

  it('counts feedback in the day beside the queries, by question, the latest wording and records winning, and counts it as no query', async () => {
    const { recorder, batches } = recorderWith();
    recorder.record({ ragId: 'kb_a', at, cached: false, grounded: true, question: 'How long is the warranty?' });
    recorder.recordFeedback({ ragId: 'kb_a', at, question: 'How long is the warranty?', helpful: false, recordIds: ['rec_1'] });
    recorder.recordFeedback({ ragId: 'kb_a', at: at + 1, question: ' how long is the warranty ', helpful: true, recordIds: ['rec_2', 'rec_1'] });
    recorder.recordFeedback({ ragId: 'kb_a', at: at + 2, question: 'Cards?', helpful: false, recordIds: [] });
    await recorder.close();
    expect(batches[0]).toEqual([
      {
        ragId: 'kb_a',
        day: '2026-11-22',
        queries: 1,
        cacheHits: 0,
        unanswered: 0,
        unansweredQuestions: [],
        helpful: 1,
        unhelpful: 2,
        feedback: [
          { question: 'how long is the warranty', recordIds: ['rec_2', 'rec_1'], helpful: 1, unhelpful: 1 },
          { question: 'Cards?', recordIds: [], helpful: 0, unhelpful: 1 },
        ],
        at: new Date(at + 2).toISOString(),
      },
    ]);
  });

  it('bounds a flood: 200 questions a batch, each counted at most 200 times, while the day still counts all and its time moves on', async () => {
    const { recorder, batches } = recorderWith();
    for (let i = 0; i < 300; i++) recorder.recordFeedback({ ragId: 'kb_a', at, question: 'Same?', helpful: false, recordIds: [] });
    for (let i = 0; i < 250; i++) recorder.recordFeedback({ ragId: 'kb_a', at: at + i, question: `Question ${i}?`, helpful: false, recordIds: [] });
    await recorder.close();
    const delta = batches[0]?.[0];
    expect(delta?.unhelpful).toBe(550);
    expect(delta?.feedback).toHaveLength(200);
    expect(delta?.feedback?.[0]).toMatchObject({ question: 'Same?', unhelpful: 200 });
    // Feedback past the bound is not listed, but the batch's time is the latest feedback's.
    expect(delta?.at).toBe(new Date(at + 249).toISOString());
  });

  it('keeps a follow-up apart from the same words asked on their own, with the questions it leaned on', async () => {
    const { recorder, batches } = recorderWith();
    recorder.recordFeedback({ ragId: 'kb_a', at, question: 'How much is it?', askedAfter: 'Do you ship to Canada?', helpful: false, recordIds: ['rec_1'] });
    recorder.recordFeedback({ ragId: 'kb_a', at, question: 'how much is it', askedAfter: 'do you ship to canada', helpful: false, recordIds: ['rec_1'] });
    recorder.recordFeedback({ ragId: 'kb_a', at, question: 'How much is it?', helpful: false, recordIds: [] });
    await recorder.close();
    expect(batches[0]?.[0]?.feedback).toEqual([
      { question: 'how much is it', askedAfter: 'do you ship to canada', recordIds: ['rec_1'], helpful: 0, unhelpful: 2 },
      { question: 'How much is it?', recordIds: [], helpful: 0, unhelpful: 1 },
    ]);
  });
});
