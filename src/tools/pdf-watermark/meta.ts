import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'pdf-watermark',
  group: 'pdf',
  name: 'Add a text watermark to a PDF',
  description: 'Stamp a line of text such as CONFIDENTIAL or DRAFT on every page (or the pages you choose), with opacity, size, angle, colour and position. Uses the built-in Helvetica font, which covers Western European characters only.',
  keywords: ['pdf', 'watermark', 'stamp', 'confidential', 'draft', 'text overlay'],
  api: true,
  limits: { maxInputBytes: 30_000_000, timeoutMs: 30_000 },
  inputSchema: {
    type: 'object',
    properties: {
      file: { type: 'string', contentEncoding: 'base64', contentMediaType: 'application/pdf', description: 'The PDF to watermark.' },
      text: { type: 'string', minLength: 1, maxLength: 200, 'x-ui': 'line', description: 'The watermark text (one line; Western European characters).' },
      fontSize: { type: 'number', minimum: 4, maximum: 300, default: 48, description: 'Text size in points.' },
      opacity: { type: 'number', exclusiveMinimum: 0, maximum: 1, default: 0.3, description: 'From almost invisible (0.05) to solid (1).' },
      rotation: { type: 'number', minimum: -360, maximum: 360, default: 45, description: 'Angle in degrees, counter-clockwise.' },
      position: {
        type: 'string',
        enum: ['center', 'top-left', 'top-center', 'top-right', 'bottom-left', 'bottom-center', 'bottom-right'],
        default: 'center',
        description: 'Where on the page the text goes.',
      },
      color: { type: 'string', pattern: '^#[0-9a-fA-F]{6}$', default: '#808080', 'x-ui': 'line', description: 'Text colour as #rrggbb.' },
      pages: { type: 'string', maxLength: 2000, 'x-ui': 'line', description: 'Pages to stamp, e.g. 1-3,5. Empty: all pages.' },
    },
    required: ['file', 'text'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'CONFIDENTIAL across every page',
      input: { file: 'JVBERi0xLjcKJYGBgYEKCjUgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL0xlbmd0aCA5Ngo+PgpzdHJlYW0KeJwdysEKQEAQBuD7/xRzVjK72dlVclDk4KLmBaQl4kDy/KLv+p2oFUyfa0HWxf2J9zqNqeci5IF9KMgI6Qybk/YwfzVkmYRJD5SOxYgXZ1laacRVpBs0QaMY8AIgFBT8CmVuZHN0cmVhbQplbmRvYmoKCjcgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL0xlbmd0aCA5Nwo+PgpzdHJlYW0KeJwr5HIK4TJQAMGidC59j9ScstSSzOREXUtzEyMzCyNTMwsFQzOFkDQuIxOFEB8uQ7BSQwUjAwUzA4WQXC4bUwMzQzNzM1MjA3MTc3MzNzuFkCyuEC0u1xCuQC4AHlgU7AplbmRzdHJlYW0KZW5kb2JqCgo5IDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9MZW5ndGggMTAwCj4+CnN0cmVhbQp4nB3KMQrCQBAF0P6fYmpB/Dtk/m5ALAQhhY0wFxCJwaCFQTy/GF773jgmaH/LhN0wPr/j53G7bp1kY/RNVmR5h3eWZ5S1FnOaaPnCPqiiqnDWTq26QnGwnJEbnBIX/ABtgxWcCmVuZHN0cmVhbQplbmRvYmoKCjEwIDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9UeXBlIC9PYmpTdG0KL04gNgovRmlyc3QgMzIKL0xlbmd0aCAyNzUKPj4Kc3RyZWFtCnictVDRSgMxEHzPV+wPSDZ3l7sESqEtrYKI0goK4kN6F46UkkgvJ/XvzV5PS5+1L0t2MjszjACEDGQJOWiEAkSVQVqkAAUyR5hMGH/++rDAn0xrO8bvXdPBW2IirBOTphrmO+OL0PsIOZtO2fluYaLZh5adBEAQ+ZKxCj4yvum3cVgJFIzPTWfpB/id3X/a6GrD+NLXoXG+Bf7i/Mx37ge4VCQrMjzYdH9y5Gvbhf5QpwjEG5Tp8St+U6FWhcJK6VTGGJK/Pm53th6otC6P8XYTTbQjQNiDbZyZh2NqBalNRBAZUh8z70OktoZufExpaJNjX3+PrKsiK1UmS3XlyNW/RU5eqFBqVV45sj5H/gbmdMbHCmVuZHN0cmVhbQplbmRvYmoKCjExIDAgb2JqCjw8Ci9TaXplIDEyCi9Sb290IDIgMCBSCi9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9UeXBlIC9YUmVmCi9MZW5ndGggNTAKL1cgWyAxIDIgMiBdCi9JbmRleCBbIDAgMTIgXQo+PgpzdHJlYW0KeJxjYGD4/5+JgYuBAUQwgggmEMHMyCAAEWNhZNgBYbEyMiYyANXwAQnmDgYGAJdKBCAKZW5kc3RyZWFtCmVuZG9iagoKc3RhcnR4cmVmCjkwNAolJUVPRg==', text: 'CONFIDENTIAL', fontSize: 24 },
      outputMatches: { pageCount: 3, stampedPages: 3, file: { name: 'watermarked.pdf', type: 'application/pdf' } },
    },
    {
      title: 'A red DRAFT in the top right corner of page 1',
      input: { file: 'JVBERi0xLjcKJYGBgYEKCjUgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL0xlbmd0aCA5Ngo+PgpzdHJlYW0KeJwdysEKQEAQBuD7/xRzVjK72dlVclDk4KLmBaQl4kDy/KLv+p2oFUyfa0HWxf2J9zqNqeci5IF9KMgI6Qybk/YwfzVkmYRJD5SOxYgXZ1laacRVpBs0QaMY8AIgFBT8CmVuZHN0cmVhbQplbmRvYmoKCjcgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL0xlbmd0aCA5Nwo+PgpzdHJlYW0KeJwr5HIK4TJQAMGidC59j9ScstSSzOREXUtzEyMzCyNTMwsFQzOFkDQuIxOFEB8uQ7BSQwUjAwUzA4WQXC4bUwMzQzNzM1MjA3MTc3MzNzuFkCyuEC0u1xCuQC4AHlgU7AplbmRzdHJlYW0KZW5kb2JqCgo5IDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9MZW5ndGggMTAwCj4+CnN0cmVhbQp4nB3KMQrCQBAF0P6fYmpB/Dtk/m5ALAQhhY0wFxCJwaCFQTy/GF773jgmaH/LhN0wPr/j53G7bp1kY/RNVmR5h3eWZ5S1FnOaaPnCPqiiqnDWTq26QnGwnJEbnBIX/ABtgxWcCmVuZHN0cmVhbQplbmRvYmoKCjEwIDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9UeXBlIC9PYmpTdG0KL04gNgovRmlyc3QgMzIKL0xlbmd0aCAyNzUKPj4Kc3RyZWFtCnictVDRSgMxEHzPV+wPSDZ3l7sESqEtrYKI0goK4kN6F46UkkgvJ/XvzV5PS5+1L0t2MjszjACEDGQJOWiEAkSVQVqkAAUyR5hMGH/++rDAn0xrO8bvXdPBW2IirBOTphrmO+OL0PsIOZtO2fluYaLZh5adBEAQ+ZKxCj4yvum3cVgJFIzPTWfpB/id3X/a6GrD+NLXoXG+Bf7i/Mx37ge4VCQrMjzYdH9y5Gvbhf5QpwjEG5Tp8St+U6FWhcJK6VTGGJK/Pm53th6otC6P8XYTTbQjQNiDbZyZh2NqBalNRBAZUh8z70OktoZufExpaJNjX3+PrKsiK1UmS3XlyNW/RU5eqFBqVV45sj5H/gbmdMbHCmVuZHN0cmVhbQplbmRvYmoKCjExIDAgb2JqCjw8Ci9TaXplIDEyCi9Sb290IDIgMCBSCi9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9UeXBlIC9YUmVmCi9MZW5ndGggNTAKL1cgWyAxIDIgMiBdCi9JbmRleCBbIDAgMTIgXQo+PgpzdHJlYW0KeJxjYGD4/5+JgYuBAUQwgggmEMHMyCAAEWNhZNgBYbEyMiYyANXwAQnmDgYGAJdKBCAKZW5kc3RyZWFtCmVuZG9iagoKc3RhcnR4cmVmCjkwNAolJUVPRg==', text: 'DRAFT', fontSize: 14, rotation: 0, opacity: 1, position: 'top-right', color: '#cc0000', pages: '1' },
      outputMatches: { pageCount: 3, stampedPages: 1 },
    },
  ],
};
