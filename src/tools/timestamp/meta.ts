import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'timestamp',
  group: 'developer',
  name: 'Unix timestamp converter',
  description: 'Convert a Unix time (seconds or milliseconds, detected) or an ISO 8601 / RFC 2822 date to ISO, UTC, RFC 2822, Unix seconds and milliseconds, and local time in a time zone.',
  keywords: ['timestamp', 'unix time', 'epoch', 'date', 'iso 8601', 'rfc 2822', 'time zone', 'convert'],
  api: true,
  limits: { maxInputBytes: 10_000 },
  inputSchema: {
    type: 'object',
    properties: {
      value: { type: 'string', 'x-ui': 'line', maxLength: 100, description: 'A Unix time (1700000000 or 1700000000000) or a date such as 2026-01-31T09:00:00Z or "Sat, 31 Jan 2026 09:00:00 +0000". A date-time without an offset is read as UTC.' },
      unit: { type: 'string', enum: ['auto', 'seconds', 'milliseconds'], default: 'auto', description: 'How to read a number: auto treats 12 or more digits as milliseconds.' },
      timezone: { type: 'string', 'x-ui': 'line', default: 'UTC', description: 'IANA time zone for the local time, e.g. "Asia/Tokyo".' },
    },
    required: ['value'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'Unix seconds to Tokyo time',
      input: { value: '1700000000', timezone: 'Asia/Tokyo' },
      output: {
        detected: 'unix seconds',
        iso: '2023-11-14T22:13:20.000Z',
        utc: 'Tue, 14 Nov 2023 22:13:20 GMT',
        rfc2822: 'Tue, 14 Nov 2023 22:13:20 +0000',
        unixSeconds: 1700000000,
        unixMilliseconds: 1700000000000,
        timezone: 'Asia/Tokyo',
        local: '2023-11-15 07:13:20 +09:00',
      },
    },
    {
      title: 'Milliseconds, detected',
      input: { value: '1700000000123' },
      outputMatches: { detected: 'unix milliseconds', iso: '2023-11-14T22:13:20.123Z', unixSeconds: 1700000000, local: '2023-11-14 22:13:20 +00:00' },
    },
    {
      title: 'RFC 2822 date to New York time',
      input: { value: 'Sat, 31 Jan 2026 09:00:00 +0100', timezone: 'America/New_York' },
      outputMatches: { detected: 'RFC 2822 date', iso: '2026-01-31T08:00:00.000Z', unixSeconds: 1769846400, local: '2026-01-31 03:00:00 -05:00' },
    },
  ],
};
