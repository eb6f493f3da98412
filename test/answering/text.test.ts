import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collapseSpace, splitSentences } from '../../src/knowledge/answering/sentences.js';
import { recordUnits, type Unit, unitTermCount } from '../../src/knowledge/answering/units.js';
import { answerTypeTerm } from '../../src/knowledge/language/answer-types.js';
import { tokensOf } from '../../src/knowledge/answering/stream-tokens.js';

describe('tokensOf', () => {
  it('cuts words with their trailing space and punctuation', () => {
    expect(tokensOf('Returns take 30 days [1].')).toEqual(['Returns ', 'take ', '30 ', 'days ', '[1].']);
    expect(tokensOf('  lead')).toEqual(['  ', 'lead']);
    expect(tokensOf('')).toEqual([]);
  });

  it('cuts long runs without spaces into small pieces', () => {
    const chunks = tokensOf('我们的退货政策是三十天内可以退货。');
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe('我们的退货政策是三十天内可以退货。');
  });

  it('concatenates back to the answer exactly (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
        expect(tokensOf(s).join('')).toBe(s);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '\n', '。', '👩‍👩‍👧', 'é', '[', '1', ']'), maxLength: 200 }), (s) => {
        const chunks = tokensOf(s);
        expect(chunks.join('')).toBe(s);
        for (const c of chunks) expect(c.length).toBeGreaterThan(0);
      }),
    );
  });
});

describe('splitSentences', () => {
  it('splits at sentence ends and line breaks and collapses whitespace', () => {
    expect(splitSentences('First one.  Second\n one? Third!\nPrice: 10\n\nColour: red').map((s) => s.text)).toEqual([
      'First one.',
      'Second one?',
      'Third!',
      'Price: 10',
      'Colour: red',
    ]);
  });

  it('does not split after common abbreviations or initials', () => {
    expect(splitSentences('Mr. Smith met Dr. Jones. J. R. R. Tolkien wrote it. See e.g. this.').map((s) => s.text)).toEqual([
      'Mr. Smith met Dr. Jones.',
      'J. R. R. Tolkien wrote it.',
      'See e.g. this.',
    ]);
  });

  it('keeps a numbered or lettered list item together with its number', () => {
    const text = '1. On the sign-in page, click Forgot password?\n2. Enter your email.\n12) Wait.\nb. Done.\nWe ship in 2.\nItem 3.';
    expect(splitSentences(text).map((s) => s.text)).toEqual([
      '1. On the sign-in page, click Forgot password?',
      '2. Enter your email.',
      '12) Wait.',
      'b. Done.',
      'We ship in 2.',
      'Item 3.',
    ]);
    expect(splitSentences('Steps:\n1.').map((s) => s.text)).toEqual(['Steps:', '1.']);
  });

  it("does not take a list item's number for a word of the item", () => {
    const record = { recordId: 'r', sourceName: 'help.md', title: 'Resetting your password', kind: 'passage' as const, score: 1, text: 'Before you start, sign out.\n- Item 4 of the menu.\n- Then 6 more.' };
    const units = recordUnits(record, 600, 'en').units;
    expect(units.map((u) => u.text)).toEqual(['Before you start, sign out.', '- Item 4 of the menu.', '- Then 6 more.']);
    expect(units[1]?.tf.has('4')).toBe(true);
  });

  it('keeps numbered steps together, with an item’s further sentences, and reads no step number as a word', () => {
    const record = {
      recordId: 'r',
      sourceName: 'help.md',
      title: 'Resetting your password',
      kind: 'passage' as const,
      score: 1,
      text: '1. Click Forgot password.\n2. Enter the email address you use.\n3. Open the email. The link is valid for 60 minutes.\n\nIf you use SSO, ask your IT team.',
    };
    const units = recordUnits(record, 600, 'en').units;
    expect(units.map((u) => u.text)).toEqual(['1. Click Forgot password. 2. Enter the email address you use. 3. Open the email. The link is valid for 60 minutes.', 'If you use SSO, ask your IT team.']);
    for (const n of ['1', '2', '3']) expect(units[0]?.tf.has(n), n).toBe(false);
    expect(units[0]?.tf.has('60')).toBe(true);
    // Steps that do not fit the budget whole stay apart.
    expect(recordUnits(record, 60, 'en').units.map((u) => u.text)).toEqual(['1. Click Forgot password.', '2. Enter the email address you use.', '3. Open the email.', 'The link is valid for 60 minutes.', 'If you use SSO, ask your IT team.']);
    expect(recordUnits(record, 60, 'en').units[1]?.tf.has('2')).toBe(false);
    // Nor as a quantity: "SOC 2" or "how many" is not answered by step 2.
    const steps = recordUnits({ ...record, recordId: 's', text: '1. Open the box.\n2. Call us.' }, 600, 'en').units;
    expect(steps.map((u) => u.text)).toEqual(['1. Open the box. 2. Call us.']);
    expect(unitTermCount(steps[0] as Unit, answerTypeTerm('quantity'))).toBe(0);
  });

  it('splits Chinese and Japanese sentences', () => {
    expect(splitSentences('日本語の文です。二つ目の文！').map((s) => s.text)).toEqual(['日本語の文です。', '二つ目の文！']);
  });

  it('reports offsets into the original text', () => {
    const text = '  Alpha beta.   Gamma delta.';
    for (const s of splitSentences(text, 100)) expect(text.slice(s.start - 100, s.start - 100 + s.text.length)).toBe(s.text);
  });
});

describe('collapseSpace', () => {
  it('makes every run of whitespace one space and trims, as one replacement did, for any text (property)', () => {
    const char = fc.constantFrom('a', 'b', '.', ' ', ' ', '\n', '\t', '\r', '\u00a0', '\u2003', '\u2028', '\ufeff', '\u200b', '日');
    fc.assert(
      fc.property(fc.array(char, { maxLength: 30 }).map((cs) => cs.join('')), (text) => {
        expect(collapseSpace(text)).toBe(text.replace(/\s+/g, ' ').trim());
      }),
      { numRuns: 2000 },
    );
  });
});
