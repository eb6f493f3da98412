/** The tidying of starter questions that do not go through the service: a page's own and the records' own. */
import { describe, expect, it } from 'vitest';
import { offeredQuestions, starterQuestionLimits } from '../../src/sdk/starter-questions.js';

describe('offeredQuestions', () => {
  it('keeps the order, collapses spaces, and leaves out blanks, repeats ignoring case and questions too long', () => {
    const long = `${'x'.repeat(starterQuestionLimits.maxChars)}?`;
    expect(offeredQuestions([' Do you ship  to Canada? ', '', '  ', 'do you ship to canada?', long, 'How long is the warranty?'])).toEqual([
      'Do you ship to Canada?',
      'How long is the warranty?',
    ]);
    expect(offeredQuestions([`${'é'.repeat(starterQuestionLimits.maxChars - 1)}?`])).toHaveLength(1); // counted in characters
  });

  it('offers at most the room left, none the owner already has', () => {
    const many = Array.from({ length: 8 }, (_, i) => `Question ${i + 1}?`);
    expect(offeredQuestions(many)).toHaveLength(starterQuestionLimits.maxQuestions);
    expect(offeredQuestions(many, 2, ['QUESTION 1?'])).toEqual(['Question 2?', 'Question 3?']);
    expect(offeredQuestions(many, 0)).toEqual([]);
  });
});
