// Lint configuration: ESLint's and typescript-eslint's recommended rules for
// every TypeScript file, plus a few that keep the code honest. Type-aware
// rules are left to `tsc --noEmit`, which `npm test` runs first.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** What domain code may not import: HTTP (Fastify, src/http) and concrete adapters (src/adapters). */
const domainBoundary = [
  { regex: '^(fastify|@fastify/.*|light-my-request)$', message: 'The domain has no HTTP in it: parse and map in src/http, call a service.' },
  { regex: '^(\\.{1,2}/)+(.*/)?http/', message: 'The domain does not import src/http: routes call the domain, not the other way round.' },
  { regex: '^(\\.{1,2}/)+(.*/)?adapters/', message: 'The domain does not import a concrete adapter: depend on a port in src/ports and let src/compose.ts inject the adapter.' },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', 'coverage/', 'bench/results/', 'eval/results/', 'test-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // Sanitising control characters is part of the job here (extraction, headers, names).
      'no-control-regex': 'off',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none' }],
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    // The domain boundary (docs/decisions.md, "Shape"): the domain — knowledge, identity,
    // tools, limits and the ports it owns — does not know HTTP or any concrete adapter. It
    // reaches the outside through the ports in src/ports, and src/compose.ts plugs the
    // adapters in. (The storage port used to live in src/adapters/storage/port.ts and needed
    // an exception here; it has moved to src/ports/storage.ts, so there is none.)
    files: ['src/knowledge/**/*.{ts,tsx}', 'src/identity/**/*.{ts,tsx}', 'src/tools/**/*.{ts,tsx}', 'src/limits/**/*.{ts,tsx}', 'src/ports/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: domainBoundary }],
    },
  },
  {
    // An object literal made in a function with its own `get`/`set` accessors gets a V8 hidden class
    // of its own, in the old generation, which keeps the accessors' closures (and all they capture)
    // alive until the next full collection: per request, that is the request's whole object graph
    // (docs/decisions.md, "Per-request objects and V8's young generation"). Use a class.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: ':function ObjectExpression > Property[kind=/^(get|set)$/]',
          message: 'An accessor in an object literal made per call gets a hidden class of its own that pins its closures: use a class (docs/decisions.md, "Per-request objects and V8\'s young generation").',
        },
      ],
    },
  },
  {
    // Stand-ins are passed in, not patched into modules, the environment or globals: what a test
    // runs is the real wiring, and test files could share one module graph per worker
    // (docs/decisions.md, "Tests"), where such a patch would leak into the files after it.
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['mock', 'doMock', 'stubEnv', 'stubGlobal'].map((property) => ({
          object: 'vi',
          property,
          message: 'Pass a stand-in in; do not patch modules, the environment or globals (docs/decisions.md, "Tests").',
        })),
      ],
    },
  },
);
