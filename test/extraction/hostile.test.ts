import { describe, expect, it } from 'vitest';
import { decodeText } from '../../src/knowledge/extraction/decode.js';
import { extract } from '../../src/knowledge/extraction/index.js';
import type { SourceFormat } from '../../src/knowledge/extraction/types.js';
import { fingerprint } from '../../src/knowledge/fingerprint.js';
import { bytes, expectError, run, summary } from './helpers.js';

const formats: SourceFormat[] = ['json', 'jsonl', 'txt', 'md'];
const TEN_MB = 10 * 1024 * 1024;

/**
 * Runs a 10 MB case. Time is not asserted here (tests carry no timing
 * thresholds); `npm run bench` measures extraction of 10 MB uploads. A
 * quadratic algorithm would still show up as a test that does not finish.
 */
function timed<T>(fn: () => T): { value: T } {
  return { value: fn() };
}

describe('deep nesting', () => {
  it.each([
    ['100k open brackets', '['.repeat(100_000)],
    ['100k balanced brackets', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['100k nested objects', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`],
  ])('%s gives too_deeply_nested, not a stack overflow', (_name, input) => {
    // The 33rd opening bracket is the error: column 33, or 32 * 5 + 1 for `{"a":`.
    const column = input.startsWith('{') ? 161 : 33;
    const err = expectError(() => run(input, 'json'), 'too_deeply_nested', { line: 1, column });
    expect(err.message).toMatch(/32 levels/);
    expectError(() => run(`{"ok":1}\n${input}`, 'jsonl'), 'too_deeply_nested', { line: 2, column });
  });

  it('accepts exactly 32 levels', () => {
    const input = `[${'{"a":'.repeat(30)}["deep text"]${'}'.repeat(30)}]`;
    expect(run(input, 'json').records[0]?.text).toBe(`${Array(30).fill('A').join(' › ')}: deep text`);
    expectError(() => run(`[${input}]`, 'json'), 'too_deeply_nested');
  });

  it('deep Markdown lists and quotes are just text', () => {
    const input = `${'>'.repeat(100_000)} quoted\n${'  '.repeat(50_000)}- item`;
    expect(summary(run(input, 'md'))).toEqual([['passage', undefined, `quoted\n${' '.repeat(8)}- item`]]);
  });
});

describe('10 MB inputs', () => {
  const oneLine = 'Plain words follow each other. '.repeat(TEN_MB / 31);
  it.each(['txt', 'md'] as const)('one line of text as %s', (format) => {
    const { value } = timed(() => run(oneLine, format));
    expect(value.records.length).toBeGreaterThan(TEN_MB / 2000);
    for (const r of value.records) expect(r.text.length).toBeLessThanOrEqual(2000);
  });

  it.each(['txt', 'md'] as const)('one line without any space or sentence end as %s', (format) => {
    const { value } = timed(() => run('x'.repeat(TEN_MB), format));
    expect(value.records.every((r) => r.text.length === 2000 || r === value.records.at(-1))).toBe(true);
  });

  it.each(['txt', 'md'] as const)('one line of two-byte text without any space or sentence end as %s', (format) => {
    const { value } = timed(() => run(`😀${'é'.repeat(TEN_MB / 2)}`, format));
    expect(value.records.every((r) => r.text.length === 2000 || r === value.records.at(-1))).toBe(true);
  });

  // Each also with an emoji in front: a character beyond Latin-1 makes V8 hold the text as two-byte
  // characters, where patterns with the `u` flag can need far more backtracking stack.
  it.each(
    (
      [
        ['markup characters', '[*_<`&!'.repeat(TEN_MB / 7)],
        ['underscores', `a${'_'.repeat(TEN_MB)}`],
        ['tags', '<a '.repeat(TEN_MB / 3)],
        ['a heading', `# ${'title '.repeat(TEN_MB / 6)}`],
        ['blockquote markers', `${'>'.repeat(TEN_MB)} quoted`],
      ] as const
    ).flatMap(([name, input]) => [
      [name, input],
      [`${name} after an emoji`, `😀 ${input}`],
    ]),
  )('one line of %s as md stays fast', (_name, input) => {
    timed(() => {
      try {
        run(input, 'md');
      } catch (err) {
        expect((err as { code?: string }).code, String((err as Error).stack ?? err).slice(0, 600)).toBe('no_extractable_text');
      }
    });
  });

  it('a 10 MB JSON array', () => {
    const item = (i: number) => JSON.stringify({ question: `Question ${i}?`, answer: `Answer ${i} with a few more words.`, id: i });
    const parts: string[] = [];
    let size = 2;
    for (let i = 0; size < TEN_MB; i++) {
      const s = item(i);
      parts.push(s);
      size += s.length + 1;
    }
    const { value } = timed(() => run(`[${parts.join(',')}]`, 'json'));
    expect(value.records).toHaveLength(parts.length);
  });

  it.each(['txt', 'md'] as const)('many short lines as %s', (format) => {
    timed(() => run('Line.\n\n'.repeat(TEN_MB / 7), format));
  });
});

describe('invalid UTF-8', () => {
  it.each([
    ['a stray 0xFF', [0x61, 0x62, 0xff], 2],
    ['a truncated two-byte sequence', [0x61, 0xc3], 1],
    ['a bad continuation byte', [0xe2, 0x82, 0x41], 0],
    ['an overlong encoding', [0x41, 0xc0, 0x80], 1],
    ['an encoded surrogate', [0xed, 0xa0, 0x80], 0],
    ['a lone continuation byte', [0x41, 0x42, 0x43, 0x80], 3],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
    ['an error after an emoji', [0xf0, 0x9f, 0x98, 0x80, 0xf5], 4],
    ['Latin-1 text', [...new TextEncoder().encode('caf'), 0xe9, 0x20, 0x61], 3],
  ])('%s is reported at its byte offset', (_name, input, offset) => {
    for (const format of formats) {
      const err = expectError(() => extract(Uint8Array.from(input), format), 'invalid_utf8', { offset });
      expect(err.message).toContain(`byte offset ${offset}`);
    }
  });
});

describe('decoding clean-up', () => {
  it('strips one BOM, normalises CRLF and CR, removes control characters', () => {
    const input = Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('a\r\nb\rc\u0000d\u0007\te\u001bf')]);
    expect(decodeText(input)).toBe('a\nb\ncd\tef');
  });

  it('a BOM does not stop JSON from parsing or Markdown headings from being found', () => {
    const bom = [0xef, 0xbb, 0xbf];
    const json = Uint8Array.from([...bom, ...bytes('[{"question":"A?","answer":"B"}]')]);
    expect(extract(json, 'json').records).toHaveLength(1);
    const markdown = Uint8Array.from([...bom, ...bytes('# Title\nBody')]);
    expect(summary(extract(markdown, 'md'))).toEqual([['passage', 'Title', 'Body']]);
  });

  it('CRLF files extract like LF files', () => {
    const text = '# A\n\nQ: One?\nA: Yes.\n\nSome text.\n';
    for (const format of ['md', 'txt'] as const) {
      expect(run(text.replace(/\n/g, '\r\n'), format)).toEqual(run(text, format));
    }
    expect(run('{"a":"x"}\r\n{"b":"y"}\r\n', 'jsonl')).toEqual(run('{"a":"x"}\n{"b":"y"}\n', 'jsonl'));
  });
});

describe('empty input', () => {
  it.each(formats)('an empty %s file has no extractable text', (format) => {
    expectError(() => extract(new Uint8Array(0), format), 'no_extractable_text');
  });

  it.each(formats)('a white-space-only %s file has no extractable text', (format) => {
    expectError(() => run(' \n\t\r\n  \u0000 ', format), 'no_extractable_text');
  });

  it('a BOM alone is empty', () => {
    expectError(() => extract(Uint8Array.from([0xef, 0xbb, 0xbf]), 'json'), 'no_extractable_text');
  });

  it.each([
    ['md', '<!-- only a comment -->\n![img](x.png)\n<br>'],
    ['md', '---\ntitle: only front matter\n---\n'],
    ['md', '```\n```'],
    ['jsonl', '{}\n[]\n'],
  ] as const)('%s with markup but no text: %j', (format, input) => {
    expectError(() => run(input, format), 'no_extractable_text');
  });
});

describe('duplicates inside one file', () => {
  it.each([
    ['txt', `${'A long paragraph that repeats itself word for word. '.repeat(5)}\n\n${'A long paragraph that repeats itself word for word. '.repeat(5)}`],
    ['txt', 'Q: Same?\nA: Yes.\n\nQ: Same?\nA: Yes.'],
    ['md', '# One\nSame body.\n# Two\nSame  body.'],
    ['jsonl', '{"question":"Q?","answer":"A"}\n{"question":"Q?","answer":"A","uuid":"x"}'],
  ] as const)('%s: both are returned with equal fingerprints', (format, input) => {
    const { records } = run(input, format);
    expect(records).toHaveLength(2);
    expect(fingerprint((records[0] as { text: string }).text)).toBe(fingerprint((records[1] as { text: string }).text));
  });
});

describe('amplification', () => {
  it('long keys nested deep above many tiny values do not explode', () => {
    const key = 'k'.repeat(5000);
    const leaves = `{${Array.from({ length: 200_000 }, (_, i) => `"${i}":1`).join(',')}}`;
    const input = `[${`{"${key}":`.repeat(30)}${leaves}${'}'.repeat(30)}]`;
    const { value } = timed(() => {
      try {
        return run(input, 'json');
      } catch (err) {
        return err;
      }
    });
    expect((value as { code?: string }).code ?? 'ok').toMatch(/^(ok|no_extractable_text)$/);
    const total = 'records' in (value as object) ? (value as { records: { text: string }[] }).records.reduce((n, r) => n + r.text.length, 0) : 0;
    expect(total).toBeLessThanOrEqual(8 * input.length + 1_000_000);
  });

  it('a huge heading above many sections keeps titles short', () => {
    const input = `# ${'Long heading '.repeat(100_000)}\n${'## Sub\nText.\n'.repeat(50_000)}`;
    const { value } = timed(() => run(input, 'md'));
    for (const r of value.records) expect((r.title ?? '').length).toBeLessThanOrEqual(300);
  });

  it('long JSON keys become labels of at most 60 characters', () => {
    const result = run(JSON.stringify([{ ['word '.repeat(100)]: 'value' }]), 'json');
    const label = result.records[0]?.text.split(': ')[0] ?? '';
    expect(label.length).toBe(60);
    expect(label.endsWith('…')).toBe(true);
  });
});

describe('rejections', () => {
  it('counts every rejected item but lists only the first thousand', () => {
    const items = ['{"question":"Q?","answer":"A."}', ...Array.from({ length: 5000 }, () => '1')];
    const value = run(`[${items.join(',')}]`, 'json');
    expect(value.records).toHaveLength(1);
    expect(value.rejectedCount).toBe(5000);
    expect(value.rejected).toHaveLength(1000);
    expect(value.rejected[0]?.at).toBe('item 2');
  });
});
