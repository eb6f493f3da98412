/**
 * A PostgreSQL store in a schema of its own, a client on it, and helpers to make knowledge bases and
 * upload records, for the PostgreSQL retriever's tests (record_term_stats, stored documents). Call
 * inside a `describe`: it registers the hooks that create and drop the schema.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { PostgresFtsRetriever } from '../../src/adapters/retrieval/postgres-fts.js';
import { PostgresStore } from '../../src/adapters/storage/postgres/dialect.js';
import { fingerprint } from '../../src/knowledge/fingerprint.js';
import type { KnowledgeBase } from '../../src/knowledge/model.js';

export const id = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`;

export interface RecordText {
  title: string | null;
  text: string;
}

/** Upload candidates of `records`, each with a fingerprint of its own (no two are duplicates). */
export const candidatesOf = (records: readonly RecordText[]) =>
  records.map((r) => ({ recordId: id('rec'), kind: 'passage' as const, title: r.title, text: r.text, fingerprint: fingerprint(`${r.title ?? ''}\n${r.text}\n${randomUUID()}`) }));

export interface PostgresRecordsFixture {
  readonly schema: string;
  store(): PostgresStore;
  client(): pg.Client;
  owner(): string;
  /** A retriever on the schema, closed after the suite. */
  retriever(): PostgresFtsRetriever;
  knowledgeBase(): Promise<KnowledgeBase>;
  /** Uploads `records` as one source; its id. */
  upload(kb: KnowledgeBase, records: RecordText[]): Promise<string>;
  /** Runs the migrations again from a new store on the schema (as a restart after an upgrade would). */
  migrateAgain(): Promise<void>;
}

export function postgresRecordsFixture(connectionString: string, poolSize = 4): PostgresRecordsFixture {
  const schema = `gw_test_${randomBytes(6).toString('hex')}`;
  let store: PostgresStore;
  let client: pg.Client;
  let owner: string;
  const retrievers: PostgresFtsRetriever[] = [];

  beforeAll(async () => {
    store = new PostgresStore({ connectionString, schema, max: poolSize });
    await store.migrate();
    client = new pg.Client({ connectionString, options: `-c search_path="${schema}"` });
    await client.connect();
    owner = (await store.accounts.accountForEmail(`${randomUUID()}@example.test`, id('acc'))).accountId;
  });

  afterAll(async () => {
    for (const r of retrievers) await r.close();
    await store?.close();
    try {
      await client?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await client?.end();
    }
  });

  return {
    schema,
    store: () => store,
    client: () => client,
    owner: () => owner,
    retriever: () => {
      const r = new PostgresFtsRetriever({ connectionString, schema, max: 2 });
      retrievers.push(r);
      return r;
    },
    async knowledgeBase() {
      const result = await store.knowledge.createKnowledgeBase({ ragId: id('kb'), ownerId: owner, botName: 'Helper', description: null, greeting: null, theme: {} }, 100_000);
      if (result.kind !== 'created') throw new Error('expected created');
      return result.knowledgeBase;
    },
    async migrateAgain() {
      const again = new PostgresStore({ connectionString, schema, max: 2 });
      try {
        await again.migrate();
      } finally {
        await again.close();
      }
    },
    async upload(kb, records) {
      const sourceId = id('src');
      const result = await store.knowledge.commitSource(
        owner,
        kb.ragId,
        { sourceId, sourceName: 'faq.txt', format: 'txt', byteSize: 10, sha256: 'a'.repeat(64), rejectedCount: 0 },
        candidatesOf(records),
        100_000,
      );
      if (result.kind !== 'committed') throw new Error(`expected committed, got ${result.kind}`);
      return sourceId;
    },
  };
}
