import { describe, expect, it } from 'vitest';
import { run, summary } from './helpers.js';

type Row = [kind: string, title: string | undefined, text: string];

const md = (...lines: string[]) => lines.join('\n');

describe('Markdown extraction', () => {
  const cases: { name: string; input: string; records: Row[] }[] = [
    {
      name: 'one record per ATX section, with the heading path as title',
      input: md(
        '# Pricing',
        'Plans start at 5 EUR.',
        '## Refunds',
        'Within 30 days.',
        '### Exceptions ###',
        'None.',
        '## Invoices',
        'Monthly.',
        '# Support',
        'Email us.',
      ),
      records: [
        ['passage', 'Pricing', 'Plans start at 5 EUR.'],
        ['passage', 'Pricing › Refunds', 'Within 30 days.'],
        ['passage', 'Pricing › Refunds › Exceptions', 'None.'],
        ['passage', 'Pricing › Invoices', 'Monthly.'],
        ['passage', 'Support', 'Email us.'],
      ],
    },
    {
      name: 'setext headings',
      input: md('Guide', '=====', 'Intro text.', '', 'Install', '-------', 'Run the installer.'),
      records: [
        ['passage', 'Guide', 'Intro text.'],
        ['passage', 'Guide › Install', 'Run the installer.'],
      ],
    },
    {
      name: 'text before the first heading is its own untitled section',
      input: md('Welcome to the handbook.', '', '# First', 'Body.'),
      records: [
        ['passage', undefined, 'Welcome to the handbook.'],
        ['passage', 'First', 'Body.'],
      ],
    },
    {
      name: 'YAML front matter is dropped',
      input: md('---', 'title: Handbook', 'tags: [a, b]', '---', '# Start', 'Hello.'),
      records: [['passage', 'Start', 'Hello.']],
    },
    {
      name: 'Q:/A: pairs, bold markers and Question:/Answer:',
      input: md(
        '# FAQ',
        'Intro line.',
        '',
        'Q: Can I cancel?',
        'A: Yes, any time.',
        '',
        '**Q:** Is there a trial?',
        '**A:** 14 days.',
        '',
        'Question: Where are you?',
        'Answer: Berlin.',
      ),
      records: [
        ['passage', 'FAQ', 'Intro line.'],
        ['qa', 'Can I cancel?', 'Can I cancel?\nYes, any time.'],
        ['qa', 'Is there a trial?', 'Is there a trial?\n14 days.'],
        ['qa', 'Where are you?', 'Where are you?\nBerlin.'],
      ],
    },
    {
      name: 'definition-style FAQ: question headings and bold question lines',
      input: md(
        '# FAQ',
        '## How do refunds work?',
        'Send us an email.',
        '',
        'We answer in a day.',
        '## Contact',
        '**Do you have a phone line?**',
        'No, only email.',
        '',
        '__Is it secure?__',
        'Yes.',
      ),
      records: [
        ['qa', 'How do refunds work?', 'How do refunds work?\nSend us an email.\n\nWe answer in a day.'],
        ['qa', 'Do you have a phone line?', 'Do you have a phone line?\nNo, only email.'],
        ['qa', 'Is it secure?', 'Is it secure?\nYes.'],
      ],
    },
    {
      name: 'code blocks keep their text and are never read as headings or questions',
      input: md('# Setup', 'Run:', '```sh', '# not a heading', 'Q: not a question', '```', 'Done.'),
      records: [['passage', 'Setup', 'Run:\n\n# not a heading\nQ: not a question\n\nDone.']],
    },
    {
      name: 'images and HTML go, link text stays, list items stay as lines',
      input: md(
        '# Links',
        'See [the docs](https://example.com/docs) and <https://example.com>. ![logo](logo.png)',
        '<div class="note">Careful <b>now</b></div>',
        '<!-- hidden',
        'still hidden -->',
        '* first *item*',
        '+ second',
        '1. third with `code`',
        '> quoted **bold**',
        '',
        '| a | b |',
        '|---|:-:|',
        '| 1 | 2 |',
        '[ref]: https://example.com',
        'Tom &amp; Jerry &#169; snake_case 2 * 3',
      ),
      records: [
        [
          'passage',
          'Links',
          md(
            'See the docs and https://example.com.',
            'Careful now',
            '- first item',
            '- second',
            '1. third with code',
            'quoted bold',
            '',
            'a | b',
            '1 | 2',
            'Tom & Jerry © snake_case 2 * 3',
          ),
        ],
      ],
    },
    {
      name: 'sections without a body are skipped unless they are leaves',
      input: md('# Parent', '## Child', 'Text.', '## Empty leaf'),
      records: [
        ['passage', 'Parent › Child', 'Text.'],
        ['passage', 'Parent › Empty leaf', 'Empty leaf'],
      ],
    },
    {
      name: 'thematic breaks are paragraph breaks, not setext headings after a blank line',
      input: md('# A', 'One.', '', '---', 'Two.', '***'),
      records: [['passage', 'A', 'One.\n\nTwo.']],
    },
    {
      name: 'a heading path resets at the same level',
      input: md('## B first', 'x', '# A', 'y', '### deep', 'z'),
      records: [
        ['passage', 'B first', 'x'],
        ['passage', 'A', 'y'],
        ['passage', 'A › deep', 'z'],
      ],
    },
  ];

  it.each(cases)('$name', ({ input, records }) => {
    expect(summary(run(input, 'md'))).toEqual(records);
  });

  it('splits a long section at paragraphs and keeps the title on every part', () => {
    const para = (n: number) => `Paragraph ${n}. ${'Words fill the space here. '.repeat(6).trim()}`;
    const input = md('# Long', ...Array.from({ length: 12 }, (_, i) => `${para(i)}\n`));
    const result = run(input, 'md', 400);
    expect(result.records.length).toBeGreaterThan(3);
    for (const r of result.records) {
      expect(r.title).toBe('Long');
      expect(r.text.length).toBeLessThanOrEqual(400);
      expect(r.text.startsWith('Paragraph ')).toBe(true);
    }
    expect(result.records.map((r) => r.text).join('\n\n')).toBe(Array.from({ length: 12 }, (_, i) => para(i)).join('\n\n'));
  });

  it('keeps an unclosed front matter block as text', () => {
    expect(summary(run(md('---', 'not front matter'), 'md'))).toEqual([['passage', undefined, 'not front matter']]);
  });
});
