import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../src/adapters/storage/migrations.js';
import { PostgresStore } from '../../src/adapters/storage/postgres/dialect.js';
import { describeIf, postgres } from '../support/requirements.js';
import { storeContract } from './contract.js';

const connectionString = process.env.DATABASE_URL ?? '';

// Each run gets its own schemas, so runs (and other suites) on one server never see each other's rows.
const created: string[] = [];
function freshSchema(): string {
  const schema = `gw_test_${randomBytes(6).toString('hex')}`;
  created.push(schema);
  return schema;
}

describeIf(postgres, 'PostgreSQL store contract', () => {
  // Registered before the contract's own afterAll, so it runs after the store is closed.
  afterAll(async () => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      for (const schema of created) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await client.end();
    }
  });

  storeContract(async () => new PostgresStore({ connectionString, schema: freshSchema() }));

  it('applies each migration once when two instances migrate at the same time', async () => {
    const schema = freshSchema();
    const a = new PostgresStore({ connectionString, schema, max: 2 });
    const b = new PostgresStore({ connectionString, schema, max: 2 });
    try {
      // Both also race to create the schema itself.
      await expect(Promise.all([a.migrate(), b.migrate()])).resolves.toBeDefined();
      const client = new pg.Client({ connectionString });
      await client.connect();
      try {
        const { rows } = await client.query<{ id: number; n: string }>(
          `SELECT id, count(*) AS n FROM "${schema}".schema_migrations GROUP BY id ORDER BY id`,
        );
        expect(rows.map((r) => ({ id: r.id, n: Number(r.n) }))).toEqual(migrations.map((m) => ({ id: m.id, n: 1 })));
      } finally {
        await client.end();
      }
      await a.ping();
      await b.ping();
    } finally {
      await a.close();
      await b.close();
      await a.close(); // idempotent
    }
  });

  // PostgreSQL only: another connection's transaction holds the knowledge base's row while the store waits.
  describe('keys and usage under concurrency', () => {
    const schema = freshSchema();
    const store = new PostgresStore({ connectionString, schema, max: 8 });
    let owner: string;
    const newId = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

    beforeAll(async () => {
      await store.migrate();
      owner = (await store.accounts.accountForEmail(`${newId('u')}@example.test`, newId('acc'))).accountId;
    });
    afterAll(async () => {
      await store.close();
    });

    async function kb() {
      const result = await store.knowledge.createKnowledgeBase(
        { ragId: newId('kb'), ownerId: owner, botName: 'Helper', description: null, greeting: null, theme: {} },
        1000,
      );
      if (result.kind !== 'created') throw new Error('expected created');
      return result.knowledgeBase;
    }

    const delta = (ragId: string, day: string, questions: string[], at: string, queries = 1) => ({
      ragId,
      day,
      queries,
      cacheHits: 0,
      unanswered: questions.length,
      unansweredQuestions: questions.map((question) => ({ question })),
      at,
    });

    it('drops usage and refuses a new key for a knowledge base deleted while they wait for it', async () => {
      const doomed = await kb();
      const kept = await kb();
      const client = new pg.Client({ connectionString, options: `-c search_path="${schema}"` });
      await client.connect();
      try {
        await client.query('BEGIN');
        await client.query('DELETE FROM knowledge_bases WHERE rag_id = $1', [doomed.ragId]);
        const at = '2026-11-22T10:00:00.000Z';
        const recorded = store.usage.recordUsage([delta(doomed.ragId, '2026-11-22', ['Hours?'], at), delta(kept.ragId, '2026-11-22', ['Hours?'], at)]);
        const key = { keyId: newId('key'), name: null, prefix: 'gw_live_x', keyHash: newId('hash'), allowedDomains: ['example.com'] };
        const created = store.keys.createApiKey(owner, doomed.ragId, key, 20);
        // Both must be waiting on the deleting transaction before it commits: directly, or behind
        // the other one (waiters for one row queue behind each other, so pg_blocking_pids may name
        // the first waiter rather than this transaction).
        const me = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid as number;
        // One that did not wait at all has settled: stop waiting for it (the checks below then fail).
        let settled = 0;
        for (const p of [recorded, created]) void p.then(() => settled++, () => settled++);
        for (let waiting = 0; waiting + settled < 2; ) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          // Inside a transaction pg_stat_activity is read once and kept: a backend the pool
          // connects after the first look would never show (on a busy host the test then waited
          // for it until it timed out). Drop the snapshot so each look sees every backend.
          await client.query('SELECT pg_stat_clear_snapshot()');
          const { rows } = await client.query<{ pid: number; blockers: number[] }>(
            'SELECT pid, pg_blocking_pids(pid) AS blockers FROM pg_stat_activity WHERE cardinality(pg_blocking_pids(pid)) > 0',
          );
          const behindMe = new Set([me]);
          for (let grew = true; grew; ) {
            grew = false;
            for (const row of rows) {
              if (!behindMe.has(row.pid) && row.blockers.some((b) => behindMe.has(b))) {
                behindMe.add(row.pid);
                grew = true;
              }
            }
          }
          waiting = behindMe.size - 1;
        }
        await client.query('COMMIT');
        await expect(recorded).resolves.toBeUndefined();
        await expect(created).resolves.toEqual({ kind: 'not_found' });
        expect((await store.usage.usage(owner, kept.ragId, '2026-11-22', 10))?.days).toEqual([{ day: '2026-11-22', queries: 1, cacheHits: 0, unanswered: 1, helpful: 0, unhelpful: 0 }]);
        expect(await store.keys.findApiKeyByHash(key.keyHash)).toBeUndefined();
      } finally {
        await client.query('ROLLBACK').catch(() => {});
        await client.end();
      }
    });
  });

  it('refuses a schema name that is not a plain identifier', () => {
    expect(() => new PostgresStore({ connectionString, schema: 'x"; DROP SCHEMA public; --' })).toThrow(/invalid PostgreSQL schema/);
    expect(() => new PostgresStore({ connectionString, schema: 'Upper' })).toThrow(/invalid PostgreSQL schema/);
  });
});
