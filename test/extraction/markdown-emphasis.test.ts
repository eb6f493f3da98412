/**
 * Emphasis markers in Markdown lines: a `*` / `_` run that opens or closes emphasis goes, one
 * inside a word, between spaces or after a backslash stays. Judged by code around a pattern
 * without the `u` flag, because V8 ran the former `u` pattern with a backtrack entry per
 * character on two-byte text, and a long run overflowed (RangeError) — the failure below.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanInline, stripEmphasis } from '../../src/knowledge/extraction/markdown-inline.js';
import { run } from './helpers.js';

/** The rule as one pattern (what the extractor used until session 24): the oracle on short lines, where V8 runs it safely. */
const ORACLE = /(?<=^|[\s\p{P}\p{S}])(?<![*_\\])[*_]+(?![*_])(?=\S)|(?<=[^\s*_\\])[*_]+(?![*_])(?=$|[\s\p{P}\p{S}])/gu;

describe('emphasis markers', () => {
  it.each([
    ['*stress* and _emphasis_', 'stress and emphasis'],
    ['snake_case and 5*3 stay', 'snake_case and 5*3 stay'],
    ['2 * 3 = 6', '2 * 3 = 6'],
    ['\\*not emphasis\\*', '\\*not emphasis\\*'],
    ['(*note*)', '(note)'],
    ['«_quoted_»', '«quoted»'],
    ['😀*smile*😀', '😀smile😀'],
    ['é_a_é', 'é_a_é'],
    ['***', '***'],
  ])('%s', (line, expected) => {
    expect(stripEmphasis(line)).toBe(expected);
  });

  it('removes exactly the runs the single-pattern rule removes (property)', () => {
    const char = fc.constantFrom('*', '_', '*', '_', 'a', 'é', ' ', '\t', '.', '!', '\\', '😀', '€', '-', '中');
    fc.assert(
      fc.property(fc.array(char, { maxLength: 24 }), (chars) => {
        const line = chars.join('');
        expect(stripEmphasis(line)).toBe(line.replace(ORACLE, ''));
      }),
      { numRuns: 3000 },
    );
  });

  it('a 10 MB run of underscores in two-byte text is cleaned, not a RangeError', () => {
    const run = '_'.repeat(10 * 1024 * 1024);
    expect(cleanInline(`😀 a${run} b`)).toBe('😀 a b');
    expect(cleanInline(`😀 ${run}word`)).toBe('😀 word');
    expect(cleanInline(`😀 a${run}b`)).toBe(`😀 a${run}b`);
  });

  it('a Markdown upload with a long underscore line and an emoji extracts', () => {
    const result = run(`Smile 😀\n\na${'_'.repeat(10 * 1024 * 1024)}\n\nReturns are free.`, 'md');
    expect(result.records.map((r) => r.text).join('\n')).toMatch(/Smile 😀[\s\S]*Returns are free\./);
  });
});
