/**
 * The benchmark's generated questions keep one shape for a whole run: a late question is no
 * heavier than an early one. Until session 25 the generators appended " (message N)" once their
 * wordings were used up, and N, a number the records also hold, made every later question match
 * thousands of records (docs/indexing.md, "Session 25").
 */
import { describe, expect, it } from 'vitest';
import { QUESTIONS } from '../../bench/faq.js';
import { scaleQuestions, syntheticRecord, uniqueQuestion } from '../../bench/generated.js';

/** Words that are numbers. */
const numbers = (text: string) => text.match(/\b\d+\b/g) ?? [];

describe('generated benchmark questions', () => {
  it('uniqueQuestion: distinct over its whole walk, then the same walk again, never with a number the FAQ questions lack', () => {
    const faqNumbers = new Set(QUESTIONS.flatMap(numbers));
    const seen = new Set<string>();
    let i = 0;
    for (; ; i++) {
      const question = uniqueQuestion(i);
      if (seen.has(question)) break;
      seen.add(question);
      for (const n of numbers(question)) expect(faqNumbers.has(n), `${question} (${i})`).toBe(true);
    }
    // Far past what any memo holds (256 questions per knowledge base).
    expect(i).toBeGreaterThan(80_000);
    expect(uniqueQuestion(i)).toBe(uniqueQuestion(0));
    expect(uniqueQuestion(i + 12_345)).toBe(uniqueQuestion(12_345));
  });

  it('scaleQuestions: the 20,000th question has the shape of the first, and no number outside a model code', () => {
    const next = scaleQuestions(100_000);
    const words = (text: string) => text.split(/\s+/).length;
    const early: number[] = [];
    const late: number[] = [];
    for (let i = 0; i < 20_000; i++) {
      const question = next();
      // A question's numbers are parts of a record's model code, which is one token with its letters.
      expect(numbers(question), question).toEqual([]);
      // Whole cycles of the 3,072 wordings, the first and the sixth.
      if (i < 3072) early.push(words(question));
      if (i >= 5 * 3072 && i < 6 * 3072) late.push(words(question));
    }
    const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
    expect(Math.abs(mean(late) - mean(early))).toBeLessThan(0.5);
    // The model code is the record's, letters and digits as one word.
    expect(syntheticRecord(7).question).toMatch(/ [a-z]+\d+\?$/);
  });
});
