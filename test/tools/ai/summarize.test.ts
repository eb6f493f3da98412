import { describe, expect, it } from 'vitest';
import { runTool } from '../../../src/tools/runner.js';
import { run } from '../../../src/tools/summarize/core.js';
import { meta } from '../../../src/tools/summarize/meta.js';
import { similarity, textRank } from '../../../src/tools/summarize/textrank.js';
import { exampleCases, exampleInput, expectExampleOutput, toolRefusal } from '../support.js';
import { apiRefusal } from '../support.js';

describe('summarize examples', () => {
  it.each(exampleCases(meta))('%s', (_title, example) => {
    expectExampleOutput(example, run(exampleInput(meta, example)));
  });
});

describe('summarize', () => {
  it('ranks the sentence that shares words with every other one highest', () => {
    const scores = textRank([
      ['apple', 'pear'],
      ['apple', 'plum', 'pear', 'fig'],
      ['plum', 'fig'],
      ['stone', 'rock'],
    ]);
    expect(scores.indexOf(Math.max(...scores))).toBe(1);
    expect(scores[3]).toBeLessThan(scores[0] as number);
  });

  it('measures overlap symmetrically and gives unrelated sentences 0', () => {
    expect(similarity(['a', 'b', 'c'], ['b', 'c', 'd'])).toBeCloseTo(2 / (2 * Math.log(3)), 6);
    expect(similarity(['a', 'b'], ['c', 'd'])).toBe(0);
    expect(similarity([], ['a'])).toBe(0);
  });

  it('keeps sentences in their original order with their indices, and the default of three', () => {
    const text = Array.from({ length: 12 }, (_, i) => `Sentence ${i} talks about rivers and ${i % 3 === 0 ? 'rivers again' : `topic${i}`}.`).join(' ');
    const output = run({ text });
    expect(output.sentences).toHaveLength(3);
    expect(output.totalSentences).toBe(12);
    const indices = output.sentences.map((s) => s.index);
    expect(indices).toEqual([...indices].sort((a, b) => a - b));
    expect(output.result).toBe(output.sentences.map((s) => s.text).join(' '));
  });

  it('returns an empty summary for empty text, and refuses sentences and ratio together', async () => {
    expect(run({ text: '' })).toMatchObject({ result: '', sentences: [], totalSentences: 0 });
    expect((await toolRefusal(() => run({ text: 'A. B. C. D.', sentences: 2, ratio: 0.5 }))).details.field).toBe('ratio');
  });

  it('finishes on hostile input: one very long sentence and many identical ones', () => {
    // A "sentence" of 100 000 characters is cut into pieces of at most 2 000 (see shared/ai-text.ts).
    const long = run({ text: 'word '.repeat(20_000) });
    expect(long.totalSentences).toBeGreaterThan(1);
    expect(long.sentences).toHaveLength(3);
    const same = run({ text: 'Same words here. '.repeat(300), sentences: 2 });
    expect(same.sentences.map((s) => s.index)).toEqual([0, 1]);
  });

  it('refuses texts of more than 1 500 sentences as too large', async () => {
    const error = await toolRefusal(() => run({ text: 'Short one. '.repeat(1501) }));
    expect(error.details).toEqual({ field: 'text', kind: 'too_large' });
  });

  it('runs through the API and refuses bad options', async () => {
    expect(await runTool('summarize', { text: 'One. Two.' })).toMatchObject({ totalSentences: 2 });
    expect((await apiRefusal('summarize', { text: 'x', ratio: 1.5 })).code).toBe('validation_failed');
    expect((await apiRefusal('summarize', { text: 'x', sentences: 0 })).code).toBe('validation_failed');
    expect((await apiRefusal('summarize', { text: 'A. B. C.', sentences: 1, ratio: 0.5 })).code).toBe('validation_failed');
  });
});
