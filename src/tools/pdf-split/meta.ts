import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'pdf-split',
  group: 'pdf',
  name: 'Split PDF',
  description: 'Split a PDF into several files: one per page range you give (such as 1-3,5,8-), or one file per page.',
  keywords: ['pdf', 'split', 'extract pages', 'separate', 'page range'],
  api: true,
  limits: { maxInputBytes: 30_000_000, timeoutMs: 30_000 },
  inputSchema: {
    type: 'object',
    properties: {
      file: { type: 'string', contentEncoding: 'base64', contentMediaType: 'application/pdf', description: 'The PDF to split.' },
      mode: {
        type: 'string',
        enum: ['ranges', 'every-page'],
        default: 'ranges',
        description: '"ranges": one file per range in `ranges`; "every-page": one file per page.',
      },
      ranges: {
        type: 'string',
        maxLength: 2000,
        'x-ui': 'line',
        description: 'Page ranges, comma-separated: 1-3,5,8- (8- means page 8 to the end). Used in "ranges" mode.',
      },
    },
    required: ['file'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'Pages 1-2 and page 4 as two files',
      input: { file: 'JVBERi0xLjcKJYGBgYEKCjUgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL0xlbmd0aCA4Mwo+PgpzdHJlYW0KeJwr5HIK4TJQAMGidC59j9ScstSSzOREXXMDSwsTCwNzC0sFQzOFkDQuIxOFEB8uQ7BSQwUjAwUzA4WQXC4bE0M7hZAsrhAtLtcQrkAuAAyOEfkKZW5kc3RyZWFtCmVuZG9iagoKNyAwIG9iago8PAovRmlsdGVyIC9GbGF0ZURlY29kZQovTGVuZ3RoIDgzCj4+CnN0cmVhbQp4nCvkcgrhMlAAwaJ0Ln2P1Jyy1JLM5ERdS3MTIzMLI1MzCwVDM4WQNC4jE4UQHy5DsFJDBSMDBTMDhZBcLhsTIzuFkCyuEC0u1xCuQC4ADBwR9wplbmRzdHJlYW0KZW5kb2JqCgo5IDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9MZW5ndGggODMKPj4Kc3RyZWFtCnicK+RyCuEyUADBonQufY/UnLLUkszkRF0jAwMDCwNTSwszBUMzhZA0LiMThRAfLkOwUkMFIwMFMwOFkFwuGxNjO4WQLK4QLS7XEK5ALgAICxHlCmVuZHN0cmVhbQplbmRvYmoKCjExIDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9MZW5ndGggODMKPj4Kc3RyZWFtCnicK+RyCuEyUADBonQufY/UnLLUkszkRF1Lc1MDEzNLIwNzBUMzhZA0LiMThRAfLkOwUkMFIwMFMwOFkFwuGxMTO4WQLK4QLS7XEK5ALgAKshHxCmVuZHN0cmVhbQplbmRvYmoKCjEyIDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9UeXBlIC9PYmpTdG0KL04gNwovRmlyc3QgMzkKL0xlbmd0aCAyOTUKPj4Kc3RyZWFtCnictZDdSgMxEIXv8xTzApJkd/MHpdCWqiCitIKCeJHuhiVSEulmpb69me1q6XXbmyQzmTPn43BgUIAsoQSjoAKuDEgohQYNolTAGSguYTIh9OXnywF9tq3rCH3wTQfvWcBglQV46uHMArw+CF3EPiSoyHRKjvKFTXYbW3LYAxyHTyduY0iErvtNGkpsckLntnP4A/Tebb9d8rUldBnq2PjQAn31YRY6/9c43YhWaLhzWX9wpCvXxX5XZwScGzbj43/5jWJGV5opbXI0IyR9e9p8unoYxXK5T3frZJMbG9h7dI2387jP4WASBWPAC4Z5zEKICUMbsgkp02AlxrzORzaqKqQuhNRXRlYXQ85eTDNhtLwysrlgyoJV0hRMXRmZ8yPzL68u+WYKZW5kc3RyZWFtCmVuZG9iagoKMTMgMCBvYmoKPDwKL1NpemUgMTQKL1Jvb3QgMiAwIFIKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL1R5cGUgL1hSZWYKL0xlbmd0aCA1NgovVyBbIDEgMiAyIF0KL0luZGV4IFsgMCAxNCBdCj4+CnN0cmVhbQp4nGNgYPj/n4mBh4EBRDCCCCYQwczIIAARY2FkWA1hsTIyukFYbIyMDxmAqmuBBAs3AwMAx30E7gplbmRzdHJlYW0KZW5kb2JqCgpzdGFydHhyZWYKMTAzNQolJUVPRg==', mode: 'ranges', ranges: '1-2,4' },
      outputMatches: {
        pageCount: 4,
        files: [
          { name: 'pages-1-2.pdf', type: 'application/pdf' },
          { name: 'page-4.pdf', type: 'application/pdf' },
        ],
        parts: [
          { name: 'pages-1-2.pdf', pageCount: 2 },
          { name: 'page-4.pdf', pageCount: 1 },
        ],
      },
    },
    {
      title: 'Every page separately',
      input: { file: 'JVBERi0xLjcKJYGBgYEKCjUgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL0xlbmd0aCA5Ngo+PgpzdHJlYW0KeJwdysEKQEAQBuD7/xRzVjK72dlVclDk4KLmBaQl4kDy/KLv+p2oFUyfa0HWxf2J9zqNqeci5IF9KMgI6Qybk/YwfzVkmYRJD5SOxYgXZ1laacRVpBs0QaMY8AIgFBT8CmVuZHN0cmVhbQplbmRvYmoKCjcgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL0xlbmd0aCA5Nwo+PgpzdHJlYW0KeJwr5HIK4TJQAMGidC59j9ScstSSzOREXUtzEyMzCyNTMwsFQzOFkDQuIxOFEB8uQ7BSQwUjAwUzA4WQXC4bUwMzQzNzM1MjA3MTc3MzNzuFkCyuEC0u1xCuQC4AHlgU7AplbmRzdHJlYW0KZW5kb2JqCgo5IDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9MZW5ndGggMTAwCj4+CnN0cmVhbQp4nB3KMQrCQBAF0P6fYmpB/Dtk/m5ALAQhhY0wFxCJwaCFQTy/GF773jgmaH/LhN0wPr/j53G7bp1kY/RNVmR5h3eWZ5S1FnOaaPnCPqiiqnDWTq26QnGwnJEbnBIX/ABtgxWcCmVuZHN0cmVhbQplbmRvYmoKCjEwIDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9UeXBlIC9PYmpTdG0KL04gNgovRmlyc3QgMzIKL0xlbmd0aCAyNzUKPj4Kc3RyZWFtCnictVDRSgMxEHzPV+wPSDZ3l7sESqEtrYKI0goK4kN6F46UkkgvJ/XvzV5PS5+1L0t2MjszjACEDGQJOWiEAkSVQVqkAAUyR5hMGH/++rDAn0xrO8bvXdPBW2IirBOTphrmO+OL0PsIOZtO2fluYaLZh5adBEAQ+ZKxCj4yvum3cVgJFIzPTWfpB/id3X/a6GrD+NLXoXG+Bf7i/Mx37ge4VCQrMjzYdH9y5Gvbhf5QpwjEG5Tp8St+U6FWhcJK6VTGGJK/Pm53th6otC6P8XYTTbQjQNiDbZyZh2NqBalNRBAZUh8z70OktoZufExpaJNjX3+PrKsiK1UmS3XlyNW/RU5eqFBqVV45sj5H/gbmdMbHCmVuZHN0cmVhbQplbmRvYmoKCjExIDAgb2JqCjw8Ci9TaXplIDEyCi9Sb290IDIgMCBSCi9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9UeXBlIC9YUmVmCi9MZW5ndGggNTAKL1cgWyAxIDIgMiBdCi9JbmRleCBbIDAgMTIgXQo+PgpzdHJlYW0KeJxjYGD4/5+JgYuBAUQwgggmEMHMyCAAEWNhZNgBYbEyMiYyANXwAQnmDgYGAJdKBCAKZW5kc3RyZWFtCmVuZG9iagoKc3RhcnR4cmVmCjkwNAolJUVPRg==', mode: 'every-page' },
      outputMatches: {
        pageCount: 3,
        files: [{ name: 'page-1.pdf' }, { name: 'page-2.pdf' }, { name: 'page-3.pdf' }],
      },
    },
    {
      title: 'From page 3 to the end',
      input: { file: 'JVBERi0xLjcKJYGBgYEKCjUgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL0xlbmd0aCA4Mwo+PgpzdHJlYW0KeJwr5HIK4TJQAMGidC59j9ScstSSzOREXXMDSwsTCwNzC0sFQzOFkDQuIxOFEB8uQ7BSQwUjAwUzA4WQXC4bE0M7hZAsrhAtLtcQrkAuAAyOEfkKZW5kc3RyZWFtCmVuZG9iagoKNyAwIG9iago8PAovRmlsdGVyIC9GbGF0ZURlY29kZQovTGVuZ3RoIDgzCj4+CnN0cmVhbQp4nCvkcgrhMlAAwaJ0Ln2P1Jyy1JLM5ERdS3MTIzMLI1MzCwVDM4WQNC4jE4UQHy5DsFJDBSMDBTMDhZBcLhsTIzuFkCyuEC0u1xCuQC4ADBwR9wplbmRzdHJlYW0KZW5kb2JqCgo5IDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9MZW5ndGggODMKPj4Kc3RyZWFtCnicK+RyCuEyUADBonQufY/UnLLUkszkRF0jAwMDCwNTSwszBUMzhZA0LiMThRAfLkOwUkMFIwMFMwOFkFwuGxNjO4WQLK4QLS7XEK5ALgAICxHlCmVuZHN0cmVhbQplbmRvYmoKCjExIDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9MZW5ndGggODMKPj4Kc3RyZWFtCnicK+RyCuEyUADBonQufY/UnLLUkszkRF1Lc1MDEzNLIwNzBUMzhZA0LiMThRAfLkOwUkMFIwMFMwOFkFwuGxMTO4WQLK4QLS7XEK5ALgAKshHxCmVuZHN0cmVhbQplbmRvYmoKCjEyIDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9UeXBlIC9PYmpTdG0KL04gNwovRmlyc3QgMzkKL0xlbmd0aCAyOTUKPj4Kc3RyZWFtCnictZDdSgMxEIXv8xTzApJkd/MHpdCWqiCitIKCeJHuhiVSEulmpb69me1q6XXbmyQzmTPn43BgUIAsoQSjoAKuDEgohQYNolTAGSguYTIh9OXnywF9tq3rCH3wTQfvWcBglQV46uHMArw+CF3EPiSoyHRKjvKFTXYbW3LYAxyHTyduY0iErvtNGkpsckLntnP4A/Tebb9d8rUldBnq2PjQAn31YRY6/9c43YhWaLhzWX9wpCvXxX5XZwScGzbj43/5jWJGV5opbXI0IyR9e9p8unoYxXK5T3frZJMbG9h7dI2387jP4WASBWPAC4Z5zEKICUMbsgkp02AlxrzORzaqKqQuhNRXRlYXQ85eTDNhtLwysrlgyoJV0hRMXRmZ8yPzL68u+WYKZW5kc3RyZWFtCmVuZG9iagoKMTMgMCBvYmoKPDwKL1NpemUgMTQKL1Jvb3QgMiAwIFIKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL1R5cGUgL1hSZWYKL0xlbmd0aCA1NgovVyBbIDEgMiAyIF0KL0luZGV4IFsgMCAxNCBdCj4+CnN0cmVhbQp4nGNgYPj/n4mBh4EBRDCCCCYQwczIIAARY2FkWA1hsTIyukFYbIyMDxmAqmuBBAs3AwMAx30E7gplbmRzdHJlYW0KZW5kb2JqCgpzdGFydHhyZWYKMTAzNQolJUVPRg==', ranges: '3-' },
      outputMatches: { pageCount: 4, parts: [{ name: 'pages-3-4.pdf', pageCount: 2 }] },
    },
  ],
};
