import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'password-gen',
  group: 'developer',
  name: 'Password generator and strength check',
  description: 'Generate random passwords from the character sets you choose (cryptographic randomness, no bias), or estimate how guessable a password is with zxcvbn.',
  keywords: ['password', 'generator', 'random', 'strength', 'zxcvbn', 'passphrase', 'secure'],
  api: true,
  limits: { maxInputBytes: 10_000 },
  inputSchema: {
    type: 'object',
    properties: {
      mode: { type: 'string', enum: ['generate', 'check'], default: 'generate', description: 'generate new passwords, or check the strength of one.' },
      length: { type: 'integer', minimum: 4, maximum: 1024, default: 20, description: 'Characters per password.' },
      count: { type: 'integer', minimum: 1, maximum: 100, default: 1, description: 'How many passwords.' },
      lowercase: { type: 'boolean', default: true, description: 'Include a–z.' },
      uppercase: { type: 'boolean', default: true, description: 'Include A–Z.' },
      digits: { type: 'boolean', default: true, description: 'Include 0–9.' },
      symbols: { type: 'boolean', default: true, description: 'Include symbols such as !#$%&*.' },
      excludeLookAlikes: { type: 'boolean', default: false, description: 'Leave out characters that are easy to confuse: I l 1 O 0 o |.' },
      password: { type: 'string', 'x-ui': 'password', maxLength: 256, description: 'check mode: the password to rate (at most 256 characters).' },
    },
    required: [],
    additionalProperties: false,
  },
  examples: [
    { title: 'One 20-character password', input: { length: 20 }, outputMatches: { length: 20, alphabetSize: 90, entropyBits: 129.8 } },
    { title: 'Five PINs without look-alikes', input: { length: 6, count: 5, lowercase: false, uppercase: false, symbols: false, excludeLookAlikes: true }, outputMatches: { length: 6, alphabetSize: 8 } },
    { title: 'Check a weak password', input: { mode: 'check', password: 'P@ssw0rd' }, outputMatches: { score: 0 } },
  ],
};
