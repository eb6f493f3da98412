/**
 * The streaming citation filter used on LLM output: whatever the chunking,
 * the text that comes out is the same, and no marker in it dangles.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { citedIndices, removeDanglingCitations } from '../../src/knowledge/answering/citations.js';
import { StreamingCitationFilter } from '../../src/knowledge/answering/llm-citation-filter.js';

function run(chunks: string[], sources: number): string {
  const filter = new StreamingCitationFilter(sources);
  return chunks.map((c) => filter.push(c)).join('') + filter.flush();
}

/** Cuts `text` at the given positions. */
function cut(text: string, at: number[]): string[] {
  const points = [...new Set(at.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let last = 0;
  for (const p of points) {
    out.push(text.slice(last, p));
    last = p;
  }
  out.push(text.slice(last));
  return out;
}

const piece = fc.oneof(
  fc.constantFrom('Orders ', 'ship ', 'from ', 'Bremen', '.', ' ', '  ', '\n', '[', ']', '【', '】', ',', '-', '–', ';', 'a', '9', '0', '\t'),
  fc.integer({ min: 0, max: 12 }).map((n) => `[${n}]`),
  fc.integer({ min: 0, max: 12 }).map((n) => ` [${n}]`),
  fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 9 })).map(([a, b]) => ` [${a}, ${b}]`),
);
const text = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(''));

describe('StreamingCitationFilter', () => {
  it('removes markers that point at no source, with the space before them', () => {
    expect(run(['Orders ship from Bremen [1]', ' and returns', ' are free [7].', ' Ask us [', '99] any time [1, 12].'], 2)).toBe(
      'Orders ship from Bremen [1] and returns are free. Ask us any time [1].',
    );
    expect(run(['A [1]', '[2]', ' [3].'], 2)).toBe('A [1][2].');
    expect(run(['Keep [ this ] and [a] too.'], 1)).toBe('Keep [ this ] and [a] too.');
    expect(run(['Spaces   ', '  stay.'], 1)).toBe('Spaces     stay.');
  });

  it('cleans again when a removal joins the text around it into a new marker', () => {
    // Found by the property below: removing " [0]" turned "【9 [0]】" into "【9】".
    expect(run(['【9 [0]】'], 0)).toBe('');
    expect(run(['【', '9', ' [', '0', ']', '】 ok'], 0)).toBe(' ok');
    expect(run(['[2 [7]]'], 2)).toBe('[2]');
    expect(run(['[1-9]'], 3)).toBe('');
  });

  it('releases text longer than any marker and still catches a marker after it', () => {
    const long = `[${'1, '.repeat(400)}`;
    const out = run([long, '[7] end'], 2);
    expect(out.endsWith(' end')).toBe(true);
    expect(citedIndices(out).every((n) => n >= 1 && n <= 2)).toBe(true);
  });

  it('gives the same text however the stream is chunked', () => {
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 10 }), fc.integer({ min: 0, max: 6 }), (t, at, sources) => {
        expect(run(cut(t, at), sources)).toBe(run([t], sources));
      }),
      { numRuns: 500 },
    );
  });

  it('never lets a dangling marker through', () => {
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 10 }), fc.integer({ min: 0, max: 6 }), (t, at, sources) => {
        for (const cleaned of [run(cut(t, at), sources), removeDanglingCitations(t, sources)]) {
          for (const n of citedIndices(cleaned)) {
            expect(n).toBeGreaterThanOrEqual(1);
            expect(n).toBeLessThanOrEqual(sources);
          }
        }
      }),
      { numRuns: 3000 },
    );
  });
});
