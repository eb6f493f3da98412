/**
 * Choosing the retrieval backend: RETRIEVAL_BACKEND is checked at start-up, and with `postgres`
 * a whole server answers from PostgreSQL full-text search (the wiring in compose.ts), sees an
 * upload at once and still refuses what the knowledge base does not cover.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { ask, createKb, createKey, faqKnowledgeBase, post, uploadFile } from '../query/helpers.js';
import { describeIf, postgres } from '../support/requirements.js';
import { type Client, signedInClient, startServer, type TestServer } from '../support/server.js';

describe('RETRIEVAL_BACKEND', () => {
  it('is memory by default and postgres only with DATABASE_URL', () => {
    expect(loadConfig({}).retrievalBackend).toBe('memory');
    expect(loadConfig({ RETRIEVAL_BACKEND: 'postgres', DATABASE_URL: 'postgres://db.example/gw' }).retrievalBackend).toBe('postgres');
    expect(() => loadConfig({ RETRIEVAL_BACKEND: 'postgres' })).toThrow(ConfigError);
    expect(() => loadConfig({ RETRIEVAL_BACKEND: 'postgres' })).toThrow(/RETRIEVAL_BACKEND postgres needs DATABASE_URL/);
    expect(() => loadConfig({ RETRIEVAL_BACKEND: 'elastic' })).toThrow(/RETRIEVAL_BACKEND must be one of memory, postgres/);
  });
});

describeIf(postgres, 'a server with RETRIEVAL_BACKEND=postgres', () => {
  const database = `gw_fts_${randomBytes(6).toString('hex')}`;
  const adminUrl = process.env.DATABASE_URL as string;
  let server: TestServer | undefined;
  let client: Client;
  let databaseUrl: string;

  async function admin<T>(work: (c: pg.Client) => Promise<T>): Promise<T> {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      return await work(c);
    } finally {
      await c.end();
    }
  }

  beforeAll(async () => {
    await admin((c) => c.query(`CREATE DATABASE ${database}`));
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    databaseUrl = url.toString();
    server = await startServer({ DATABASE_URL: databaseUrl, RETRIEVAL_BACKEND: 'postgres', MAX_KNOWLEDGE_BASES: '5', QUERY_RATE_PER_MINUTE: '0', QUERY_QUOTA_PER_DAY: '0' });
    client = await signedInClient(server.baseUrl);
  });
  afterAll(async () => {
    await server?.stop();
    await admin((c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  });

  it('answers from the database, finds an upload at once and refuses what is not covered', async () => {
    const base = (server as TestServer).baseUrl;
    expect((server as TestServer).config.retrievalBackend).toBe('postgres');
    // The retriever created its GIN index in the server's database at start.
    const inServerDb = new pg.Client({ connectionString: databaseUrl });
    await inServerDb.connect();
    try {
      const { rows } = await inServerDb.query<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE indexname = 'records_fts_simple'");
      expect(rows[0]?.indexdef).toMatch(/ON public\.records USING gin/);
    } finally {
      await inServerDb.end();
    }

    const { ragId, apiKey } = await faqKnowledgeBase(client);
    const answer = await ask(base, apiKey, ragId, 'Where do orders ship from?');
    expect(answer.status).toBe(200);
    expect(answer.body.grounded).toBe(true);
    expect(answer.body.answer).toContain('Bremen');
    expect((await ask(base, apiKey, ragId, 'What is the capital of Mongolia?')).body.grounded).toBe(false);
    const search = await post<{ results: { passage: string; score: number }[] }>(base, '/api/v1/search', { ragId, query: 'gift cards' }, apiKey);
    expect(search.body.results[0]?.passage).toContain('Gift cards');

    const fresh = await createKb(client, 'Fresh');
    await uploadFile(client, fresh, 'codes.txt', 'The Zanzibar store code is QX-4471.');
    const { apiKey: freshKey } = await createKey(client, fresh);
    const found = await ask(base, freshKey, fresh, 'What is the Zanzibar store code?');
    expect(found.body.grounded).toBe(true);
    expect(found.body.answer).toContain('QX-4471');
  });
});
