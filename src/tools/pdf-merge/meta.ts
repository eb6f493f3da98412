import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'pdf-merge',
  group: 'pdf',
  name: 'Merge PDFs',
  description: 'Join 2 to 50 PDF files into one, in the order given. Pages are copied as they are; bookmarks and form fields of the inputs are not kept.',
  keywords: ['pdf', 'merge', 'combine', 'join', 'concatenate'],
  api: true,
  limits: { maxInputBytes: 60_000_000, timeoutMs: 30_000 },
  inputSchema: {
    type: 'object',
    properties: {
      files: {
        type: 'array',
        description: 'The PDFs to join, first to last.',
        minItems: 2,
        maxItems: 50,
        items: { type: 'string', contentEncoding: 'base64', contentMediaType: 'application/pdf' },
      },
    },
    required: ['files'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'Merge a 3-page and a 1-page PDF',
      input: { files: ['JVBERi0xLjcKJYGBgYEKCjUgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL0xlbmd0aCA5Ngo+PgpzdHJlYW0KeJwdysEKQEAQBuD7/xRzVjK72dlVclDk4KLmBaQl4kDy/KLv+p2oFUyfa0HWxf2J9zqNqeci5IF9KMgI6Qybk/YwfzVkmYRJD5SOxYgXZ1laacRVpBs0QaMY8AIgFBT8CmVuZHN0cmVhbQplbmRvYmoKCjcgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL0xlbmd0aCA5Nwo+PgpzdHJlYW0KeJwr5HIK4TJQAMGidC59j9ScstSSzOREXUtzEyMzCyNTMwsFQzOFkDQuIxOFEB8uQ7BSQwUjAwUzA4WQXC4bUwMzQzNzM1MjA3MTc3MzNzuFkCyuEC0u1xCuQC4AHlgU7AplbmRzdHJlYW0KZW5kb2JqCgo5IDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9MZW5ndGggMTAwCj4+CnN0cmVhbQp4nB3KMQrCQBAF0P6fYmpB/Dtk/m5ALAQhhY0wFxCJwaCFQTy/GF773jgmaH/LhN0wPr/j53G7bp1kY/RNVmR5h3eWZ5S1FnOaaPnCPqiiqnDWTq26QnGwnJEbnBIX/ABtgxWcCmVuZHN0cmVhbQplbmRvYmoKCjEwIDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9UeXBlIC9PYmpTdG0KL04gNgovRmlyc3QgMzIKL0xlbmd0aCAyNzUKPj4Kc3RyZWFtCnictVDRSgMxEHzPV+wPSDZ3l7sESqEtrYKI0goK4kN6F46UkkgvJ/XvzV5PS5+1L0t2MjszjACEDGQJOWiEAkSVQVqkAAUyR5hMGH/++rDAn0xrO8bvXdPBW2IirBOTphrmO+OL0PsIOZtO2fluYaLZh5adBEAQ+ZKxCj4yvum3cVgJFIzPTWfpB/id3X/a6GrD+NLXoXG+Bf7i/Mx37ge4VCQrMjzYdH9y5Gvbhf5QpwjEG5Tp8St+U6FWhcJK6VTGGJK/Pm53th6otC6P8XYTTbQjQNiDbZyZh2NqBalNRBAZUh8z70OktoZufExpaJNjX3+PrKsiK1UmS3XlyNW/RU5eqFBqVV45sj5H/gbmdMbHCmVuZHN0cmVhbQplbmRvYmoKCjExIDAgb2JqCjw8Ci9TaXplIDEyCi9Sb290IDIgMCBSCi9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9UeXBlIC9YUmVmCi9MZW5ndGggNTAKL1cgWyAxIDIgMiBdCi9JbmRleCBbIDAgMTIgXQo+PgpzdHJlYW0KeJxjYGD4/5+JgYuBAUQwgggmEMHMyCAAEWNhZNgBYbEyMiYyANXwAQnmDgYGAJdKBCAKZW5kc3RyZWFtCmVuZG9iagoKc3RhcnR4cmVmCjkwNAolJUVPRg==', 'JVBERi0xLjcKJYGBgYEKCjUgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL0xlbmd0aCA5OAo+PgpzdHJlYW0KeJwr5HIK4TJQAMGidC59j9ScstSSzOREXXMDSwsTCwNzC0sFQzOFkDQuIxOFEB8uQ7BSQwUjAwUzA4WQXC4bEwszUzNnIHQzMjA1MDExMbNTCMniCtHicg3hCuQCAEzyFXIKZW5kc3RyZWFtCmVuZG9iagoKNiAwIG9iago8PAovRmlsdGVyIC9GbGF0ZURlY29kZQovVHlwZSAvT2JqU3RtCi9OIDQKL0ZpcnN0IDIwCi9MZW5ndGggMjMzCj4+CnN0cmVhbQp4nFVQ0UoDMRB836/YH5BN6uldoRTaUhVElFawID6kd8sRKYk0e1L/3mw8lb5lZmd3JmPR4ASrCi+xbrBCe21wNgN6/vpgpCfXcwK6913C1zw1uME3oFUcgqCF+Rz+tSsn7hB7+FlCq+JzxU0MArQd9lKgkhZo6RLrBOmOD58svnVA69DGzoce6cWHRUj+lzi/qFZqeGTNUxxpwykOxzZHUF25rI+/4xe1mTZVY+pmmj89hqTd4/6d2yJVuD7J7Vac8Ego98Cdd8t4yk0Ybc0YtBOjfSxCiKINlW6C5DSKrsa+8vI3Tp5ixwplbmRzdHJlYW0KZW5kb2JqCgo3IDAgb2JqCjw8Ci9TaXplIDgKL1Jvb3QgMiAwIFIKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL1R5cGUgL1hSZWYKL0xlbmd0aCAzOAovVyBbIDEgMiAyIF0KL0luZGV4IFsgMCA4IF0KPj4Kc3RyZWFtCnicFcSxDQAgCACwgomJm/+fwnMoHYrutJliymmFS6hfHh5TdAL9CmVuZHN0cmVhbQplbmRvYmoKCnN0YXJ0eHJlZgo1MjEKJSVFT0Y='] },
      outputMatches: { pageCount: 4, file: { name: 'merged.pdf', type: 'application/pdf' } },
    },
    {
      title: 'Merge the same PDF twice',
      input: { files: ['JVBERi0xLjcKJYGBgYEKCjUgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL0xlbmd0aCA5OAo+PgpzdHJlYW0KeJwr5HIK4TJQAMGidC59j9ScstSSzOREXXMDSwsTCwNzC0sFQzOFkDQuIxOFEB8uQ7BSQwUjAwUzA4WQXC4bEwszUzNnIHQzMjA1MDExMbNTCMniCtHicg3hCuQCAEzyFXIKZW5kc3RyZWFtCmVuZG9iagoKNiAwIG9iago8PAovRmlsdGVyIC9GbGF0ZURlY29kZQovVHlwZSAvT2JqU3RtCi9OIDQKL0ZpcnN0IDIwCi9MZW5ndGggMjMzCj4+CnN0cmVhbQp4nFVQ0UoDMRB836/YH5BN6uldoRTaUhVElFawID6kd8sRKYk0e1L/3mw8lb5lZmd3JmPR4ASrCi+xbrBCe21wNgN6/vpgpCfXcwK6913C1zw1uME3oFUcgqCF+Rz+tSsn7hB7+FlCq+JzxU0MArQd9lKgkhZo6RLrBOmOD58svnVA69DGzoce6cWHRUj+lzi/qFZqeGTNUxxpwykOxzZHUF25rI+/4xe1mTZVY+pmmj89hqTd4/6d2yJVuD7J7Vac8Ego98Cdd8t4yk0Ybc0YtBOjfSxCiKINlW6C5DSKrsa+8vI3Tp5ixwplbmRzdHJlYW0KZW5kb2JqCgo3IDAgb2JqCjw8Ci9TaXplIDgKL1Jvb3QgMiAwIFIKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL1R5cGUgL1hSZWYKL0xlbmd0aCAzOAovVyBbIDEgMiAyIF0KL0luZGV4IFsgMCA4IF0KPj4Kc3RyZWFtCnicFcSxDQAgCACwgomJm/+fwnMoHYrutJliymmFS6hfHh5TdAL9CmVuZHN0cmVhbQplbmRvYmoKCnN0YXJ0eHJlZgo1MjEKJSVFT0Y=', 'JVBERi0xLjcKJYGBgYEKCjUgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL0xlbmd0aCA5OAo+PgpzdHJlYW0KeJwr5HIK4TJQAMGidC59j9ScstSSzOREXXMDSwsTCwNzC0sFQzOFkDQuIxOFEB8uQ7BSQwUjAwUzA4WQXC4bEwszUzNnIHQzMjA1MDExMbNTCMniCtHicg3hCuQCAEzyFXIKZW5kc3RyZWFtCmVuZG9iagoKNiAwIG9iago8PAovRmlsdGVyIC9GbGF0ZURlY29kZQovVHlwZSAvT2JqU3RtCi9OIDQKL0ZpcnN0IDIwCi9MZW5ndGggMjMzCj4+CnN0cmVhbQp4nFVQ0UoDMRB836/YH5BN6uldoRTaUhVElFawID6kd8sRKYk0e1L/3mw8lb5lZmd3JmPR4ASrCi+xbrBCe21wNgN6/vpgpCfXcwK6913C1zw1uME3oFUcgqCF+Rz+tSsn7hB7+FlCq+JzxU0MArQd9lKgkhZo6RLrBOmOD58svnVA69DGzoce6cWHRUj+lzi/qFZqeGTNUxxpwykOxzZHUF25rI+/4xe1mTZVY+pmmj89hqTd4/6d2yJVuD7J7Vac8Ego98Cdd8t4yk0Ybc0YtBOjfSxCiKINlW6C5DSKrsa+8vI3Tp5ixwplbmRzdHJlYW0KZW5kb2JqCgo3IDAgb2JqCjw8Ci9TaXplIDgKL1Jvb3QgMiAwIFIKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL1R5cGUgL1hSZWYKL0xlbmd0aCAzOAovVyBbIDEgMiAyIF0KL0luZGV4IFsgMCA4IF0KPj4Kc3RyZWFtCnicFcSxDQAgCACwgomJm/+fwnMoHYrutJliymmFS6hfHh5TdAL9CmVuZHN0cmVhbQplbmRvYmoKCnN0YXJ0eHJlZgo1MjEKJSVFT0Y='] },
      outputMatches: { pageCount: 2, file: { name: 'merged.pdf', type: 'application/pdf' } },
    },
  ],
};
