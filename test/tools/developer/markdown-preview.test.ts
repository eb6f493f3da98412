import { describe, expect, it } from 'vitest';
import { run } from '../../../src/tools/markdown-preview/core.js';
import { meta } from '../../../src/tools/markdown-preview/meta.js';
import { isSafeUrl } from '../../../src/tools/markdown-preview/safe-url.js';
import { closeThreadsAfterAll, expectFirstExampleOverApi, itRunsExamples } from './helpers.js';

closeThreadsAfterAll();

const html = (markdown: string) => run({ markdown }).html;

describe('markdown-preview', () => {
  itRunsExamples(meta, run);

  it.each([
    ['a script block', '<script>alert(1)</script>'],
    ['an inline script', 'text <script>alert(1)</script> text'],
    ['an image with onerror', '<img src=x onerror=alert(1)>'],
    ['an iframe', '<iframe src="https://evil.example"></iframe>'],
    ['an svg with onload', '<svg onload=alert(1)>'],
    ['a style tag', '<style>body{display:none}</style>'],
  ])('escapes %s', (_name, markdown) => {
    const out = html(markdown);
    expect(out).not.toMatch(/<(script|img|iframe|svg|style)\b/i);
    expect(out).toContain('&lt;');
  });

  it.each([
    ['[x](javascript:alert(1))'],
    ['[x](JavaScript:alert(1))'],
    ['[x](javascript&#58;alert(1))'],
    ['[x](<java\tscript:alert(1)>)'],
    ['[x](vbscript:msgbox(1))'],
    ['[x](data:text/html,<script>alert(1)</script>)'],
    ['![x](javascript:alert(1))'],
    ['![x](data:image/svg+xml;base64,PHN2Zz4=)'],
    ['[x][ref]\n\n[ref]: javascript:alert(1)'],
    ['<javascript:alert(1)>'],
  ])('drops the address of %s', (markdown) => {
    const out = html(markdown);
    expect(out).not.toMatch(/href=|src=/);
    expect(out.toLowerCase()).not.toContain('<a ');
  });

  it('keeps http(s), mailto and relative links and images', () => {
    const out = html('[a](https://a.example) [b](http://b.example) [c](mailto:c@example.com) [d](/docs/x?y=1#z) [e](page.html) ![f](img/f.png) <https://g.example>');
    for (const href of ['https://a.example', 'http://b.example', 'mailto:c@example.com', '/docs/x?y=1#z', 'page.html', 'https://g.example']) expect(out).toContain(`href="${href}"`);
    expect(out).toContain('src="img/f.png"');
  });

  it('judges addresses', () => {
    expect(isSafeUrl('docs/a:b')).toBe(true);
    expect(isSafeUrl('a:b')).toBe(false);
    expect(isSafeUrl(' \u0001javascript:x')).toBe(false);
    expect(isSafeUrl('&#x6A;avascript:x')).toBe(false);
  });

  it('runs over the API', async () => {
    await expectFirstExampleOverApi(meta);
  });
});
