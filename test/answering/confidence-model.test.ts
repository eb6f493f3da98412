/**
 * The answer-or-refuse model in confidence.ts is the one `eval/calibrate.ts` fits on the tuning half of
 * the visitor-question sets. Sessions 6–9 changed what its features measure while the weights
 * stayed those of session 5; this test fails when the answerer changes enough that the fitted
 * weights move, so the model is refitted (and its threshold swept again) rather than left stale.
 */
import { describe, expect, it } from 'vitest';
import { CONFIDENCE_MODEL } from '../../src/knowledge/answering/confidence.js';
import { calibrationExamples, fitLogistic } from '../../eval/calibrate.js';

describe('the confidence model', () => {
  it('is the logistic regression fitted on the tuning half', () => {
    const data = calibrationExamples();
    expect(data.length).toBeGreaterThan(100);
    const fitted = fitLogistic(data);
    // The constants are the fit rounded to two decimals.
    expect(Math.abs(fitted.bias - CONFIDENCE_MODEL.bias)).toBeLessThanOrEqual(0.01);
    expect(Math.abs(fitted.coverage - CONFIDENCE_MODEL.coverage)).toBeLessThanOrEqual(0.01);
    expect(Math.abs(fitted.score - CONFIDENCE_MODEL.score)).toBeLessThanOrEqual(0.01);
  });
});
