import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'pdf-compress',
  group: 'pdf',
  name: 'PDF re-save (lossless size reduction)',
  description: 'Make a PDF smaller without changing how it looks: re-save it with compressed object streams and drop objects nothing uses. Images are not re-compressed, so scanned PDFs shrink little; if the result is not smaller, you get the original back.',
  keywords: ['pdf', 'compress', 'reduce size', 'optimize', 'shrink', 'lossless'],
  api: true,
  limits: { maxInputBytes: 60_000_000, timeoutMs: 30_000 },
  inputSchema: {
    type: 'object',
    properties: {
      file: { type: 'string', contentEncoding: 'base64', contentMediaType: 'application/pdf', description: 'The PDF to re-save.' },
    },
    required: ['file'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'A PDF saved without object streams',
      input: { file: 'JVBERi0xLjcKJYGBgYEKCjEgMCBvYmoKPDwKL1R5cGUgL1BhZ2VzCi9LaWRzIFsgNCAwIFIgNiAwIFIgOCAwIFIgXQovQ291bnQgMwo+PgplbmRvYmoKCjIgMCBvYmoKPDwKL1R5cGUgL0NhdGFsb2cKL1BhZ2VzIDEgMCBSCj4+CmVuZG9iagoKMyAwIG9iago8PAovVHlwZSAvRm9udAovU3VidHlwZSAvVHlwZTEKL0Jhc2VGb250IC9IZWx2ZXRpY2EKL0VuY29kaW5nIC9XaW5BbnNpRW5jb2RpbmcKPj4KZW5kb2JqCgo0IDAgb2JqCjw8Ci9UeXBlIC9QYWdlCi9QYXJlbnQgMSAwIFIKL1Jlc291cmNlcyA8PAovRm9udCA8PAovSGVsdmV0aWNhLTcwOTg0ODA3ODkgMyAwIFIKPj4KL1hPYmplY3QgPDwKPj4KL0V4dEdTdGF0ZSA8PAo+Pgo+PgovTWVkaWFCb3ggWyAwIDAgMjAwIDEyMCBdCi9Bbm5vdHMgWyBdCi9Db250ZW50cyBbIDUgMCBSIF0KPj4KZW5kb2JqCgo1IDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9MZW5ndGggOTYKPj4Kc3RyZWFtCnicHcrBCkBAEAbg+/8Uc1Yyu9nZVXJQ5OCi5gWkJeJA8vyi7/qdqBVMn2tB1sX9ifc6jannIuSBfSjICOkMm5P2MH81ZJmESQ+UjsWIF2dZWmnEVaQbNEGjGPACIBQU/AplbmRzdHJlYW0KZW5kb2JqCgo2IDAgb2JqCjw8Ci9UeXBlIC9QYWdlCi9QYXJlbnQgMSAwIFIKL1Jlc291cmNlcyA8PAovRm9udCA8PAovSGVsdmV0aWNhLTk3NDI2ODI1NjggMyAwIFIKPj4KL1hPYmplY3QgPDwKPj4KL0V4dEdTdGF0ZSA8PAo+Pgo+PgovTWVkaWFCb3ggWyAwIDAgMjAwIDEyMCBdCi9Bbm5vdHMgWyBdCi9Db250ZW50cyBbIDcgMCBSIF0KPj4KZW5kb2JqCgo3IDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9MZW5ndGggOTcKPj4Kc3RyZWFtCnicK+RyCuEyUADBonQufY/UnLLUkszkRF1LcxMjMwsjUzMLBUMzhZA0LiMThRAfLkOwUkMFIwMFMwOFkFwuG1MDM0MzczNTIwNzE3NzMzc7hZAsrhAtLtcQrkAuAB5YFOwKZW5kc3RyZWFtCmVuZG9iagoKOCAwIG9iago8PAovVHlwZSAvUGFnZQovUGFyZW50IDEgMCBSCi9SZXNvdXJjZXMgPDwKL0ZvbnQgPDwKL0hlbHZldGljYS0yMDAwODA1OTg2IDMgMCBSCj4+Ci9YT2JqZWN0IDw8Cj4+Ci9FeHRHU3RhdGUgPDwKPj4KPj4KL01lZGlhQm94IFsgMCAwIDIwMCAxMjAgXQovQW5ub3RzIFsgXQovQ29udGVudHMgWyA5IDAgUiBdCj4+CmVuZG9iagoKOSAwIG9iago8PAovRmlsdGVyIC9GbGF0ZURlY29kZQovTGVuZ3RoIDEwMAo+PgpzdHJlYW0KeJwdyjEKwkAQBdD+n2JqQfw7ZP5uQCwEIYWNMBcQicGghUE8vxhe+944Jmh/y4TdMD6/4+dxu26dZGP0TVZkeYd3lmeUtRZzmmj5wj6ooqpw1k6tukJxsJyRG5wSF/wAbYMVnAplbmRzdHJlYW0KZW5kb2JqCgp4cmVmCjAgMTAKMDAwMDAwMDAwMCA2NTUzNSBmIAowMDAwMDAwMDE2IDAwMDAwIG4gCjAwMDAwMDAwODggMDAwMDAgbiAKMDAwMDAwMDEzOCAwMDAwMCBuIAowMDAwMDAwMjM2IDAwMDAwIG4gCjAwMDAwMDA0MzEgMDAwMDAgbiAKMDAwMDAwMDU5OSAwMDAwMCBuIAowMDAwMDAwNzk0IDAwMDAwIG4gCjAwMDAwMDA5NjMgMDAwMDAgbiAKMDAwMDAwMTE1OCAwMDAwMCBuIAoKdHJhaWxlcgo8PAovU2l6ZSAxMAovUm9vdCAyIDAgUgo+PgoKc3RhcnR4cmVmCjEzMzEKJSVFT0Y=' },
      outputMatches: { pageCount: 3, bytesBefore: 1598, bytesAfter: 1108, savedPercent: 30.7, file: { name: 'resaved.pdf', type: 'application/pdf' } },
    },
    {
      title: 'An already compact PDF comes back unchanged',
      input: { file: 'JVBERi0xLjcKJYGBgYEKCjUgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL0xlbmd0aCA5Ngo+PgpzdHJlYW0KeJwdysEKQEAQBuD7/xRzVjK72dlVclDk4KLmBaQl4kDy/KLv+p2oFUyfa0HWxf2J9zqNqeci5IF9KMgI6Qybk/YwfzVkmYRJD5SOxYgXZ1laacRVpBs0QaMY8AIgFBT8CmVuZHN0cmVhbQplbmRvYmoKCjcgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL0xlbmd0aCA5Nwo+PgpzdHJlYW0KeJwr5HIK4TJQAMGidC59j9ScstSSzOREXUtzEyMzCyNTMwsFQzOFkDQuIxOFEB8uQ7BSQwUjAwUzA4WQXC4bUwMzQzNzM1MjA3MTc3MzNzuFkCyuEC0u1xCuQC4AHlgU7AplbmRzdHJlYW0KZW5kb2JqCgo5IDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9MZW5ndGggMTAwCj4+CnN0cmVhbQp4nB3KMQrCQBAF0P6fYmpB/Dtk/m5ALAQhhY0wFxCJwaCFQTy/GF773jgmaH/LhN0wPr/j53G7bp1kY/RNVmR5h3eWZ5S1FnOaaPnCPqiiqnDWTq26QnGwnJEbnBIX/ABtgxWcCmVuZHN0cmVhbQplbmRvYmoKCjEwIDAgb2JqCjw8Ci9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9UeXBlIC9PYmpTdG0KL04gNgovRmlyc3QgMzIKL0xlbmd0aCAyNzUKPj4Kc3RyZWFtCnictVDRSgMxEHzPV+wPSDZ3l7sESqEtrYKI0goK4kN6F46UkkgvJ/XvzV5PS5+1L0t2MjszjACEDGQJOWiEAkSVQVqkAAUyR5hMGH/++rDAn0xrO8bvXdPBW2IirBOTphrmO+OL0PsIOZtO2fluYaLZh5adBEAQ+ZKxCj4yvum3cVgJFIzPTWfpB/id3X/a6GrD+NLXoXG+Bf7i/Mx37ge4VCQrMjzYdH9y5Gvbhf5QpwjEG5Tp8St+U6FWhcJK6VTGGJK/Pm53th6otC6P8XYTTbQjQNiDbZyZh2NqBalNRBAZUh8z70OktoZufExpaJNjX3+PrKsiK1UmS3XlyNW/RU5eqFBqVV45sj5H/gbmdMbHCmVuZHN0cmVhbQplbmRvYmoKCjExIDAgb2JqCjw8Ci9TaXplIDEyCi9Sb290IDIgMCBSCi9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9UeXBlIC9YUmVmCi9MZW5ndGggNTAKL1cgWyAxIDIgMiBdCi9JbmRleCBbIDAgMTIgXQo+PgpzdHJlYW0KeJxjYGD4/5+JgYuBAUQwgggmEMHMyCAAEWNhZNgBYbEyMiYyANXwAQnmDgYGAJdKBCAKZW5kc3RyZWFtCmVuZG9iagoKc3RhcnR4cmVmCjkwNAolJUVPRg==' },
      outputMatches: { pageCount: 3, bytesBefore: 1108, bytesAfter: 1108, savedPercent: 0, file: { name: 'original.pdf' } },
    },
  ],
};
