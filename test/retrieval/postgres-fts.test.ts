/**
 * The retrieval contract on PostgreSQL full-text search, plus what is particular to it: its GIN
 * index on the stored documents (storage migration 20) is there for instances starting together,
 * and is the one its search uses, which reads the stored documents instead of analysing texts.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { lexemeQuery, PostgresFtsRetriever, RECORD_DOCUMENT, RECORD_FTS_INDEX, searchStatement } from '../../src/adapters/retrieval/postgres-fts.js';
import { PostgresStore } from '../../src/adapters/storage/postgres/dialect.js';
import { describeIf, postgres } from '../support/requirements.js';
import { retrieverContract } from './contract.js';

const connectionString = process.env.DATABASE_URL ?? '';

describe('lexemeQuery', () => {
  it('quotes every lexeme so that no character is read as a tsquery operator', () => {
    expect(lexemeQuery(['ship', "o'brien", 'a\\b', 'x|y & !z:*'])).toBe("'ship' | 'o''brien' | 'a\\\\b' | 'x|y & !z:*'");
    expect(lexemeQuery([])).toBe('');
  });
});

describeIf(postgres, 'PostgreSQL full-text retriever', () => {
  // Each run gets its own schemas, so runs (and other suites) on one server never see each other's rows.
  const created: string[] = [];
  function freshSchema(): string {
    const schema = `gw_test_${randomBytes(6).toString('hex')}`;
    created.push(schema);
    return schema;
  }
  // Registered before the contract's own afterAll, so it runs after the pools are closed.
  afterAll(async () => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      for (const schema of created) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await client.end();
    }
  });

  async function open(schema: string) {
    const store = new PostgresStore({ connectionString, schema, max: 4 });
    await store.migrate();
    const retriever = new PostgresFtsRetriever({ connectionString, schema, max: 4 });
    return { store, retriever };
  }

  describe('contract', () => {
    retrieverContract(async () => {
      const { store, retriever } = await open(freshSchema());
      await retriever.start();
      return {
        store,
        retriever,
        async close() {
          await retriever.close();
          await store.close();
        },
      };
    });
  });

  it('finds its GIN index on the stored documents when instances start together, and searches through it', async () => {
    const schema = freshSchema();
    const { store, retriever } = await open(schema);
    const other = new PostgresFtsRetriever({ connectionString, schema, max: 2 });
    const client = new pg.Client({ connectionString, options: `-c search_path="${schema}"` });
    await client.connect();
    try {
      await Promise.all([retriever.start(), other.start(), retriever.start()]);
      const { rows } = await client.query<{ indexdef: string }>('SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = $2', [schema, RECORD_FTS_INDEX]);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.indexdef).toMatch(new RegExp(`USING gin \\(${RECORD_DOCUMENT}\\)`));
      // The searches' condition is the index's: with sequential scans off, the planner matches it with the index.
      // (On a small knowledge base it rightly prefers the rag_id index and filters; the GIN index serves large ones.)
      await client.query('SET enable_seqscan = off');
      const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT record_id FROM records WHERE ${RECORD_DOCUMENT} @@ 'ship'::tsquery`);
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain(`Bitmap Index Scan on ${RECORD_FTS_INDEX}`);
      // The search ranks and filters on the stored documents: no record's text is analysed again.
      const search = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN VERBOSE ${searchStatement(1).replace('$1', "'kb'").replace('$2', "'ship'").replace('$3', '5')}`);
      const text = search.rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(text).toMatch(new RegExp(`ts_rank_cd\\([^\\n]*m\\.${RECORD_DOCUMENT}`));
      expect(text).toContain(`(m.${RECORD_DOCUMENT} @@ `);
      expect(text).not.toContain('to_tsvector');
    } finally {
      await client.end();
      await other.close();
      await retriever.close();
      await store.close();
    }
  });

  it('refuses a schema name that is not a plain identifier', () => {
    expect(() => new PostgresFtsRetriever({ connectionString, schema: 'x"; DROP SCHEMA public; --' })).toThrow(/invalid PostgreSQL schema/);
  });
});
