/**
 * `npx tsx bench/round-trips.ts`: how many PostgreSQL queries and Redis commands one
 * `POST /api/v1/query` costs on PostgreSQL + Redis (DATABASE_URL and REDIS_URL must be set), for a
 * cached and an uncached answer, with the per-knowledge-base limits on and the per-address limit
 * off and on. Counted in process (pg's `Client.query` and ioredis's `sendCommand` wrapped), after
 * warm-up requests, as the median over a few requests of each kind. A schema of its own, dropped
 * at the end. docs/performance.md ("Round trips per query") records its output.
 */
import pg from 'pg';
import { Redis } from 'ioredis';
import { startServer } from '../test/support/server.js';
import { FAQ, SAMPLE_QUESTION } from './faq.js';
import { uniqueQuestions } from './generated.js';
import { withSchema } from './scale.js';
import { ask, prepareKnowledgeBase } from './setup.js';

const counts = { pg: 0, redis: [] as string[] };
const pgQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  counts.pg++;
  return (pgQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;
const sendCommand = Redis.prototype.sendCommand;
Redis.prototype.sendCommand = function (this: Redis, command, stream) {
  counts.redis.push(command.name);
  return sendCommand.call(this, command, stream);
};

export interface RoundTrips {
  label: string;
  pg: number;
  redis: number;
  redisCommands: string;
}

async function measure(label: string, run: () => Promise<unknown>, times = 5): Promise<RoundTrips> {
  const seen: RoundTrips[] = [];
  for (let i = 0; i < times; i++) {
    counts.pg = 0;
    counts.redis = [];
    await run();
    // The usage recorder writes in batches on a timer: not a per-query cost, and not counted here.
    seen.push({ label, pg: counts.pg, redis: counts.redis.length, redisCommands: counts.redis.join(' ') });
  }
  seen.sort((a, b) => a.pg + a.redis - (b.pg + b.redis));
  return seen[Math.floor(seen.length / 2)] as RoundTrips;
}

export async function countRoundTrips(databaseUrl: string, redisUrl: string): Promise<RoundTrips[]> {
  const out: RoundTrips[] = [];
  const fresh = uniqueQuestions();
  for (const ipLimit of ['0', '100000']) {
    await withSchema(databaseUrl, async (url) => {
      const server = await startServer({ DATABASE_URL: url, REDIS_URL: redisUrl, IP_RATE_PER_SECOND: ipLimit, QUERY_RATE_PER_MINUTE: '1000000', QUERY_QUOTA_PER_DAY: '100000000', QUERY_CACHE_TTL_SECONDS: '60' });
      const redis = new Redis(redisUrl);
      try {
        const kb = await prepareKnowledgeBase(server.baseUrl, FAQ);
        for (let i = 0; i < 5; i++) await ask(server.baseUrl, kb, SAMPLE_QUESTION);
        const tag = ipLimit === '0' ? 'per-address limit off' : 'per-address limit on';
        out.push(await measure(`cached answer, ${tag}`, () => ask(server.baseUrl, kb, SAMPLE_QUESTION)));
        out.push(await measure(`uncached answer (new question), ${tag}`, () => ask(server.baseUrl, kb, fresh())));
      } finally {
        redis.disconnect();
        await server.stop();
      }
    });
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const databaseUrl = process.env.DATABASE_URL?.trim();
  const redisUrl = process.env.REDIS_URL?.trim();
  if (!databaseUrl || !redisUrl) {
    process.stderr.write('set DATABASE_URL and REDIS_URL\n');
    process.exit(2);
  }
  const rows = await countRoundTrips(databaseUrl, redisUrl);
  process.stdout.write('| query | PostgreSQL queries | Redis commands | which |\n| --- | --- | --- | --- |\n');
  for (const r of rows) process.stdout.write(`| ${r.label} | ${r.pg} | ${r.redis} | ${r.redisCommands || '–'} |\n`);
  process.exit(0);
}
