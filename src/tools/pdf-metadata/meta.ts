import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'pdf-metadata',
  group: 'pdf',
  name: 'PDF metadata viewer and editor',
  description: 'Show a PDF’s title, author, subject, keywords, creator, producer, dates, page count and page sizes, or set new values and download the edited PDF. Only the document information is edited; an XMP metadata stream is left unchanged.',
  keywords: ['pdf', 'metadata', 'properties', 'title', 'author', 'info', 'edit'],
  api: true,
  limits: { maxInputBytes: 30_000_000, timeoutMs: 30_000 },
  inputSchema: {
    type: 'object',
    properties: {
      file: { type: 'string', contentEncoding: 'base64', contentMediaType: 'application/pdf', description: 'The PDF to read or edit.' },
      mode: { type: 'string', enum: ['read', 'edit'], default: 'read', description: '"read" shows the metadata; "edit" sets the fields given below and returns the edited PDF.' },
      title: { type: 'string', maxLength: 1000, 'x-ui': 'line', description: 'New title (edit mode; empty removes it).' },
      author: { type: 'string', maxLength: 1000, 'x-ui': 'line', description: 'New author (edit mode; empty removes it).' },
      subject: { type: 'string', maxLength: 1000, 'x-ui': 'line', description: 'New subject (edit mode; empty removes it).' },
      keywords: { type: 'string', maxLength: 1000, 'x-ui': 'line', description: 'New keywords, as one line (edit mode; empty removes them).' },
      creator: { type: 'string', maxLength: 1000, 'x-ui': 'line', description: 'The application that made the original (edit mode).' },
      producer: { type: 'string', maxLength: 1000, 'x-ui': 'line', description: 'The application that made the PDF (edit mode).' },
      creationDate: { type: 'string', maxLength: 40, 'x-ui': 'line', description: 'Creation date, ISO 8601: 2026-01-31 or 2026-01-31T14:30:00Z (edit mode).' },
      modificationDate: { type: 'string', maxLength: 40, 'x-ui': 'line', description: 'Modification date, ISO 8601 (edit mode).' },
    },
    required: ['file'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'Read the metadata',
      input: { file: 'JVBERi0xLjcKJYGBgYEKCjYgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL1R5cGUgL09ialN0bQovTiA1Ci9GaXJzdCAyNgovTGVuZ3RoIDI5Ngo+PgpzdHJlYW0KeJylkM1qwzAQhO9+ij22J69kSUmKCbR2fAmFEHpq6cHEIjWEqPiHNm/f2cpuyLk+WCvtNzPLKmLSZJkyWhoypOyKLOnMUJ4n6cvl01O6q4++T9Jt2/T0BpBpD1L+70lahPE8kE7W6+SqKOqhPoVjEqWkBL4lpCHtzkMd++ne92HsDhCAA50++6atn8I3UlnmZCalGan/thIbsbtatcPJU15tqorZKuaFZXZyAlsY1DbWrsC5YkYZ7/KO2lUzi7THcfgI3WxnYONMtBOZKSbcRblYSs9lcod86y9focO2JwMnIDLdZgI3MzzNgbdMQbjrQjMe/F/y72AmGuhyShIjDbjofD204VzWg6e78kGzdqwyBTN8r/dYWmhumpoVL7PYxN5+APCiiRQKZW5kc3RyZWFtCmVuZG9iagoKNyAwIG9iago8PAovU2l6ZSA4Ci9Sb290IDIgMCBSCi9JbmZvIDUgMCBSCi9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9UeXBlIC9YUmVmCi9MZW5ndGggMzcKL1cgWyAxIDIgMiBdCi9JbmRleCBbIDAgOCBdCj4+CnN0cmVhbQp4nBXEsQ0AIAwDMKcgZv4feLWoHozucpgy1bSmHZfk8QFPmALiCmVuZHN0cmVhbQplbmRvYmoKCnN0YXJ0eHJlZgo0MTQKJSVFT0Y=' },
      output: {
        title: 'Quarterly report',
        author: 'Ada Lovelace',
        subject: null,
        keywords: 'finance q1',
        creator: null,
        producer: 'pdf-lib',
        creationDate: '2026-01-31T10:00:00.000Z',
        modificationDate: '2026-02-01T08:30:00.000Z',
        pageCount: 2,
        pageSizes: [
          { width: 200, height: 120, pages: 1 },
          { width: 120, height: 200, pages: 1 },
        ],
      },
    },
    {
      title: 'Set a new title and creation date, remove the keywords',
      input: { file: 'JVBERi0xLjcKJYGBgYEKCjYgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL1R5cGUgL09ialN0bQovTiA1Ci9GaXJzdCAyNgovTGVuZ3RoIDI5Ngo+PgpzdHJlYW0KeJylkM1qwzAQhO9+ij22J69kSUmKCbR2fAmFEHpq6cHEIjWEqPiHNm/f2cpuyLk+WCvtNzPLKmLSZJkyWhoypOyKLOnMUJ4n6cvl01O6q4++T9Jt2/T0BpBpD1L+70lahPE8kE7W6+SqKOqhPoVjEqWkBL4lpCHtzkMd++ne92HsDhCAA50++6atn8I3UlnmZCalGan/thIbsbtatcPJU15tqorZKuaFZXZyAlsY1DbWrsC5YkYZ7/KO2lUzi7THcfgI3WxnYONMtBOZKSbcRblYSs9lcod86y9focO2JwMnIDLdZgI3MzzNgbdMQbjrQjMe/F/y72AmGuhyShIjDbjofD204VzWg6e78kGzdqwyBTN8r/dYWmhumpoVL7PYxN5+APCiiRQKZW5kc3RyZWFtCmVuZG9iagoKNyAwIG9iago8PAovU2l6ZSA4Ci9Sb290IDIgMCBSCi9JbmZvIDUgMCBSCi9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9UeXBlIC9YUmVmCi9MZW5ndGggMzcKL1cgWyAxIDIgMiBdCi9JbmRleCBbIDAgOCBdCj4+CnN0cmVhbQp4nBXEsQ0AIAwDMKcgZv4feLWoHozucpgy1bSmHZfk8QFPmALiCmVuZHN0cmVhbQplbmRvYmoKCnN0YXJ0eHJlZgo0MTQKJSVFT0Y=', mode: 'edit', title: 'Annual report', keywords: '', creationDate: '2026-03-15T09:00:00Z' },
      outputMatches: {
        title: 'Annual report',
        author: 'Ada Lovelace',
        keywords: null,
        creationDate: '2026-03-15T09:00:00.000Z',
        file: { name: 'edited.pdf', type: 'application/pdf' },
      },
    },
  ],
};
