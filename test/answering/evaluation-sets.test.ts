/**
 * The visitor-question sets (eval/sets/) are sound: every gold title names a record, every fact is
 * in a gold record, each set has the mix of questions and at least 25 records; and the
 * held-out set is left out of what the answerer is tuned on.
 */
import { describe, expect, it } from 'vitest';
import { checkSet, loadSet, setNames, tuningSetNames } from '../../eval/sets.js';

describe('the evaluation sets', () => {
  for (const name of setNames()) {
    it(`${name} is sound`, () => {
      expect(checkSet(loadSet(name))).toEqual([]);
    });
  }

  it('leaves the held-out sets out of tuning, and only them', () => {
    const heldOut = setNames().filter((name) => loadSet(name).heldOut);
    expect(heldOut).toEqual(['clinic-faq-en', 'driving-school-fr', 'help-questions-en', 'holiday-flat-de', 'outdoor-catalogue-en']);
    expect(tuningSetNames()).toEqual(setNames().filter((name) => !heldOut.includes(name)));
  });
});
