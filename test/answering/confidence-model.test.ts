/**
 * The answer-or-refuse model in confidence.ts is the one `eval/calibrate.ts` fits on the tuning half of
 * the visitor-question sets. Sessions 6–9 changed what its features measure while the weights
 * stayed those of session 5; this test fails when the answerer changes enough that the fitted
 * weights move, so the model is refitted (and its threshold swept again) rather than left stale.
 */
import { describe, expect, it } from 'vitest';
import { CONFIDENCE_MODEL } from '../../src/knowledge/answering/confidence.js';
import { bootstrapSpread, calibrationExamples, fitLogistic, refitTolerance } from '../../eval/calibrate.js';

describe('the confidence model', () => {
  const data = calibrationExamples();
  const fitted = fitLogistic(data);
  const tolerance = refitTolerance(bootstrapSpread(data));

  it('is the logistic regression fitted on the tuning half, within a tenth of the fit’s own spread', () => {
    expect(data.length).toBeGreaterThan(100);
    expect(Math.abs(fitted.bias - CONFIDENCE_MODEL.bias)).toBeLessThanOrEqual(tolerance.bias);
    expect(Math.abs(fitted.coverage - CONFIDENCE_MODEL.coverage)).toBeLessThanOrEqual(tolerance.coverage);
    expect(Math.abs(fitted.score - CONFIDENCE_MODEL.score)).toBeLessThanOrEqual(tolerance.score);
  });

  it('is held to a tolerance that a stale model exceeds', () => {
    // Session 5's weights, kept while sessions 6–9 changed what the features measure, were then
    // 0.32, 0.62 and 0.17 from the fit (docs/quality.md): such a model must fail the check above.
    const stale = { bias: -2.3, coverage: 0.57, score: 0.76 };
    expect(Math.abs(fitted.coverage - stale.coverage)).toBeGreaterThan(tolerance.coverage);
    for (const t of [tolerance.bias, tolerance.coverage, tolerance.score]) {
      expect(t).toBeGreaterThanOrEqual(0.01);
      expect(t).toBeLessThan(0.1);
    }
    // Deterministic: the same resamples on every run.
    expect(bootstrapSpread(data)).toEqual(bootstrapSpread(data));
  });
});
