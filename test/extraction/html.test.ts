import { describe, expect, it } from 'vitest';
import { MAX_HTML_DEPTH } from '../../src/knowledge/extraction/html.js';
import { expectError, run, summary } from './helpers.js';

const page = (body: string) =>
  `<!doctype html><html><head><title>Shop</title><style>p{color:red}</style><script>var x = "Secret";</script></head><body>${body}</body></html>`;

describe('HTML extraction', () => {
  it('drops script, style, nav, header, footer and aside, and splits at headings like Markdown', () => {
    const html = page(`
      <header><a href="/">Logo</a> Site header</header>
      <nav><ul><li>Home</li><li>Shop</li></ul></nav>
      <h1>Returns</h1>
      <p>You can return   any item
         within <b>30 days</b>.</p>
      <h2>Refunds</h2>
      <p>Refunds take 5 days.</p><script>alert("x")</script>
      <aside>Related: socks</aside>
      <h2>Do you pay return shipping?</h2>
      <p>Yes, always.</p>
      <footer>© Shop 2024</footer>`);
    expect(summary(run(html, 'html'))).toEqual([
      ['passage', 'Returns', 'You can return any item within 30 days.'],
      ['passage', 'Returns › Refunds', 'Refunds take 5 days.'],
      ['qa', 'Do you pay return shipping?', 'Do you pay return shipping?\nYes, always.'],
    ]);
  });

  it('keeps only <main> when there is one, with an article header inside it', () => {
    const html = page(`<div>Cookie banner text</div><main><article><header><h1>Care guide</h1></header><p>Oil the leather.</p>
      <ul><li>Brush first</li><li>Then oil</li></ul></article></main><div>After main</div>`);
    expect(summary(run(html, 'html'))).toEqual([['passage', 'Care guide', 'Oil the leather.\n\n- Brush first\n- Then oil']]);
  });

  it('decodes entities once, keeps tables as rows and <pre> verbatim, finds Q:/A: pairs', () => {
    const html = page(`<h1>Sizes &amp; fit</h1><table><tr><th>EU</th><th>UK</th></tr><tr><td>42</td><td>8</td></tr></table>
      <pre>  size = eu - 34
  # not a heading</pre><p>Literal &amp;amp; stays</p><p>Q: Do they run small?<br>A: A little.</p>`);
    expect(summary(run(html, 'html'))).toEqual([
      ['passage', 'Sizes & fit', 'EU | UK\n42 | 8\n\n  size = eu - 34\n  # not a heading\n\nLiteral &amp; stays'],
      ['qa', 'Do they run small?', 'Do they run small?\nA little.'],
    ]);
  });

  it('drops hidden elements and keeps image alt text', () => {
    const html = page('<p hidden>Hidden</p><p aria-hidden="true">Also hidden</p><p>A <img src="x.png" alt="red boot"> photo</p>');
    expect(summary(run(html, 'html'))).toEqual([['passage', undefined, 'A red boot photo']]);
  });

  it('refuses a page with no content left', () => {
    expectError(() => run(page('<nav>Only navigation</nav><footer>Footer</footer>'), 'html'), 'no_extractable_text');
  });

  it('reads a page larger than one parsing chunk', () => {
    const sections = Array.from({ length: 3000 }, (_, k) => `<h2>Topic ${k}</h2><p>${'Text '.repeat(10)}${k}</p>`).join('');
    const records = run(page(sections), 'html').records;
    expect(records).toHaveLength(3000);
    expect(records[2999]).toEqual({ kind: 'passage', title: 'Topic 2999', text: `${'Text '.repeat(10)}2999` });
  });

  it(`follows elements ${MAX_HTML_DEPTH} levels deep and refuses deeper nesting where it starts`, () => {
    const deep = (levels: number) => `<p>Intro</p>\n${'<div>'.repeat(levels)}Deep text`;
    expect(run(deep(MAX_HTML_DEPTH), 'html').records.map((r) => r.text)).toEqual(['Intro\n\nDeep text']);
    // The parser implies no <html> or <body>: the 513th <div> is the 513th open element.
    const err = expectError(() => run(deep(MAX_HTML_DEPTH + 1), 'html'), 'too_deeply_nested', { line: 2, column: 5 * MAX_HTML_DEPTH + 1, maxDepth: MAX_HTML_DEPTH });
    expect(err.message).toMatch(/HTML nests elements more than 512 levels deep/);
  });

  it('refuses a 10 MB file of unclosed inline tags rather than parsing it for minutes', () => {
    expectError(() => run(`<p>Intro</p>${'<b>'.repeat(3_000_000)}x`, 'html'), 'too_deeply_nested');
  });

  it('reads a page that closes what it opens, however many elements it has', () => {
    const records = run(`${'<b>'.repeat(500)}${'<i>word</i> '.repeat(200_000)}`, 'html').records;
    expect(records.map((r) => r.text).join(' ')).toMatch(/^word word/);
  });
});
