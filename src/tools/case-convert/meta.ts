import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'case-convert',
  group: 'developer',
  name: 'Case converter',
  description: 'Convert text to camelCase, PascalCase, snake_case, kebab-case, CONSTANT_CASE, Title Case, Sentence case, dot.case, path/case, UPPER and lower, all at once. Works with accented and non-Latin letters.',
  keywords: ['case', 'camelcase', 'snake_case', 'kebab-case', 'pascalcase', 'constant', 'title case', 'convert', 'identifier'],
  api: true,
  limits: { maxInputBytes: 100_000 },
  inputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string', maxLength: 50_000, description: 'The text or identifier to convert.' },
    },
    required: ['text'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'Mixed identifier',
      input: { text: 'helloWorld HTTPServer v2' },
      output: {
        camel: 'helloWorldHttpServerV2', pascal: 'HelloWorldHttpServerV2', snake: 'hello_world_http_server_v2', kebab: 'hello-world-http-server-v2',
        constant: 'HELLO_WORLD_HTTP_SERVER_V2', title: 'Hello World Http Server V2', sentence: 'Hello world http server v2', dot: 'hello.world.http.server.v2',
        path: 'hello/world/http/server/v2', upper: 'HELLOWORLD HTTPSERVER V2', lower: 'helloworld httpserver v2',
      },
    },
    {
      title: 'Accented words',
      input: { text: 'Größe der Übergrößen-Ärmel' },
      outputMatches: { camel: 'größeDerÜbergrößenÄrmel', snake: 'größe_der_übergrößen_ärmel', constant: 'GRÖSSE_DER_ÜBERGRÖSSEN_ÄRMEL' },
    },
    { title: 'snake_case in', input: { text: 'user_id' }, outputMatches: { camel: 'userId', pascal: 'UserId', kebab: 'user-id', title: 'User Id' } },
  ],
};
