import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'pdf-page-numbers',
  group: 'pdf',
  name: 'Add page numbers to a PDF',
  description: 'Write page numbers such as "Page 1 of 10" on every page (or the pages you choose), at the position, size and starting number you pick. Uses the built-in Helvetica font (Western European characters).',
  keywords: ['pdf', 'page numbers', 'numbering', 'footer', 'paginate'],
  api: true,
  limits: { maxInputBytes: 30_000_000, timeoutMs: 30_000 },
  inputSchema: {
    type: 'object',
    properties: {
      file: { type: 'string', contentEncoding: 'base64', contentMediaType: 'application/pdf', description: 'The PDF to number.' },
      template: {
        type: 'string',
        minLength: 1,
        maxLength: 200,
        default: 'Page {n} of {total}',
        'x-ui': 'line',
        description: '{n} is the page number and {total} the last number; e.g. "{n}", "- {n} -", "Page {n} of {total}".',
      },
      position: {
        type: 'string',
        enum: ['bottom-center', 'bottom-right', 'bottom-left', 'top-center', 'top-right', 'top-left'],
        default: 'bottom-center',
        description: 'Where on the page the number goes.',
      },
      startAt: { type: 'integer', minimum: 0, maximum: 100000, default: 1, description: 'The number of the first numbered page.' },
      fontSize: { type: 'number', minimum: 4, maximum: 72, default: 10, description: 'Text size in points.' },
      margin: { type: 'number', minimum: 0, maximum: 200, default: 24, description: 'Distance from the page edge in points (72 points = 1 inch).' },
      pages: { type: 'string', maxLength: 2000, 'x-ui': 'line', description: 'Pages to number, e.g. 2- to skip a cover page. Empty: all pages.' },
    },
    required: ['file'],
    additionalProperties: false,
  },
  examples: [
    {
      title: '"Page 1 of 3" at the bottom centre',
      input: { file: 'JVBERi0xLjcKJYGBgYEKCjUgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL0xlbmd0aCA5Ngo+PgpzdHJlYW0KeJwdysEKQEAQBuD7/xRzVjK72dlVclDk4KLmBaQl4kDy/KLv+p2oFUyfa0HWxf2J9zqNqeci5IF9KMgI6Qybk/YwfzVkmYRJD5SOxYgXZ1laacRVpBs0QaMY8AIgFBT8CmVuZHN0cmVhbQplbmRvYmoKCjcgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL0xlbmd0aCA5Nwo+PgpzdHJlYW0KeJwr5HIK4TJQAMGidC59j9ScstSSzOREXUtzEyMzCyNTMwsFQzOFkDQuIxOFEB8uQ7BSQwUjAwUzA4WQXC4bUwMzQzNzM1MjA3MTc3MzNzuFkCyuEC0u1xCuQC4AHlgU7AplbmRzdHJlYW0KZW5kb2JqCgo5IDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9MZW5ndGggMTAwCj4+CnN0cmVhbQp4nB3KMQrCQBAF0P6fYmpB/Dtk/m5ALAQhhY0wFxCJwaCFQTy/GF773jgmaH/LhN0wPr/j53G7bp1kY/RNVmR5h3eWZ5S1FnOaaPnCPqiiqnDWTq26QnGwnJEbnBIX/ABtgxWcCmVuZHN0cmVhbQplbmRvYmoKCjEwIDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9UeXBlIC9PYmpTdG0KL04gNgovRmlyc3QgMzIKL0xlbmd0aCAyNzUKPj4Kc3RyZWFtCnictVDRSgMxEHzPV+wPSDZ3l7sESqEtrYKI0goK4kN6F46UkkgvJ/XvzV5PS5+1L0t2MjszjACEDGQJOWiEAkSVQVqkAAUyR5hMGH/++rDAn0xrO8bvXdPBW2IirBOTphrmO+OL0PsIOZtO2fluYaLZh5adBEAQ+ZKxCj4yvum3cVgJFIzPTWfpB/id3X/a6GrD+NLXoXG+Bf7i/Mx37ge4VCQrMjzYdH9y5Gvbhf5QpwjEG5Tp8St+U6FWhcJK6VTGGJK/Pm53th6otC6P8XYTTbQjQNiDbZyZh2NqBalNRBAZUh8z70OktoZufExpaJNjX3+PrKsiK1UmS3XlyNW/RU5eqFBqVV45sj5H/gbmdMbHCmVuZHN0cmVhbQplbmRvYmoKCjExIDAgb2JqCjw8Ci9TaXplIDEyCi9Sb290IDIgMCBSCi9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9UeXBlIC9YUmVmCi9MZW5ndGggNTAKL1cgWyAxIDIgMiBdCi9JbmRleCBbIDAgMTIgXQo+PgpzdHJlYW0KeJxjYGD4/5+JgYuBAUQwgggmEMHMyCAAEWNhZNgBYbEyMiYyANXwAQnmDgYGAJdKBCAKZW5kc3RyZWFtCmVuZG9iagoKc3RhcnR4cmVmCjkwNAolJUVPRg==' },
      outputMatches: { pageCount: 3, numberedPages: 3, firstLabel: 'Page 1 of 3', file: { name: 'numbered.pdf', type: 'application/pdf' } },
    },
    {
      title: 'Skip the cover page, plain numbers top right',
      input: { file: 'JVBERi0xLjcKJYGBgYEKCjUgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL0xlbmd0aCA5Ngo+PgpzdHJlYW0KeJwdysEKQEAQBuD7/xRzVjK72dlVclDk4KLmBaQl4kDy/KLv+p2oFUyfa0HWxf2J9zqNqeci5IF9KMgI6Qybk/YwfzVkmYRJD5SOxYgXZ1laacRVpBs0QaMY8AIgFBT8CmVuZHN0cmVhbQplbmRvYmoKCjcgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL0xlbmd0aCA5Nwo+PgpzdHJlYW0KeJwr5HIK4TJQAMGidC59j9ScstSSzOREXUtzEyMzCyNTMwsFQzOFkDQuIxOFEB8uQ7BSQwUjAwUzA4WQXC4bUwMzQzNzM1MjA3MTc3MzNzuFkCyuEC0u1xCuQC4AHlgU7AplbmRzdHJlYW0KZW5kb2JqCgo5IDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9MZW5ndGggMTAwCj4+CnN0cmVhbQp4nB3KMQrCQBAF0P6fYmpB/Dtk/m5ALAQhhY0wFxCJwaCFQTy/GF773jgmaH/LhN0wPr/j53G7bp1kY/RNVmR5h3eWZ5S1FnOaaPnCPqiiqnDWTq26QnGwnJEbnBIX/ABtgxWcCmVuZHN0cmVhbQplbmRvYmoKCjEwIDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9UeXBlIC9PYmpTdG0KL04gNgovRmlyc3QgMzIKL0xlbmd0aCAyNzUKPj4Kc3RyZWFtCnictVDRSgMxEHzPV+wPSDZ3l7sESqEtrYKI0goK4kN6F46UkkgvJ/XvzV5PS5+1L0t2MjszjACEDGQJOWiEAkSVQVqkAAUyR5hMGH/++rDAn0xrO8bvXdPBW2IirBOTphrmO+OL0PsIOZtO2fluYaLZh5adBEAQ+ZKxCj4yvum3cVgJFIzPTWfpB/id3X/a6GrD+NLXoXG+Bf7i/Mx37ge4VCQrMjzYdH9y5Gvbhf5QpwjEG5Tp8St+U6FWhcJK6VTGGJK/Pm53th6otC6P8XYTTbQjQNiDbZyZh2NqBalNRBAZUh8z70OktoZufExpaJNjX3+PrKsiK1UmS3XlyNW/RU5eqFBqVV45sj5H/gbmdMbHCmVuZHN0cmVhbQplbmRvYmoKCjExIDAgb2JqCjw8Ci9TaXplIDEyCi9Sb290IDIgMCBSCi9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9UeXBlIC9YUmVmCi9MZW5ndGggNTAKL1cgWyAxIDIgMiBdCi9JbmRleCBbIDAgMTIgXQo+PgpzdHJlYW0KeJxjYGD4/5+JgYuBAUQwgggmEMHMyCAAEWNhZNgBYbEyMiYyANXwAQnmDgYGAJdKBCAKZW5kc3RyZWFtCmVuZG9iagoKc3RhcnR4cmVmCjkwNAolJUVPRg==', template: '{n}', position: 'top-right', pages: '2-', fontSize: 12 },
      outputMatches: { pageCount: 3, numberedPages: 2, firstLabel: '1' },
    },
  ],
};
