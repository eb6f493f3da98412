import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'json-format',
  group: 'developer',
  name: 'JSON formatter',
  description: 'Pretty-print, minify or validate JSON. Invalid JSON is reported with the line and column of the first error.',
  keywords: ['json', 'format', 'pretty', 'beautify', 'minify', 'validate', 'lint'],
  api: true,
  limits: { maxInputBytes: 1_000_000 },
  inputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string', description: 'The JSON text.' },
      mode: { type: 'string', enum: ['pretty', 'minify', 'validate'], default: 'pretty' },
      indent: { description: 'Indentation for pretty: 2 or 4 spaces, or "tab".', enum: [2, 4, 'tab'], default: 2 },
      sortKeys: { type: 'boolean', default: false, description: 'Sort object keys alphabetically (pretty and minify).' },
    },
    required: ['text'],
    additionalProperties: false,
  },
  examples: [
    { title: 'Pretty-print', input: { text: '{"b":1,"a":[true,null]}' }, output: { result: '{\n  "b": 1,\n  "a": [\n    true,\n    null\n  ]\n}' } },
    { title: 'Minify with sorted keys', input: { text: '{ "b": 1,\n  "a": "x" }', mode: 'minify', sortKeys: true }, output: { result: '{"a":"x","b":1}' } },
    { title: 'Indent with tabs', input: { text: '[1]', indent: 'tab' }, output: { result: '[\n\t1\n]' } },
    { title: 'Validate valid JSON', input: { text: '{"ok": true}', mode: 'validate' }, output: { valid: true } },
    {
      title: 'Validate a trailing comma',
      input: { text: '{\n  "a": 1,\n}', mode: 'validate' },
      output: { valid: false, error: { message: 'Trailing comma before "}"', line: 3, column: 1 } },
    },
  ],
};
