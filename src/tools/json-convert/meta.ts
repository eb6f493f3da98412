import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'json-convert',
  group: 'developer',
  name: 'JSON / YAML / CSV / TOML converter',
  description: 'Convert data between JSON, YAML, CSV and TOML. CSV works only with a list of flat records; parse errors give the line and column.',
  keywords: ['json', 'yaml', 'csv', 'toml', 'convert', 'yml', 'transform'],
  api: true,
  limits: { maxInputBytes: 1_000_000 },
  inputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string', description: 'The data to convert.' },
      from: { type: 'string', enum: ['json', 'yaml', 'csv', 'toml'], description: 'Format of the input.' },
      to: { type: 'string', enum: ['json', 'yaml', 'csv', 'toml'], description: 'Format of the output.' },
      csvTypes: { type: 'boolean', default: true, description: 'Reading CSV: turn numbers, true/false and empty cells into numbers, booleans and null.' },
    },
    required: ['text', 'from', 'to'],
    additionalProperties: false,
  },
  examples: [
    { title: 'JSON to YAML', input: { text: '{"name":"app","ports":[80,443],"debug":false}', from: 'json', to: 'yaml' }, output: { result: 'name: app\nports:\n  - 80\n  - 443\ndebug: false\n' } },
    { title: 'CSV to JSON', input: { text: 'id,name\n1,Ada\n2,Linus', from: 'csv', to: 'json' }, output: { result: '[\n  {\n    "id": 1,\n    "name": "Ada"\n  },\n  {\n    "id": 2,\n    "name": "Linus"\n  }\n]' } },
    { title: 'TOML to JSON', input: { text: '[server]\nhost = "localhost"\nport = 8080', from: 'toml', to: 'json' }, output: { result: '{\n  "server": {\n    "host": "localhost",\n    "port": 8080\n  }\n}' } },
    { title: 'JSON to CSV', input: { text: '[{"id":1,"tags":"a,b"},{"id":2,"note":"x"}]', from: 'json', to: 'csv' }, output: { result: 'id,tags,note\r\n1,"a,b",\r\n2,,x' } },
  ],
};
