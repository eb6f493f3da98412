import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'uuid',
  group: 'developer',
  name: 'UUID generator',
  description: 'Random UUIDs: version 4 (random) or version 7 (time-ordered, sortable by creation time), up to 100 at once.',
  keywords: ['uuid', 'guid', 'v4', 'v7', 'random', 'identifier', 'rfc 9562'],
  api: true,
  limits: { maxInputBytes: 1_000 },
  inputSchema: {
    type: 'object',
    properties: {
      version: { type: 'string', enum: ['v4', 'v7'], default: 'v4' },
      count: { type: 'integer', minimum: 1, maximum: 100, default: 1 },
    },
    additionalProperties: false,
  },
  examples: [
    { title: 'One version 4 UUID', input: {} },
    { title: 'Five time-ordered version 7 UUIDs', input: { version: 'v7', count: 5 } },
  ],
};
