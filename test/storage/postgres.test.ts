import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresMigrations } from '../../src/adapters/storage/postgres/migrations.js';
import { PostgresStore } from '../../src/adapters/storage/postgres/postgres-store.js';
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
        expect(rows.map((r) => ({ id: r.id, n: Number(r.n) }))).toEqual(postgresMigrations.map((m) => ({ id: m.id, n: 1 })));
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
      unansweredQuestions: questions,
      at,
    });

    it('folds repeated days and questions within one batch, keeping the latest wording', async () => {
      const base = await kb();
      await store.usage.recordUsage([
        delta(base.ragId, '2026-11-20', ['Gift wrap?', 'gift  wrap?'], '2026-11-20T10:00:00.000Z'),
        delta(base.ragId, '2026-11-20', ['GIFT WRAP?'], '2026-11-20T11:00:00.000Z'),
        delta(base.ragId, '2026-11-20', ['Gift Wrap?'], '2026-11-20T09:00:00.000Z'),
      ]);
      // A batch flushed late (older) by another instance counts, but does not move the wording or time back.
      await store.usage.recordUsage([delta(base.ragId, '2026-11-20', ['gift wrap ?', 'Gift wrap?'], '2026-11-20T08:00:00.000Z')]);
      const report = await store.usage.usage(owner, base.ragId, '2026-11-20', 10);
      expect(report?.days).toEqual([{ day: '2026-11-20', queries: 4, cacheHits: 0, unanswered: 6 }]);
      expect(report?.unanswered).toEqual([
        { question: 'GIFT WRAP?', count: 5, lastAskedAt: '2026-11-20T11:00:00.000Z' },
        { question: 'gift wrap ?', count: 1, lastAskedAt: '2026-11-20T08:00:00.000Z' },
      ]);
    });

    it('sums concurrent batches exactly, whatever order they touch the same rows in', async () => {
      const a = await kb();
      const b = await kb();
      const at = '2026-11-21T10:00:00.000Z';
      await Promise.all(
        Array.from({ length: 12 }, (_, i) => {
          const batch = [delta(a.ragId, '2026-11-21', ['Parking?'], at, 2), delta(b.ragId, '2026-11-21', ['Parking?'], at, 3)];
          return store.usage.recordUsage(i % 2 === 0 ? batch : batch.reverse());
        }),
      );
      expect((await store.usage.usage(owner, a.ragId, '2026-11-01', 10))?.days[0]?.queries).toBe(24);
      expect((await store.usage.usage(owner, b.ragId, '2026-11-01', 10))?.unanswered).toMatchObject([{ question: 'Parking?', count: 12 }]);
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
        // Both must be waiting on the deleting transaction before it commits.
        for (let waiting = 0; waiting < 2; ) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE pg_backend_pid() = ANY (pg_blocking_pids(pid))');
          waiting = Number(rows[0]?.n ?? 0);
        }
        await client.query('COMMIT');
        await expect(recorded).resolves.toBeUndefined();
        await expect(created).resolves.toEqual({ kind: 'not_found' });
        expect((await store.usage.usage(owner, kept.ragId, '2026-11-22', 10))?.days).toEqual([{ day: '2026-11-22', queries: 1, cacheHits: 0, unanswered: 1 }]);
        expect(await store.keys.findApiKeyByHash(key.keyHash)).toBeUndefined();
      } finally {
        await client.query('ROLLBACK').catch(() => {});
        await client.end();
      }
    });

    it('bumps the keys version once per concurrent change', async () => {
      const base = await kb();
      const hash = newId('hash');
      const created = await store.keys.createApiKey(
        owner,
        base.ragId,
        { keyId: newId('key'), name: 'site', prefix: 'gw_live_y', keyHash: hash, allowedDomains: [] },
        20,
      );
      const key = created.kind === 'created' ? created.key : undefined;
      await Promise.all(Array.from({ length: 6 }, (_, i) => store.keys.updateApiKey(owner, base.ragId, key?.keyId ?? '', { name: `site ${i}` })));
      expect((await store.keys.findApiKeyByHash(hash))?.keysVersion).toBe(base.keysVersion + 6);
      expect((await store.knowledge.findKnowledgeBase(base.ragId))?.keysVersion).toBe(base.keysVersion + 6);
    });
  });

  it('refuses a schema name that is not a plain identifier', () => {
    expect(() => new PostgresStore({ connectionString, schema: 'x"; DROP SCHEMA public; --' })).toThrow(/invalid PostgreSQL schema/);
    expect(() => new PostgresStore({ connectionString, schema: 'Upper' })).toThrow(/invalid PostgreSQL schema/);
  });
});
