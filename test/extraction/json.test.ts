import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/knowledge/fingerprint.js';
import { expectError, run, summary } from './helpers.js';

type Row = [kind: string, title: string | undefined, text: string];

describe('JSON and JSON Lines extraction', () => {
  const cases: { name: string; format: 'json' | 'jsonl'; input: string; records: Row[] }[] = [
    {
      name: 'array of Q&A objects',
      format: 'json',
      input: JSON.stringify([
        { question: 'How do I reset my password?', answer: 'Use the link on the sign-in page.' },
        { Q: 'Is there a free plan?', A: 'Yes, up to 3 bots.' },
      ]),
      records: [
        ['qa', 'How do I reset my password?', 'How do I reset my password?\nUse the link on the sign-in page.'],
        ['qa', 'Is there a free plan?', 'Is there a free plan?\nYes, up to 3 bots.'],
      ],
    },
    {
      name: 'question/answer keys with other spellings, extra fields appended, ids dropped',
      format: 'json',
      input: JSON.stringify([{ _id: 'a1', User_Prompt: 'x', Query: 'Refunds?', Response: 'Within 30 days.', category: 'Billing', createdAt: '2024-01-01' }]),
      records: [['qa', 'Refunds?', 'Refunds?\nWithin 30 days.\nUser prompt: x\nCategory: Billing']],
    },
    {
      name: 'title paired with an answer is a Q&A',
      format: 'json',
      input: JSON.stringify([{ title: 'Shipping times', solution: 'Two to five days.' }]),
      records: [['qa', 'Shipping times', 'Shipping times\nTwo to five days.']],
    },
    {
      name: 'object holding one array',
      format: 'json',
      input: JSON.stringify({ version: 2, faqs: [{ question: 'A?', answer: 'B.' }] }),
      records: [['qa', 'A?', 'A?\nB.']],
    },
    {
      name: 'object with several arrays takes the first whose items are objects',
      format: 'json',
      input: JSON.stringify({ tags: ['x', 'y'], items: [{ name: 'Desk', price: 120 }], other: [{ name: 'No' }] }),
      records: [['product', 'Desk', 'Name: Desk\nPrice: 120']],
    },
    {
      name: 'single-key wrappers are followed down',
      format: 'json',
      input: JSON.stringify({ data: { faqs: [{ question: 'A?', answer: 'B.' }] } }),
      records: [['qa', 'A?', 'A?\nB.']],
    },
    {
      name: 'object with only an array of strings',
      format: 'json',
      input: JSON.stringify({ notes: ['First note.', '  ', 'Second note.'] }),
      records: [
        ['passage', undefined, 'First note.'],
        ['passage', undefined, 'Second note.'],
      ],
    },
    {
      name: 'record-like object without an array is one item',
      format: 'json',
      input: JSON.stringify({ productName: 'Lamp', cost: '15 EUR', description: 'A desk lamp.' }),
      records: [['product', 'Lamp', 'Name: Lamp\nCost: 15 EUR\nDescription: A desk lamp.']],
    },
    {
      name: 'object of scalars becomes a passage',
      format: 'json',
      input: JSON.stringify({ opening_hours: '9-17', weekend: false, seats: 40 }),
      records: [['passage', undefined, 'Opening hours: 9-17\nWeekend: no\nSeats: 40']],
    },
    {
      name: 'product with nested specs, arrays of scalars and arrays of objects',
      format: 'json',
      input: JSON.stringify([
        {
          name: 'Trail Boot',
          price: 129.5,
          SKU: 'TB-1',
          features: ['waterproof', 'vibram sole'],
          specs: { weight: '2 kg', size: { eu: 42, us: 9 } },
          variants: [{ colour: 'brown', id: 7 }, { colour: 'black' }],
          inStock: true,
          discontinued: null,
        },
      ]),
      records: [
        [
          'product',
          'Trail Boot',
          [
            'Name: Trail Boot',
            'Price: 129.5',
            'SKU: TB-1',
            'Features: waterproof, vibram sole',
            'Specs › Weight: 2 kg',
            'Specs › Size › Eu: 42',
            'Specs › Size › Us: 9',
            'Variants 1 › Colour: brown',
            'Variants 2 › Colour: black',
            'In stock: yes',
          ].join('\n'),
        ],
      ],
    },
    {
      name: 'a name alone is not a product',
      format: 'json',
      input: JSON.stringify([{ name: 'Ada Lovelace', role: 'Engineer', team: { name: 'Core' } }]),
      records: [['passage', 'Ada Lovelace', 'Name: Ada Lovelace\nRole: Engineer\nTeam › Name: Core']],
    },
    {
      name: 'strings in an array become passages; escaped controls and CRLF are cleaned',
      format: 'json',
      input: '["Line one\\r\\nline two\\u0000", "  padded  "]',
      records: [
        ['passage', undefined, 'Line one\nline two'],
        ['passage', undefined, 'padded'],
      ],
    },
    {
      name: 'JSON Lines saved as .json',
      format: 'json',
      input: '{"question":"A?","answer":"B."}\n\n{"text":"Just text"}\n',
      records: [
        ['qa', 'A?', 'A?\nB.'],
        ['passage', undefined, 'Text: Just text'],
      ],
    },
    {
      name: '.jsonl with blank lines and a string line',
      format: 'jsonl',
      input: '{"name":"Pen","price":"2"}\n   \n"a loose note"\n',
      records: [
        ['product', 'Pen', 'Name: Pen\nPrice: 2'],
        ['passage', undefined, 'a loose note'],
      ],
    },
  ];

  it.each(cases)('$name', ({ input, format, records }) => {
    expect(summary(run(input, format))).toEqual(records);
  });

  it('rejects non-object items with their 1-based position and keeps the rest', () => {
    const result = run(JSON.stringify([{ question: 'A?', answer: 'B' }, 5, null, true, {}, [], '', { id: 3, note: null }]), 'json');
    expect(result.records).toHaveLength(1);
    expect(result.rejected.map((r) => r.at)).toEqual(['item 2', 'item 3', 'item 4', 'item 5', 'item 6', 'item 7', 'item 8']);
    expect(result.rejected[0]?.reason).toMatch(/number/);
    expect(result.rejected[3]?.reason).toMatch(/empty object/);
    expect(result.rejected[6]?.reason).toMatch(/no text/);
  });

  it('names JSON Lines rejections by line', () => {
    const result = run('{"a":"x"}\n\n42\n', 'jsonl');
    expect(result.rejected).toEqual([{ at: 'line 3', reason: expect.stringMatching(/number/) }]);
  });

  it('treats a file whose items were all rejected as having no extractable text', () => {
    const err = expectError(() => run('[1, 2, null, {}]', 'json'), 'no_extractable_text');
    expect(err.message).toMatch(/None of the 4 items/);
    expect(err.message).toMatch(/item 1/);
  });

  it.each([
    ['"just a string"', /single string/],
    ['42', /single number/],
    ['null', /null/],
    ['true', /single boolean/],
    ['[]', /empty array/],
    ['{"faqs": []}', /empty array/],
    ['{}', /empty object/],
    ['{"a": null, "id": 4}', /no text/],
  ])('%s has no extractable text', (input, reason) => {
    const err = expectError(() => run(input, 'json'), 'no_extractable_text');
    expect(err.message).toMatch(reason);
  });

  it.each([
    ['[1,\n 2,,]', 2, 4, /expected a value/],
    ['{"a": 1\n"b": 2}', 2, 1, /expected "," or "}"/],
    ['[\n  {"q": "x"},\n  {"q": "y",}\n]', 3, 13, /trailing comma/],
    ['["abc', 1, 2, /unterminated string/],
    ['["😀", x]', 1, 7, /expected a value/],
    ['[1,\r\n2,\r\nx]', 3, 1, /expected a value/],
    ['\uFEFF[1,,2]', 1, 4, /expected a value/],
    ['{"a": tru}', 1, 10, /expected a value/],
    ['{"a": 01}', 1, 8, /expected "," or "}"/],
    ['{"a": "x\ny"}', 1, 9, /line break inside a string/],
    ['{"a": "\\q"}', 1, 8, /invalid escape/],
    ['[1.]', 1, 4, /digit after/],
    ['{a: 1}', 1, 2, /property name in double quotes/],
    ['[\n\n', 3, 1, /unexpected end of input/],
  ])('invalid JSON %j is reported at line %i, column %i', (input, line, column, message) => {
    const err = expectError(() => run(input, 'json'), 'invalid_json', { line, column });
    expect(err.message).toMatch(message);
    expect(err.message).toContain(`line ${line}, column ${column}`);
  });

  it('reports the failing line of a JSON Lines file', () => {
    expectError(() => run('{"a":"x"}\n{"b":"y"}\n{"c": }\n', 'jsonl'), 'invalid_json', { line: 3, column: 7 });
    expectError(() => run('{"a":"x"}\n{"b":"y"', 'json'), 'invalid_json', { line: 2, column: 9 });
  });

  it('returns in-file duplicates as separate records with equal fingerprints', () => {
    const item = { question: 'Do you ship abroad?', answer: 'Yes, to the EU.' };
    const result = run(
      JSON.stringify([
        { ...item, id: 1 },
        { ...item, id: 2 },
      ]),
      'json',
    );
    expect(result.records).toHaveLength(2);
    const [a, b] = result.records.map((r) => fingerprint(r.text));
    expect(a).toBe(b);
  });

  it('splits a long answer into parts that keep the question as title', () => {
    const answer = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} explains one more detail.`).join(' ');
    const result = run(JSON.stringify([{ question: 'Tell me everything?', answer }]), 'json', 300);
    expect(result.records.length).toBeGreaterThan(5);
    for (const r of result.records) {
      expect(r.title).toBe('Tell me everything?');
      expect(r.text.length).toBeLessThanOrEqual(300);
      expect(r.text).toMatch(/\.$/);
    }
  });
});
