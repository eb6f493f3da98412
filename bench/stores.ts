/**
 * The `stores` scenario (issue 14): one Groundwork instance on SQLite (no Redis) against one on
 * PostgreSQL + Redis, both with the in-memory retriever (RETRIEVAL_BACKEND=memory), the answer cache
 * on and every limit on (set so high that nothing is refused), under the same load, interleaved:
 * the cached query (the same question) and the uncached one (a new question every request). Server
 * CPU per request, and throughput only over repetitions in which both servers were saturated.
 * The PostgreSQL instance gets a schema of its own, dropped afterwards. Needs DATABASE_URL and
 * REDIS_URL; otherwise the scenario is skipped with that reason.
 */
import type { ServerChild } from './children.js';
import { load, type LoadResult } from './http-load.js';
import { type Arm, interleave, type LoadSummary, pairedRatio, type PairedRatio, summariseLoads } from './interleave.js';
import { withSchema } from './scale.js';
import { prepareKnowledgeBase, type PreparedKb } from './setup.js';
import { FAQ } from './faq.js';
import { Redis } from 'ioredis';

/** Redis's own CPU so far (`INFO cpu`: the server's user + system seconds), µs. */
export async function redisCpuMicros(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const seconds = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? Number.NaN);
  return Math.round((seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1e6);
}

export type StoresResult =
  | { status: 'skipped'; reason: string }
  | {
      status: 'measured';
      /** sqliteCached, postgresCached, sqliteUncached, postgresUncached. */
      arms: Record<string, LoadSummary>;
      /** PostgreSQL + Redis against SQLite, repetition by repetition, cached and uncached. */
      ratios: { cached: PairedRatio; uncached: PairedRatio };
    };

export interface StoresOptions {
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  spawn: (name: string, env: Record<string, string>) => Promise<ServerChild>;
  reps: number;
  connections: number;
  warmupSec: number;
  rewarmSec: number;
  durationSec: number;
  question: string;
  fresh: () => string;
  log: (message: string) => void;
}

export async function storesScenario(o: StoresOptions): Promise<StoresResult> {
  if (!o.databaseUrl || !o.redisUrl) {
    const missing = [!o.databaseUrl && 'DATABASE_URL', !o.redisUrl && 'REDIS_URL'].filter(Boolean).join(' and ');
    return { status: 'skipped', reason: `${missing} not set` };
  }
  const redisUrl = o.redisUrl;
  return withSchema(o.databaseUrl, async (databaseUrl) => {
    o.log('stores: starting SQLite and PostgreSQL + Redis instances');
    const [sqlite, postgres] = await Promise.all([
      o.spawn('groundwork sqlite', { RETRIEVAL_BACKEND: 'memory' }),
      o.spawn('groundwork postgres + redis', { RETRIEVAL_BACKEND: 'memory', DATABASE_URL: databaseUrl, REDIS_URL: redisUrl }),
    ]);
    // Redis runs on the same host: its CPU per query is reported beside the instance's.
    const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await redis.connect();
      const kbs = new Map<ServerChild, PreparedKb>([
        [sqlite, await prepareKnowledgeBase(sqlite.url, FAQ)],
        [postgres, await prepareKnowledgeBase(postgres.url, FAQ)],
      ]);
      const arm = (key: string, label: string, server: ServerChild, cached: boolean): Arm<LoadResult> => {
        const kb = kbs.get(server) as PreparedKb;
        return {
          key,
          label,
          run: (rep) =>
            load({
              label,
              server,
              path: '/api/v1/query',
              connections: o.connections,
              warmupSec: rep === 0 ? o.warmupSec : o.rewarmSec,
              durationSec: o.durationSec,
              headers: { 'x-api-key': kb.apiKey },
              bodies: [{ ragId: kb.ragId, query: o.question }],
              ...(cached ? {} : { nextBody: () => ({ ragId: kb.ragId, query: o.fresh() }) }),
              ...(server === postgres ? { dependencyCpuMicros: () => redisCpuMicros(redis) } : {}),
            }),
        };
      };
      const arms = [
        arm('sqliteCached', 'SQLite, cached', sqlite, true),
        arm('postgresCached', 'PostgreSQL + Redis, cached', postgres, true),
        arm('sqliteUncached', 'SQLite, new questions', sqlite, false),
        arm('postgresUncached', 'PostgreSQL + Redis, new questions', postgres, false),
      ];
      const results = await interleave(arms, o.reps, o.log);
      const summaries: Record<string, LoadSummary> = {};
      for (const [key, list] of results) summaries[key] = summariseLoads(list);
      const of = (key: string) => results.get(key) as LoadResult[];
      return {
        status: 'measured' as const,
        arms: summaries,
        ratios: { cached: pairedRatio(of('postgresCached'), of('sqliteCached')), uncached: pairedRatio(of('postgresUncached'), of('sqliteUncached')) },
      };
    } finally {
      redis.disconnect();
      await Promise.all([sqlite.stop(), postgres.stop()]);
    }
  });
}
