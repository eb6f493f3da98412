import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'pdf-to-images',
  group: 'pdf',
  name: 'PDF to images (PNG, JPEG)',
  description: 'Render PDF pages to PNG or JPEG images in your browser with pdf.js, at the scale you choose. Runs only in the browser; there is no API endpoint.',
  keywords: ['pdf to image', 'pdf to png', 'pdf to jpg', 'render', 'convert', 'pdf'],
  api: false,
  browser: 'browser',
  runsIn: 'page',
  limits: { maxInputBytes: 60_000_000, timeoutMs: 60_000 },
  inputSchema: {
    type: 'object',
    properties: {
      file: { type: 'string', contentEncoding: 'base64', contentMediaType: 'application/pdf', description: 'The PDF to render.' },
      format: { type: 'string', enum: ['png', 'jpeg'], default: 'png', description: 'PNG is sharp and larger; JPEG is smaller, for photos and scans.' },
      scale: { type: 'number', minimum: 0.25, maximum: 8, default: 2, description: 'Pixels per point: 1 = 72 dpi, 2 = 144 dpi, 4 = 288 dpi.' },
      quality: { type: 'number', minimum: 0.1, maximum: 1, default: 0.9, description: 'JPEG quality (ignored for PNG).' },
      pages: { type: 'string', maxLength: 2000, 'x-ui': 'line', description: 'Pages to render, e.g. 1-3,5. Empty: all pages.' },
    },
    required: ['file'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'A one-page PDF as a PNG at 144 dpi',
      input: { file: 'JVBERi0xLjcKJYGBgYEKCjUgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL0xlbmd0aCA5OAo+PgpzdHJlYW0KeJwr5HIK4TJQAMGidC59j9ScstSSzOREXXMDSwsTCwNzC0sFQzOFkDQuIxOFEB8uQ7BSQwUjAwUzA4WQXC4bEwszUzNnIHQzMjA1MDExMbNTCMniCtHicg3hCuQCAEzyFXIKZW5kc3RyZWFtCmVuZG9iagoKNiAwIG9iago8PAovRmlsdGVyIC9GbGF0ZURlY29kZQovVHlwZSAvT2JqU3RtCi9OIDQKL0ZpcnN0IDIwCi9MZW5ndGggMjMzCj4+CnN0cmVhbQp4nFVQ0UoDMRB836/YH5BN6uldoRTaUhVElFawID6kd8sRKYk0e1L/3mw8lb5lZmd3JmPR4ASrCi+xbrBCe21wNgN6/vpgpCfXcwK6913C1zw1uME3oFUcgqCF+Rz+tSsn7hB7+FlCq+JzxU0MArQd9lKgkhZo6RLrBOmOD58svnVA69DGzoce6cWHRUj+lzi/qFZqeGTNUxxpwykOxzZHUF25rI+/4xe1mTZVY+pmmj89hqTd4/6d2yJVuD7J7Vac8Ego98Cdd8t4yk0Ybc0YtBOjfSxCiKINlW6C5DSKrsa+8vI3Tp5ixwplbmRzdHJlYW0KZW5kb2JqCgo3IDAgb2JqCjw8Ci9TaXplIDgKL1Jvb3QgMiAwIFIKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL1R5cGUgL1hSZWYKL0xlbmd0aCAzOAovVyBbIDEgMiAyIF0KL0luZGV4IFsgMCA4IF0KPj4Kc3RyZWFtCnicFcSxDQAgCACwgomJm/+fwnMoHYrutJliymmFS6hfHh5TdAL9CmVuZHN0cmVhbQplbmRvYmoKCnN0YXJ0eHJlZgo1MjEKJSVFT0Y=', format: 'png', scale: 2 },
      outputMatches: {
        pageCount: 1,
        files: [{ name: 'page-1.png', type: 'image/png' }],
        images: [{ name: 'page-1.png', page: 1, width: 400, height: 240 }],
      },
    },
    {
      title: 'Page 2 of three as a JPEG at 72 dpi',
      input: { file: 'JVBERi0xLjcKJYGBgYEKCjUgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL0xlbmd0aCA5Ngo+PgpzdHJlYW0KeJwdysEKQEAQBuD7/xRzVjK72dlVclDk4KLmBaQl4kDy/KLv+p2oFUyfa0HWxf2J9zqNqeci5IF9KMgI6Qybk/YwfzVkmYRJD5SOxYgXZ1laacRVpBs0QaMY8AIgFBT8CmVuZHN0cmVhbQplbmRvYmoKCjcgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL0xlbmd0aCA5Nwo+PgpzdHJlYW0KeJwr5HIK4TJQAMGidC59j9ScstSSzOREXUtzEyMzCyNTMwsFQzOFkDQuIxOFEB8uQ7BSQwUjAwUzA4WQXC4bUwMzQzNzM1MjA3MTc3MzNzuFkCyuEC0u1xCuQC4AHlgU7AplbmRzdHJlYW0KZW5kb2JqCgo5IDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9MZW5ndGggMTAwCj4+CnN0cmVhbQp4nB3KMQrCQBAF0P6fYmpB/Dtk/m5ALAQhhY0wFxCJwaCFQTy/GF773jgmaH/LhN0wPr/j53G7bp1kY/RNVmR5h3eWZ5S1FnOaaPnCPqiiqnDWTq26QnGwnJEbnBIX/ABtgxWcCmVuZHN0cmVhbQplbmRvYmoKCjEwIDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9UeXBlIC9PYmpTdG0KL04gNgovRmlyc3QgMzIKL0xlbmd0aCAyNzUKPj4Kc3RyZWFtCnictVDRSgMxEHzPV+wPSDZ3l7sESqEtrYKI0goK4kN6F46UkkgvJ/XvzV5PS5+1L0t2MjszjACEDGQJOWiEAkSVQVqkAAUyR5hMGH/++rDAn0xrO8bvXdPBW2IirBOTphrmO+OL0PsIOZtO2fluYaLZh5adBEAQ+ZKxCj4yvum3cVgJFIzPTWfpB/id3X/a6GrD+NLXoXG+Bf7i/Mx37ge4VCQrMjzYdH9y5Gvbhf5QpwjEG5Tp8St+U6FWhcJK6VTGGJK/Pm53th6otC6P8XYTTbQjQNiDbZyZh2NqBalNRBAZUh8z70OktoZufExpaJNjX3+PrKsiK1UmS3XlyNW/RU5eqFBqVV45sj5H/gbmdMbHCmVuZHN0cmVhbQplbmRvYmoKCjExIDAgb2JqCjw8Ci9TaXplIDEyCi9Sb290IDIgMCBSCi9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9UeXBlIC9YUmVmCi9MZW5ndGggNTAKL1cgWyAxIDIgMiBdCi9JbmRleCBbIDAgMTIgXQo+PgpzdHJlYW0KeJxjYGD4/5+JgYuBAUQwgggmEMHMyCAAEWNhZNgBYbEyMiYyANXwAQnmDgYGAJdKBCAKZW5kc3RyZWFtCmVuZG9iagoKc3RhcnR4cmVmCjkwNAolJUVPRg==', format: 'jpeg', scale: 1, pages: '2' },
      outputMatches: {
        pageCount: 1,
        files: [{ name: 'page-2.jpg', type: 'image/jpeg' }],
        images: [{ name: 'page-2.jpg', page: 2, width: 200, height: 120 }],
      },
    },
  ],
};
