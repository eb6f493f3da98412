import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../src/knowledge/extraction/index.js';
import { splitText } from '../../src/knowledge/extraction/split.js';
import { run, summary } from './helpers.js';

type Row = [kind: string, title: string | undefined, text: string];

const long = (label: string) => `${label} ${'This sentence makes the paragraph long enough to stand alone. '.repeat(4).trim()}`;

describe('plain text extraction', () => {
  const cases: { name: string; input: string; records: Row[] }[] = [
    {
      name: 'short paragraphs are merged while under 200 characters',
      input: `Opening hours.\n\nMonday to Friday.\n\n\n9 to 5.\n\n${long('Parking.')}`,
      records: [['passage', undefined, `Opening hours.\n\nMonday to Friday.\n\n9 to 5.\n\n${long('Parking.')}`]],
    },
    {
      name: 'long paragraphs stay separate',
      input: `${long('One.')}\n\n${long('Two.')}\n \t\n${long('Three.')}`,
      records: [
        ['passage', undefined, long('One.')],
        ['passage', undefined, long('Two.')],
        ['passage', undefined, long('Three.')],
      ],
    },
    {
      name: 'a short paragraph after a long one stays alone',
      input: `${long('One.')}\n\nThe end.`,
      records: [
        ['passage', undefined, long('One.')],
        ['passage', undefined, 'The end.'],
      ],
    },
    {
      name: 'Q:/A: pairs become Q&A records and are not merged',
      input: 'About us.\n\nQ: Do you deliver?\nA: Yes, daily.\n\nq: Multi-line\nquestion?\nanswer: Spans\ntwo lines.\n\nQ: Same line? A: Works too.',
      records: [
        ['passage', undefined, 'About us.'],
        ['qa', 'Do you deliver?', 'Do you deliver?\nYes, daily.'],
        ['qa', 'Multi-line question?', 'Multi-line question?\nSpans\ntwo lines.'],
        ['qa', 'Same line?', 'Same line?\nWorks too.'],
      ],
    },
    {
      name: 'an answer without an A: marker and one that runs over paragraphs',
      input: 'Q: Is it free?\nYes.\n\nQ: What about support?\nA: Email.\n\nAlso chat on weekdays.',
      records: [
        ['qa', 'Is it free?', 'Is it free?\nYes.'],
        ['qa', 'What about support?', 'What about support?\nEmail.\n\nAlso chat on weekdays.'],
      ],
    },
    {
      name: 'a question with no answer stays text; a stray A: is text',
      input: 'A: orphan answer\n\nQ: Nobody answered this',
      records: [['passage', undefined, 'A: orphan answer\n\nQ: Nobody answered this']],
    },
  ];

  it.each(cases)('$name', ({ input, records }) => {
    expect(summary(run(input, 'txt'))).toEqual(records);
  });

  it('does not merge beyond the record size limit', () => {
    const result = run('aaaa\n\nbbbb\n\ncccc', 'txt', 10);
    expect(summary(result)).toEqual([
      ['passage', undefined, 'aaaa\n\nbbbb'],
      ['passage', undefined, 'cccc'],
    ]);
  });
});

describe('splitting long text', () => {
  it.each([
    ['paragraphs first', 'First para.\n\nSecond para here.', 20, ['First para.', 'Second para here.']],
    ['blank lines with spaces count as paragraph breaks', 'First para.\n  \t\nSecond para.', 15, ['First para.', 'Second para.']],
    ['then sentences', 'One short. Two is here. Three!', 24, ['One short. Two is here.', 'Three!']],
    ['a sentence ending just at the limit fits', 'One. Two is here. Three', 17, ['One. Two is here.', 'Three']],
    ['then white space', 'alpha beta gamma delta', 11, ['alpha beta', 'gamma delta']],
    ['then hard at the limit', 'abcdefghij', 4, ['abcd', 'efgh', 'ij']],
    ['never splitting a surrogate pair', 'ab😀cd', 3, ['ab', '😀c', 'd']],
    ['short text is untouched', '  hello  ', 100, ['hello']],
    ['white space only gives nothing', ' \n\t ', 10, []],
  ])('%s', (_name, text, max, parts) => {
    expect(splitText(text, max)).toEqual(parts);
  });

  it('parts are within the limit and lose no words', () => {
    const text = Array.from({ length: 300 }, (_, i) => `Word${i} ${i % 7 === 0 ? 'ends here.' : 'goes on'}${i % 31 === 0 ? '\n\n' : ' '}`).join('');
    const parts = splitText(text, 120);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(120);
    expect(parts.join(' ').split(/\s+/)).toEqual(text.trim().split(/\s+/));
  });
});

describe('detectFormat', () => {
  it.each([
    ['faq.json', undefined, 'json'],
    ['FAQ.JSON', undefined, 'json'],
    ['export.jsonl', undefined, 'jsonl'],
    ['export.NDJSON', undefined, 'jsonl'],
    ['notes.txt', undefined, 'txt'],
    ['notes.text', undefined, 'txt'],
    ['README.md', undefined, 'md'],
    ['guide.Markdown', undefined, 'md'],
    ['dir/sub.dir/file.md', 'application/json', 'md'],
    ['C:\\docs\\a.txt', undefined, 'txt'],
    ['upload', 'application/json; charset=utf-8', 'json'],
    ['upload.bin', 'application/x-ndjson', 'jsonl'],
    ['upload', 'application/jsonl', 'jsonl'],
    ['upload', 'TEXT/PLAIN', 'txt'],
    ['upload', 'text/markdown', 'md'],
    ['report.pdf', 'application/pdf', 'pdf'],
    ['archive.tar.gz', undefined, undefined],
    ['x.constructor', undefined, undefined],
    ['noextension', undefined, undefined],
    ['', 'application/octet-stream', undefined],
  ])('%s (%s) → %s', (name, type, format) => {
    expect(detectFormat(name, type)).toBe(format);
  });
});
