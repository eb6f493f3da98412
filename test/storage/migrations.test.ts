/**
 * Schema upgrades. A database built by the migrations earlier versions shipped
 * (1–8, hand-written per dialect, frozen in fixtures/) with rows in every table
 * opens with the current store: the later migrations apply, every row is still
 * there and reads back through the store, unanswered questions are regrouped
 * by the domain's questionHash (merged rows sum their counts and keep the latest
 * wording), and the upgraded schema has exactly the columns and indexes a new
 * database gets. Runs for SQLite always and PostgreSQL when DATABASE_URL is set.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrations } from '../../src/adapters/storage/migrations.js';
import { PostgresStore } from '../../src/adapters/storage/postgres/dialect.js';
import { SqliteStore } from '../../src/adapters/storage/sqlite/dialect.js';
import type { Store } from '../../src/ports/storage.js';
import { describeIf, postgres } from '../support/requirements.js';
import { postgresMigrations as legacyPostgres } from './fixtures/legacy-postgres-migrations.js';
import { sqliteMigrations as legacySqlite } from './fixtures/legacy-sqlite-migrations.js';

/** The question hash earlier versions stored (normalised, lower-cased; trailing punctuation kept). */
const legacyHash = (q: string) => createHash('sha256').update(q.normalize('NFC').replace(/\s+/gu, ' ').trim().toLowerCase(), 'utf8').digest('hex');

const at = '2026-01-02T03:04:05.000Z';
const later = '2026-01-03T03:04:05.000Z';
const future = '2099-01-01T00:00:00.000Z';
const ids = {
  person: 'acc_person000000000000000000',
  agent: 'acc_agent0000000000000000000',
  rag: 'kb_migration00000000000000000',
  source: 'src_migration0000000000000000',
  record: 'rec_migration0000000000000000',
  key: 'key_migration0000000000000000',
  client: 'cli_migration0000000000000000',
  grant: 'grt_migration0000000000000000',
};
const privateJwk = { kty: 'OKP', crv: 'Ed25519', x: 'pub', d: 'secret' };

/** One or more rows in every table of schema 8, as an installation of an earlier version holds them ($n used once each, in order). */
const seedRows: [string, unknown[]][] = [
  ['INSERT INTO accounts (account_id, email, created_at) VALUES ($1, $2, $3)', [ids.person, 'old@example.test', at]],
  ['INSERT INTO accounts (account_id, email, created_at) VALUES ($1, $2, $3)', [ids.agent, null, at]],
  [
    'INSERT INTO sign_in_codes (code_id, email, code_hash, expires_at, attempts, used_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    ['code_old', 'old@example.test', 'h-code', future, 2, null, at],
  ],
  ['INSERT INTO sign_in_code_guesses (code_id, requester, attempts) VALUES ($1, $2, $3)', ['code_old', 'ip-a', 2]],
  ['INSERT INTO sign_in_counters (counter_key, window_start, count) VALUES ($1, $2, $3)', ['start:ip-a', at, 3]],
  ['INSERT INTO sessions (token_hash, account_id, csrf_token, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)', ['th-old', ids.person, 'csrf', future, at]],
  [
    `INSERT INTO knowledge_bases (rag_id, owner_id, bot_name, description, greeting, theme, content_version, record_count, created_at, updated_at,
       keys_version, fallback_message, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [ids.rag, ids.person, 'Old shop', 'From before', 'Hello!', '{"accentColor":"#123456"}', 3, 1, at, at, 2, 'Mail us.', null],
  ],
  [
    `INSERT INTO sources (source_id, rag_id, source_name, format, byte_size, sha256, added_count, duplicate_count, rejected_count, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [ids.source, ids.rag, 'faq.txt', 'txt', 25, 'a'.repeat(64), 1, 0, 0, at],
  ],
  [
    'INSERT INTO records (record_id, rag_id, source_id, kind, title, text, fingerprint, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
    [ids.record, ids.rag, ids.source, 'passage', null, 'We ship within three days.', 'b'.repeat(64), at],
  ],
  [
    'INSERT INTO api_keys (key_id, rag_id, name, prefix, key_hash, allowed_domains, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [ids.key, ids.rag, 'site', 'gw_live_old', 'kh-old', '["shop.example","*.shop.example"]', at],
  ],
  ['INSERT INTO usage_daily (rag_id, day, queries, cache_hits, unanswered) VALUES ($1, $2, $3, $4, $5)', [ids.rag, '2026-01-02', 5, 2, 3]],
  // 'Price?' and 'price' were two questions; by sameQuestion() they are one.
  ...(
    [
      ['Price?', 2, at],
      ['price', 3, later],
      ['Opening hours?', 1, at],
    ] as const
  ).map(([q, count, when]): [string, unknown[]] => [
    'INSERT INTO unanswered_questions (rag_id, question_hash, question, count, last_asked_at) VALUES ($1, $2, $3, $4, $5)',
    [ids.rag, legacyHash(q), q, count, when],
  ]),
  [
    'INSERT INTO signing_keys (kid, purpose, alg, public_jwk, private_jwk, created_at, retired_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    ['kid-old', 'oauth', 'EdDSA', '{"kty":"OKP","crv":"Ed25519","x":"pub"}', JSON.stringify(privateJwk), at, null],
  ],
  [
    'INSERT INTO oauth_clients (client_id, secret_hash, account_id, kind, metadata, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [ids.client, null, ids.agent, 'agent', '{"client_name":"Bot","redirect_uris":[]}', at],
  ],
  ['INSERT INTO external_identities (issuer, subject, account_id, created_at) VALUES ($1, $2, $3, $4)', ['https://idp.example', 'sub-1', ids.agent, at]],
  [
    `INSERT INTO oauth_claims (claim_hash, code_hash, client_id, kind, email, verification_hash, attempts, confirmed_at, claimed_at, adopted_at, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    ['claim-old', 'claimcode-old', ids.client, 'anonymous', null, null, 0, null, null, null, future, at],
  ],
  [
    'INSERT INTO oauth_grants (grant_id, client_id, account_id, kind, scope, resources, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
    [ids.grant, ids.client, ids.agent, 'claim', 'kb:read', '["https://gw.example/api/v1"]', at, null],
  ],
  [
    `INSERT INTO oauth_authorization_codes (code_hash, client_id, account_id, redirect_uri, code_challenge, scope, resources, expires_at, used_at, grant_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    ['ac-old', ids.client, ids.agent, 'https://app.example/cb', 'challenge', 'kb:read', '[]', future, null, null, at],
  ],
  ['INSERT INTO oauth_refresh_tokens (token_hash, grant_id, expires_at, rotated_at, created_at) VALUES ($1, $2, $3, $4, $5)', ['rt-old', ids.grant, future, null, at]],
  ['INSERT INTO account_api_keys (key_hash, key_id, grant_id, prefix, created_at) VALUES ($1, $2, $3, $4, $5)', ['aak-old', 'akey-old', ids.grant, 'gw_acct_old', at]],
  ['INSERT INTO oauth_used_jtis (issuer, jti, expires_at) VALUES ($1, $2, $3)', ['https://idp.example', 'jti-old', future]],
];
/** SQLite's schema 8 also kept the whitelist patterns in a side table. */
const sqliteOnlyRows: [string, unknown[]][] = [
  ['INSERT INTO api_key_domains (key_id, pattern) VALUES ($1, $2)', [ids.key, 'shop.example']],
  ['INSERT INTO api_key_domains (key_id, pattern) VALUES ($1, $2)', [ids.key, '*.shop.example']],
];

const tables = [
  'accounts',
  'sign_in_codes',
  'sign_in_code_guesses',
  'sign_in_counters',
  'sessions',
  'knowledge_bases',
  'sources',
  'records',
  'api_keys',
  'api_key_domains',
  'usage_daily',
  'unanswered_questions',
  'signing_keys',
  'oauth_clients',
  'external_identities',
  'oauth_claims',
  'oauth_grants',
  'oauth_authorization_codes',
  'oauth_refresh_tokens',
  'account_api_keys',
  'oauth_used_jtis',
];
/** Rows per table after the upgrade: what was seeded, less the merged question, plus PostgreSQL's new pattern rows. */
const expectedCounts = Object.fromEntries(tables.map((t) => [t, [...seedRows, ...sqliteOnlyRows].filter(([sql]) => sql.startsWith(`INSERT INTO ${t} `)).length]));
expectedCounts.unanswered_questions = 2;

/** Everything an earlier version stored reads back through the current store. */
async function expectDataKept(store: Store): Promise<void> {
  expect(await store.accounts.getAccount(ids.person)).toEqual({ accountId: ids.person, email: 'old@example.test', createdAt: at });
  expect(await store.accounts.getSession('th-old', at)).toMatchObject({ accountId: ids.person, csrfToken: 'csrf' });
  expect(await store.accounts.countSignInCodesSince('old@example.test', at)).toBe(1);
  // ip-a made 2 of its 3 guesses: one more is evaluated, then none.
  const limits = { perCode: 10, perRequester: 3 };
  expect(await store.accounts.reserveSignInGuess('old@example.test', 'ip-a', at, limits)).toMatchObject([{ codeId: 'code_old', attempts: 3 }]);
  expect(await store.accounts.reserveSignInGuess('old@example.test', 'ip-a', at, limits)).toEqual([]);
  expect(await store.accounts.takeSignInAllowance('start:ip-a', at, 3)).toBe(false);

  const kb = {
    ragId: ids.rag,
    ownerId: ids.person,
    botName: 'Old shop',
    description: 'From before',
    greeting: 'Hello!',
    fallbackMessage: 'Mail us.',
    synonyms: [], // migration 22: none before it
    starterQuestions: [], // migration 23: none before it
    theme: { accentColor: '#123456' },
    contentVersion: 3,
    keysVersion: 2,
    recordCount: 1,
    createdAt: at,
    updatedAt: at,
    widgetSeen: null, // migration 13: no sighting before it
  };
  expect(await store.knowledge.getKnowledgeBase(ids.person, ids.rag)).toEqual(kb);
  expect(await store.knowledge.findKnowledgeBase(ids.rag)).toEqual(kb);
  expect((await store.knowledge.listSources(ids.person, ids.rag, { limit: 10 }))?.items).toEqual([
    expect.objectContaining({ sourceId: ids.source, sourceName: 'faq.txt', byteSize: 25, addedCount: 1, createdAt: at }),
  ]);
  expect(await store.knowledge.allRecords(ids.rag)).toEqual([
    expect.objectContaining({ recordId: ids.record, sourceId: ids.source, text: 'We ship within three days.', sourceName: 'faq.txt' }),
  ]);
  expect(await store.keys.findApiKeyByHash('kh-old')).toEqual({
    key: { keyId: ids.key, ragId: ids.rag, name: 'site', prefix: 'gw_live_old', allowedDomains: ['shop.example', '*.shop.example'], createdAt: at, publishable: false }, // migration 12: a secret key
    keysVersion: 2,
  });
  expect(await store.keys.anyKeyAllows(['*.shop.example'])).toBe(true);
  expect(await store.keys.anyKeyAllows(['other.example'])).toBe(false);

  const usage = await store.usage.usage(ids.person, ids.rag, '2026-01-01', 10);
  // Migration 24: no feedback before it.
  expect(usage?.days).toEqual([{ day: '2026-01-02', queries: 5, cacheHits: 2, unanswered: 3, helpful: 0, unhelpful: 0 }]);
  expect(usage?.feedback).toEqual([]);
  expect(usage?.unanswered).toEqual([
    { question: 'price', count: 5, lastAskedAt: later },
    { question: 'Opening hours?', count: 1, lastAskedAt: at },
  ]);
  // New askings land on the regrouped row, and dismissing by any wording of it works.
  await store.usage.recordUsage([{ ragId: ids.rag, day: '2026-01-04', queries: 1, cacheHits: 0, unanswered: 1, unansweredQuestions: [{ question: 'PRICE?' }], at: future }]);
  expect((await store.usage.usage(ids.person, ids.rag, '2026-01-01', 10))?.unanswered[0]).toEqual({ question: 'PRICE?', count: 6, lastAskedAt: future });
  expect(await store.usage.dismissUnanswered(ids.person, ids.rag, { question: 'opening hours' })).toBe(true);

  expect(await store.signingKeys.listSigningKeys('oauth')).toEqual([
    { kid: 'kid-old', purpose: 'oauth', alg: 'EdDSA', publicJwk: { kty: 'OKP', crv: 'Ed25519', x: 'pub' }, privateJwk, createdAt: at, retiredAt: null },
  ]);
  expect(await store.oauth.getClient(ids.client)).toMatchObject({ accountId: ids.agent, kind: 'agent', metadata: { client_name: 'Bot' } });
  expect(await store.oauth.accountForExternalIdentity('https://idp.example', 'sub-1', 'acc_unused', at)).toBe(ids.agent);
  expect(await store.oauth.findClaimByCode('claimcode-old')).toMatchObject({ claimHash: 'claim-old', kind: 'anonymous', expiresAt: future });
  expect(await store.oauth.getGrant(ids.grant)).toMatchObject({ resources: ['https://gw.example/api/v1'], revokedAt: null });
  expect(await store.oauth.findAuthorizationCode('ac-old')).toMatchObject({ redirectUri: 'https://app.example/cb', resources: [], usedAt: null });
  expect(await store.oauth.findRefreshToken('rt-old')).toMatchObject({ grantId: ids.grant, rotatedAt: null });
  expect(await store.oauth.findAccountKey('aak-old')).toMatchObject({ keyId: 'akey-old', grantId: ids.grant });
  expect(await store.oauth.useJti('https://idp.example', 'jti-old', future, at)).toBe(false);
}

describe('SQLite schema upgrade', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-migrate-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const readOnly = <T>(file: string, read: (db: Database.Database) => T): T => {
    const db = new Database(file, { readonly: true });
    try {
      return read(db);
    } finally {
      db.close();
    }
  };
  const counts = (file: string) =>
    readOnly(file, (db) => Object.fromEntries(tables.map((t) => [t, (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n])));
  /** Columns (name, type, not null, default, key), foreign keys and named indexes of every table. */
  const shape = (file: string) =>
    readOnly(file, (db) =>
      Object.fromEntries(
        tables.map((t) => [
          t,
          {
            columns: db.prepare(`SELECT name, upper(type) AS type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY name`).all(t),
            foreignKeys: db.prepare('SELECT "from", "table", "to", on_delete FROM pragma_foreign_key_list(?) ORDER BY "from"').all(t),
            indexes: db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name NOT LIKE 'sqlite_autoindex%' ORDER BY name").all(t),
          },
        ]),
      ),
    );

  it('opens a database of schema 8 with rows in every table: later migrations apply and nothing is lost', async () => {
    const file = path.join(dir, 'old.db');
    const db = new Database(file);
    db.exec('CREATE TABLE schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
    for (const migration of legacySqlite) {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)').run(migration.id, migration.name, at);
    }
    for (const [sql, params] of [...seedRows, ...sqliteOnlyRows]) db.prepare(sql.replace(/\$\d+/g, '?')).run(...params);
    db.close();

    const store = new SqliteStore(file);
    try {
      await store.migrate();
      expect(readOnly(file, (check) => (check.prepare('SELECT id FROM schema_migrations ORDER BY id').all() as { id: number }[]).map((r) => r.id))).toEqual(
        migrations.map((m) => m.id),
      );
      expect(counts(file)).toEqual(expectedCounts);
      await expectDataKept(store);
    } finally {
      await store.close();
    }
  });

  it('gives an upgraded database exactly the schema of a new one', async () => {
    const oldFile = path.join(dir, 'shape-old.db');
    const db = new Database(oldFile);
    db.exec('CREATE TABLE schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
    for (const migration of legacySqlite) {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)').run(migration.id, migration.name, at);
    }
    db.close();
    const newFile = path.join(dir, 'shape-new.db');
    for (const file of [oldFile, newFile]) {
      const store = new SqliteStore(file);
      await store.migrate();
      await store.close();
    }
    const upgraded = shape(oldFile);
    expect(upgraded.records?.columns).toContainEqual({ name: 'seq', type: 'INTEGER', notnull: 0, dflt_value: null, pk: 1 });
    expect(upgraded).toEqual(shape(newFile));
  });
});

describeIf(postgres, 'PostgreSQL schema upgrade', () => {
  const connectionString = process.env.DATABASE_URL ?? '';
  const schemas: string[] = [];
  const freshSchema = () => {
    const schema = `gw_test_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    return schema;
  };

  afterAll(async () => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await client.end();
    }
  });

  async function withClient<T>(schema: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString, options: `-c search_path="${schema}"` });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }

  async function legacySchema(seed: boolean): Promise<string> {
    const schema = freshSchema();
    await withClient(schema, async (client) => {
      await client.query(`CREATE SCHEMA "${schema}"`);
      await client.query('CREATE TABLE schema_migrations (id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)');
      for (const migration of legacyPostgres) {
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (id, name, applied_at) VALUES ($1, $2, $3)', [migration.id, migration.name, at]);
      }
      if (seed) for (const [sql, params] of seedRows) await client.query(sql, params);
    });
    return schema;
  }

  const shape = (schema: string) =>
    withClient(schema, async (client) => ({
      columns: (
        await client.query(
          `SELECT table_name, column_name, data_type, is_nullable, column_default, collation_name, is_identity
           FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, column_name`,
          [schema],
        )
      ).rows,
      indexes: (await client.query('SELECT tablename, indexname FROM pg_indexes WHERE schemaname = $1 ORDER BY tablename, indexname', [schema])).rows,
      foreignKeys: (
        await client.query(
          `SELECT conrelid::regclass::text AS on_table, confrelid::regclass::text AS references, confdeltype, array_to_string(conkey, ',') AS columns
           FROM pg_constraint WHERE contype = 'f' AND connamespace = $1::regnamespace ORDER BY 1, 2, 4`,
          [schema],
        )
      ).rows,
    }));

  it('opens a database of schema 8 with rows in every table: later migrations apply and nothing is lost', async () => {
    const schema = await legacySchema(true);
    const store = new PostgresStore({ connectionString, schema, max: 2 });
    try {
      await store.migrate();
      await withClient(schema, async (client) => {
        expect((await client.query<{ id: number }>('SELECT id FROM schema_migrations ORDER BY id')).rows.map((r) => r.id)).toEqual(migrations.map((m) => m.id));
        const counted: Record<string, number> = {};
        for (const t of tables) counted[t] = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${t}`)).rows[0]?.n);
        // The whitelist patterns were filled from the keys' arrays.
        expect(counted).toEqual({ ...expectedCounts, api_key_domains: 2 });
      });
      await expectDataKept(store);
    } finally {
      await store.close();
    }
  });

  it('gives an upgraded database exactly the schema of a new one', async () => {
    const upgraded = await legacySchema(false);
    const created = freshSchema();
    for (const schema of [upgraded, created]) {
      const store = new PostgresStore({ connectionString, schema, max: 2 });
      await store.migrate();
      await store.close();
    }
    const [before, after] = [await shape(upgraded), await shape(created)];
    expect(before.columns).toContainEqual(expect.objectContaining({ table_name: 'usage_daily', column_name: 'day', collation_name: 'C' }));
    const local = (rows: Record<string, unknown>[]) => JSON.parse(JSON.stringify(rows).replaceAll(`${upgraded}.`, '').replaceAll(`${created}.`, ''));
    expect(local(before.columns)).toEqual(local(after.columns));
    expect(before.indexes).toEqual(after.indexes);
    expect(local(before.foreignKeys)).toEqual(local(after.foreignKeys));
  });
});
