import type { ToolMeta } from '../types.js';

const jwtIo = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

export const meta: ToolMeta = {
  id: 'jwt-decode',
  group: 'developer',
  name: 'JWT decoder (HMAC verify optional)',
  description: 'Decode a JSON Web Token\'s header and payload and show its exp, iat and nbf times. Decoding does not prove anything: give the secret to verify an HS256/384/512 signature.',
  keywords: ['jwt', 'json web token', 'decode', 'verify', 'hs256', 'bearer', 'claims', 'jose'],
  api: true,
  limits: { maxInputBytes: 100_000 },
  inputSchema: {
    type: 'object',
    properties: {
      token: { type: 'string', description: 'The JWT (three Base64url parts separated by dots); a leading "Bearer " is ignored.' },
      secret: { type: 'string', 'x-ui': 'password', description: 'Optional shared secret (UTF-8 text) to verify an HS256, HS384 or HS512 signature.' },
    },
    required: ['token'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'Decode (not verified)',
      input: { token: jwtIo },
      output: {
        status: 'decoded, not verified',
        verified: false,
        header: { alg: 'HS256', typ: 'JWT' },
        payload: { sub: '1234567890', name: 'John Doe', iat: 1516239022 },
        times: { iat: '2018-01-18T01:30:22.000Z' },
        expired: null,
      },
    },
    {
      title: 'Verify with the secret',
      input: { token: jwtIo, secret: 'your-256-bit-secret' },
      output: {
        status: 'verified: the HS256 signature matches the secret',
        verified: true,
        header: { alg: 'HS256', typ: 'JWT' },
        payload: { sub: '1234567890', name: 'John Doe', iat: 1516239022 },
        times: { iat: '2018-01-18T01:30:22.000Z' },
        expired: null,
      },
    },
    {
      title: 'A wrong secret',
      input: { token: jwtIo, secret: 'guess' },
      outputMatches: { status: 'decoded, not verified: the signature does NOT match this secret', verified: false },
    },
  ],
};
