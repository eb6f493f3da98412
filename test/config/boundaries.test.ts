/**
 * The domain boundary is enforced by ESLint (eslint.config.js, `no-restricted-imports`):
 * code under src/knowledge, src/identity, src/tools, src/limits and src/ports may not import
 * Fastify, src/http or a concrete adapter under src/adapters. These snippets are linted as if
 * they were files at those paths, with the project's own configuration.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: root });

async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = [x];\n`, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('domain import boundary', () => {
  it.each([
    ['src/knowledge/query/violation.ts', "import { MemoryAnswerCache as x } from '../../adapters/cache/memory.js';"],
    ['src/knowledge/query/violation.ts', "import type { SqliteStore as x } from '../../adapters/storage/sqlite/store.js';"],
    ['src/knowledge/query/violation.ts', "import { x } from '../../adapters/storage/port.js';"],
    ['src/identity/oauth/violation.ts', "import { buildApp as x } from '../../http/app.js';"],
    ['src/identity/violation.ts', "import x from 'fastify';"],
    ['src/tools/hash/violation.ts', "import type { FastifyRequest as x } from 'fastify';"],
    ['src/tools/hash/violation.tsx', "import { x } from '../../adapters/cache/memory.js';"],
    ['src/limits/violation.ts', "import { RedisRateLimiter as x } from '../adapters/limits/redis.js';"],
    ['src/ports/violation.ts', "import { x } from '@fastify/cookie';"],
  ])('refuses %s importing: %s', async (file, code) => {
    const errors = await boundaryErrors(file, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/domain/);
  });

  it.each([
    ['src/knowledge/query/allowed.ts', "import type { AnswerCache as x } from '../../ports/answer-cache.js';"],
    ['src/knowledge/query/allowed.ts', "import type { KnowledgeStore as x } from '../../ports/storage.js';"],
    ['src/identity/allowed.ts', "import { rateLimitHeaders as x } from '../limits/headers.js';"],
    ['src/identity/allowed.ts', "import x from 'node:http';"],
    // Outside the domain the same imports are fine: routes and the composition root use adapters.
    ['src/http/routes/allowed.ts', "import { MemoryAnswerCache as x } from '../../adapters/cache/memory.js';"],
    ['src/compose-like.ts', "import x from 'fastify';"],
  ])('allows %s importing: %s', async (file, code) => {
    expect(await boundaryErrors(file, code)).toEqual([]);
  });
});
