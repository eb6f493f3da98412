import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'markdown-preview',
  group: 'developer',
  name: 'Markdown to HTML (safe)',
  description: 'Convert Markdown (GitHub-flavoured) to HTML. Raw HTML in the Markdown is escaped, and only http(s), mailto and relative links are kept, so the output is safe to show.',
  keywords: ['markdown', 'md', 'html', 'preview', 'gfm', 'convert', 'render'],
  api: true,
  limits: { maxInputBytes: 1_000_000 },
  inputSchema: {
    type: 'object',
    properties: {
      markdown: { type: 'string', description: 'The Markdown text.' },
      gfm: { type: 'boolean', default: true, description: 'GitHub-flavoured Markdown: tables, strikethrough, autolinks.' },
      breaks: { type: 'boolean', default: false, description: 'Turn single line breaks into <br>.' },
    },
    required: ['markdown'],
    additionalProperties: false,
  },
  examples: [
    { title: 'Heading, bold and a link', input: { markdown: '# Title\n\nSome **bold** text and a [link](https://example.com "Ex").' }, output: { html: "<h1>Title</h1>\n<p>Some <strong>bold</strong> text and a <a href=\"https://example.com\" title=\"Ex\">link</a>.</p>\n", result: "<h1>Title</h1>\n<p>Some <strong>bold</strong> text and a <a href=\"https://example.com\" title=\"Ex\">link</a>.</p>\n" } },
    { title: 'Hostile HTML is escaped', input: { markdown: 'Hi <img src=x onerror=alert(1)> and [mail](mailto:a@example.com), not [x](javascript:alert(1)).' }, output: { html: "<p>Hi &lt;img src=x onerror=alert(1)&gt; and <a href=\"mailto:a@example.com\">mail</a>, not x.</p>\n", result: "<p>Hi &lt;img src=x onerror=alert(1)&gt; and <a href=\"mailto:a@example.com\">mail</a>, not x.</p>\n" } },
    { title: 'A table', input: { markdown: '| a | b |\n|---|---|\n| 1 | 2 |' }, outputMatches: { html: '<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b</th>\n</tr>\n</thead>\n<tbody><tr>\n<td>1</td>\n<td>2</td>\n</tr>\n</tbody></table>\n' } },
  ],
};
