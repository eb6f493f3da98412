import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'url-encode',
  group: 'developer',
  name: 'URL encode / decode',
  description: 'Percent-encode text for use in a URL component (query value, path segment), or decode it back. Broken escapes are reported with their position.',
  keywords: ['url', 'uri', 'percent', 'encode', 'decode', 'escape', 'query string', 'encodeURIComponent'],
  api: true,
  limits: { maxInputBytes: 1_000_000 },
  inputSchema: {
    type: 'object',
    properties: {
      mode: { type: 'string', enum: ['encode', 'decode'] },
      text: { type: 'string' },
      plusAsSpace: { type: 'boolean', default: false, description: 'Decode "+" as a space (HTML form encoding).' },
    },
    required: ['mode', 'text'],
    additionalProperties: false,
  },
  examples: [
    { title: 'Encode a query value', input: { mode: 'encode', text: 'a&b=c d/é' }, output: { result: 'a%26b%3Dc%20d%2F%C3%A9' } },
    { title: 'Decode', input: { mode: 'decode', text: 'caf%C3%A9%20%F0%9F%8D%B5' }, output: { result: 'café 🍵' } },
    { title: 'Decode form encoding', input: { mode: 'decode', text: 'hello+world%21', plusAsSpace: true }, output: { result: 'hello world!' } },
  ],
};
