import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'cron-explain',
  group: 'developer',
  name: 'Cron expression explainer',
  description: 'Describe a cron expression in plain English and list its next five run times from a start time, in a time zone. A bad expression names the field that is wrong.',
  keywords: ['cron', 'crontab', 'schedule', 'next run', 'explain', 'cron expression'],
  api: true,
  limits: { maxInputBytes: 10_000 },
  inputSchema: {
    type: 'object',
    properties: {
      expression: { type: 'string', 'x-ui': 'line', maxLength: 200, description: '5 fields (minute hour day-of-month month day-of-week), 6 with seconds first, or @daily, @hourly…' },
      from: { type: 'string', 'x-ui': 'line', description: 'Start time (ISO 8601); the next runs come after it. Default: now.' },
      timezone: { type: 'string', 'x-ui': 'line', default: 'UTC', description: 'IANA time zone the schedule runs in, e.g. "Europe/Berlin".' },
    },
    required: ['expression'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'Every 15 minutes in office hours',
      input: { expression: '*/15 9-17 * * 1-5', from: '2026-01-02T16:40:00Z' },
      output: {
        description: 'Every 15 minutes, between 09:00 AM and 05:59 PM, Monday through Friday',
        timezone: 'UTC',
        next: ['2026-01-02T16:45:00.000Z', '2026-01-02T17:00:00.000Z', '2026-01-02T17:15:00.000Z', '2026-01-02T17:30:00.000Z', '2026-01-02T17:45:00.000Z'],
        nextLocal: ['2026-01-02 16:45:00 +00:00', '2026-01-02 17:00:00 +00:00', '2026-01-02 17:15:00 +00:00', '2026-01-02 17:30:00 +00:00', '2026-01-02 17:45:00 +00:00'],
      },
    },
    {
      title: 'Midnight in Berlin',
      input: { expression: '0 0 * * *', from: '2026-03-27T12:00:00Z', timezone: 'Europe/Berlin' },
      output: {
        description: 'At 12:00 AM',
        timezone: 'Europe/Berlin',
        next: ['2026-03-27T23:00:00.000Z', '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z', '2026-03-30T22:00:00.000Z', '2026-03-31T22:00:00.000Z'],
        nextLocal: ['2026-03-28 00:00:00 +01:00', '2026-03-29 00:00:00 +01:00', '2026-03-30 00:00:00 +02:00', '2026-03-31 00:00:00 +02:00', '2026-04-01 00:00:00 +02:00'],
      },
    },
    {
      title: 'Monthly macro',
      input: { expression: '@monthly', from: '2026-01-15T00:00:00Z' },
      outputMatches: { description: 'At 12:00 AM, on day 1 of the month', next: ['2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z', '2026-05-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z'] },
    },
  ],
};
