import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'base64',
  group: 'developer',
  name: 'Base64 encode / decode',
  description: 'Encode text to Base64 or decode Base64 back to text, UTF-8 safe. Decoding accepts the standard and URL-safe alphabets, with or without padding.',
  keywords: ['base64', 'encode', 'decode', 'base64url', 'utf-8'],
  api: true,
  limits: { maxInputBytes: 1_000_000 },
  inputSchema: {
    type: 'object',
    properties: {
      mode: { type: 'string', enum: ['encode', 'decode'] },
      text: { type: 'string', description: 'Text to encode, or Base64 to decode (whitespace is ignored).' },
      urlSafe: { type: 'boolean', default: false, description: 'Encode with the URL-safe alphabet (- and _) and no padding.' },
    },
    required: ['mode', 'text'],
    additionalProperties: false,
  },
  examples: [
    { title: 'Encode', input: { mode: 'encode', text: 'Hello, world!' }, output: { result: 'SGVsbG8sIHdvcmxkIQ==' } },
    { title: 'Encode UTF-8', input: { mode: 'encode', text: 'héllo 👋' }, output: { result: 'aMOpbGxvIPCfkYs=' } },
    { title: 'Encode URL-safe', input: { mode: 'encode', text: '¿?>', urlSafe: true }, output: { result: 'wr8_Pg' } },
    { title: 'Decode', input: { mode: 'decode', text: 'aMOpbGxvIPCfkYs=' }, output: { result: 'héllo 👋' } },
    { title: 'Decode URL-safe without padding', input: { mode: 'decode', text: 'wr8_Pg' }, output: { result: '¿?>' } },
  ],
};
