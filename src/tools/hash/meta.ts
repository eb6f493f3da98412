import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'hash',
  group: 'developer',
  name: 'Hash generator',
  description: 'SHA-1, SHA-256, SHA-384 or SHA-512 digest of text (as UTF-8), in hex or Base64.',
  keywords: ['hash', 'digest', 'sha', 'sha1', 'sha256', 'sha384', 'sha512', 'checksum'],
  api: true,
  limits: { maxInputBytes: 1_000_000 },
  inputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string', description: 'The text to hash (empty is allowed).' },
      algorithm: { type: 'string', enum: ['sha-1', 'sha-256', 'sha-384', 'sha-512'], default: 'sha-256' },
      encoding: { type: 'string', enum: ['hex', 'base64'], default: 'hex' },
    },
    required: ['text'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'SHA-256 of "abc"',
      input: { text: 'abc' },
      output: { algorithm: 'sha-256', encoding: 'hex', digest: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' },
    },
    { title: 'SHA-1 of the empty string', input: { text: '', algorithm: 'sha-1' }, output: { algorithm: 'sha-1', encoding: 'hex', digest: 'da39a3ee5e6b4b0d3255bfef95601890afd80709' } },
    {
      title: 'SHA-512 in Base64',
      input: { text: 'abc', algorithm: 'sha-512', encoding: 'base64' },
      output: { algorithm: 'sha-512', encoding: 'base64', digest: '3a81oZNherrMQXNJriBBMRLm+k6JqX6iCp7u5ktV05ohkpkqJ0/BqDa6PCOj/uu9RU1EI2Q86A4qmslPpUyknw==' },
    },
  ],
};
