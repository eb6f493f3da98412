import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'regex-tester',
  group: 'developer',
  name: 'Regex tester (JavaScript)',
  description: 'Run a JavaScript regular expression over text and list every match with its position and capture groups. Runs only in your browser, stopped after one second.',
  keywords: ['regex', 'regexp', 'regular expression', 'match', 'test', 'capture groups', 'pattern'],
  // Never on the server: a hostile pattern can backtrack for hours (ReDoS).
  api: false,
  limits: { maxInputBytes: 1_000_000, timeoutMs: 1000 },
  inputSchema: {
    type: 'object',
    properties: {
      pattern: { type: 'string', 'x-ui': 'line', description: 'The pattern, without the surrounding slashes.' },
      flags: { type: 'string', 'x-ui': 'line', pattern: '^[dgimsuvy]*$', default: 'g', description: 'Flags: g (all matches), i, m, s, u, v, y, d.' },
      text: { type: 'string', description: 'The text to search.' },
    },
    required: ['pattern', 'text'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'Dates with named groups',
      input: { pattern: '(?<year>\\d{4})-(?<month>\\d{2})', flags: 'g', text: 'From 2024-05 to 2025-11.' },
      output: {
        matchCount: 2,
        truncated: false,
        matches: [
          { match: '2024-05', index: 5, groups: ['2024', '05'], namedGroups: { year: '2024', month: '05' } },
          { match: '2025-11', index: 16, groups: ['2025', '11'], namedGroups: { year: '2025', month: '11' } },
        ],
      },
    },
    {
      title: 'First match only (no g flag), case-insensitive',
      input: { pattern: 'cat', flags: 'i', text: 'Cat, cat, CAT' },
      output: { matchCount: 1, truncated: false, matches: [{ match: 'Cat', index: 0, groups: [] }] },
    },
    {
      title: 'Empty matches do not loop',
      input: { pattern: 'x*', flags: 'g', text: 'ab' },
      output: { matchCount: 3, truncated: false, matches: [{ match: '', index: 0, groups: [] }, { match: '', index: 1, groups: [] }, { match: '', index: 2, groups: [] }] },
    },
  ],
};
