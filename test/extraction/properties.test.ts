import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/errors.js';
import { firstInvalidUtf8Offset } from '../../src/knowledge/extraction/decode.js';
import { extract } from '../../src/knowledge/extraction/index.js';
import { scanJson } from '../../src/json-scan.js';
import type { Extraction, SourceFormat } from '../../src/knowledge/extraction/types.js';
import { bytes } from './helpers.js';

const formats: SourceFormat[] = ['json', 'jsonl', 'txt', 'md'];
const allowedCodes = new Set(['invalid_json', 'invalid_utf8', 'no_extractable_text', 'too_deeply_nested']);
const runs = { numRuns: Number(process.env.FC_RUNS ?? 300) };

/** Checks the contract of one call: a well-formed Extraction, or one of the four DomainErrors. */
function checkContract(input: Uint8Array, format: SourceFormat, max?: number): void {
  let result: Extraction;
  try {
    result = extract(input, format, max === undefined ? undefined : { maxRecordChars: max });
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    const e = err as DomainError;
    expect(allowedCodes.has(e.code)).toBe(true);
    if (e.code === 'invalid_json' || e.code === 'too_deeply_nested') {
      expect(Number.isInteger(e.extra.line) && (e.extra.line as number) >= 1).toBe(true);
      expect(Number.isInteger(e.extra.column) && (e.extra.column as number) >= 1).toBe(true);
    }
    if (e.code === 'invalid_utf8') {
      expect(e.extra.offset).toBe(firstInvalidUtf8Offset(input));
    }
    return;
  }
  const limit = max ?? 2000;
  expect(result.records.length).toBeGreaterThan(0);
  for (const r of result.records) {
    expect(['qa', 'product', 'passage']).toContain(r.kind);
    expect(r.text.trim()).not.toBe('');
    expect(r.text.length).toBeLessThanOrEqual(limit);
    if (r.title !== undefined) expect(r.title.trim()).not.toBe('');
  }
  for (const r of result.rejected) {
    expect(r.at).toMatch(/^(item|line) \d+$/);
    expect(r.reason).not.toBe('');
  }
}

/** Text built from pieces that exercise every parser branch far more often than random characters would. */
const markupPiece = fc.constantFrom(
  '\n',
  '\n\n',
  '\r\n',
  ' ',
  '  ',
  '\t',
  '# ',
  '## ',
  '###### ',
  '=====',
  '-----',
  '---',
  '***',
  '```',
  '~~~',
  '> ',
  '- ',
  '* ',
  '1. ',
  '| a | b |',
  '|---|',
  'Q:',
  'A:',
  'Question: ',
  'Answer: ',
  '**',
  '__',
  '_',
  '*',
  '`',
  '?',
  '.',
  '! ',
  '[',
  ']',
  '(',
  ')',
  '![x](y)',
  '[t](u)',
  '<b>',
  '</b>',
  '<!--',
  '-->',
  '&amp;',
  '&#0;',
  '&#x1F600;',
  '\\',
  'word',
  'Sentence one. ',
  'Why? ',
  '😀',
  'e\u0301',
  '\u00a0',
  '\u0000',
  '\uFEFF',
  '{',
  '}',
  '"',
  ':',
  ',',
  '0',
  '[[[[',
  ']]]]',
  'null',
  'true',
  '"q":',
  '"answer":',
  '"name":"x",',
  '"price":1',
);
const markupText = fc.array(markupPiece, { maxLength: 80 }).map((parts) => parts.join(''));
const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 300 }), markupText);
const maxChars = fc.option(fc.integer({ min: 2, max: 400 }), { nil: undefined });

describe('extract never throws anything but the four DomainErrors', () => {
  it.each(formats)('arbitrary bytes as %s', (format) => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), maxChars, (input, max) => checkContract(input, format, max)),
      runs,
    );
  });

  it.each(formats)('arbitrary strings as %s', (format) => {
    fc.assert(
      fc.property(anyText, maxChars, (text, max) => checkContract(bytes(text), format, max)),
      runs,
    );
  });

  it.each(['json', 'jsonl'] as const)('arbitrary JSON values as %s', (format) => {
    const doc = fc.oneof(
      fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v)),
      fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 8 }).map((vs) => vs.map((v) => JSON.stringify(v)).join('\n')),
      fc
        .array(fc.dictionary(fc.constantFrom('question', 'Answer', 'name', 'price', 'id', 'title', 'specs', 'q', 'a', 'text'), fc.jsonValue({ maxDepth: 3 })), {
          maxLength: 6,
        })
        .map((vs) => JSON.stringify(vs)),
    );
    fc.assert(
      fc.property(doc, maxChars, (text, max) => checkContract(bytes(text), format, max)),
      runs,
    );
  });

  it('non-integer and absurd size limits are tolerated', () => {
    fc.assert(
      fc.property(markupText, fc.oneof(fc.double(), fc.integer({ min: -5, max: 3 })), (text, max) => {
        for (const format of formats) {
          try {
            extract(bytes(text), format, { maxRecordChars: max });
          } catch (err) {
            expect(err).toBeInstanceOf(DomainError);
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('the JSON scanner', () => {
  const jsonPiece = fc.constantFrom(
    '{',
    '}',
    '[',
    ']',
    ',',
    ':',
    ' ',
    '\n',
    '\t',
    '\r',
    '"',
    '"a"',
    '"\\u12',
    '"\\u00e9"',
    '"\\x"',
    '\\',
    '-',
    '0',
    '01',
    '1.5',
    '1.',
    '.5',
    '1e5',
    '1E+',
    '-0',
    'true',
    'tru',
    'false',
    'null',
    'nul',
    'x',
    '😀',
    '\u0001',
    '\u2028',
  );
  const almostJson = fc.oneof(
    fc.array(jsonPiece, { maxLength: 30 }).map((p) => p.join('')),
    fc.json({ maxDepth: 4 }).chain((j) => fc.tuple(fc.nat({ max: j.length }), jsonPiece).map(([at, piece]) => j.slice(0, at) + piece + j.slice(at))),
    fc.json({ maxDepth: 4 }),
  );

  it('accepts exactly what JSON.parse accepts', () => {
    fc.assert(
      fc.property(almostJson, (text) => {
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        expect(scanJson(text, 1000).ok).toBe(parses);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('UTF-8 offsets', () => {
  it('agree with TextDecoder on validity, and the prefix before the offset is valid', () => {
    const strict = new TextDecoder('utf-8', { fatal: true });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (input) => {
        const offset = firstInvalidUtf8Offset(input);
        let valid = true;
        try {
          strict.decode(input);
        } catch {
          valid = false;
        }
        expect(offset === -1).toBe(valid);
        if (offset >= 0) expect(() => strict.decode(input.subarray(0, offset))).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });

  it('point at the first bad byte after any valid text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 50 }), fc.constantFrom(0x80, 0xbf, 0xc0, 0xc1, 0xf5, 0xff), (prefix, bad) => {
        const valid = bytes(prefix);
        const input = Uint8Array.from([...valid, bad, 0x41]);
        expect(firstInvalidUtf8Offset(input)).toBe(valid.length);
      }),
    );
  });
});
