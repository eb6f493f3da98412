/**
 * The schema, declared once for both dialects, as ordered migrations (never
 * edit an applied one: add the next). Where the dialects' DDL differs it is
 * decided here and nowhere else, by `columnTypes`: timestamps are `timestamptz`
 * on PostgreSQL (compared and ordered by time; rows.ts turns the Dates back
 * into ISO strings) and ISO-8601 text on SQLite (which sorts in time order);
 * JSON is `jsonb` on PostgreSQL and text on SQLite; `seq` is an identity column
 * on PostgreSQL and SQLite's AUTOINCREMENT rowid; `day` is byte-ordered text
 * (COLLATE "C") on PostgreSQL, whatever the database's locale.
 *
 * Migrations 1–8 create exactly the tables the two hand-written migration
 * lists of earlier versions created (test/storage/migrations.test.ts builds a
 * database with those and checks that it migrates forward without losing a
 * row, and that both paths end with the same columns), so an existing
 * database's `schema_migrations` history stays valid.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { questionHash } from '../../knowledge/query/same-question.js';
import { storeRecordDocuments } from './postgres/record-document.js';
import { boundRecordTermImpacts } from './postgres/record-term-impacts.js';
import { createRecordTermStats } from './postgres/record-term-stats.js';
import type { Schema } from './schema.js';
import { chunks, type DialectKind } from './sql.js';

/** A column type per dialect: the one place where their DDL differs. */
function columnTypes(kind: DialectKind) {
  const pg = kind === 'postgres';
  return {
    timestamp: pg ? 'timestamptz' : 'text',
    json: pg ? 'jsonb' : 'text',
    bigint: pg ? 'bigint' : 'integer',
    bytes: pg ? 'bytea' : 'blob',
    /** A UTC calendar day, 'YYYY-MM-DD', compared as text: byte-wise, so text order is date order. */
    day: (pg ? sql`text COLLATE "C"` : 'text') as 'text' | RawBuilder<unknown>,
  } as const;
}

// Migrations run on whatever schema history the database has, so they are typed loosely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export interface Migration {
  id: number;
  name: string;
  up(db: AnyDb, kind: DialectKind): Promise<void>;
}

export const migrations: Migration[] = [
  {
    id: 1,
    name: 'accounts, sign-in, knowledge bases, sources, records',
    async up(db, kind) {
      const t = columnTypes(kind);
      const s = db.schema;
      await s
        .createTable('accounts')
        .addColumn('account_id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.unique())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .execute();
      await s
        .createTable('sign_in_codes')
        .addColumn('code_id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('expires_at', t.timestamp, (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('used_at', t.timestamp)
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .execute();
      await s.createIndex('sign_in_codes_email').on('sign_in_codes').columns(['email', 'created_at']).execute();
      await s
        .createTable('sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.account_id').onDelete('cascade'))
        .addColumn('csrf_token', 'text', (c) => c.notNull())
        .addColumn('expires_at', t.timestamp, (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .execute();
      await s
        .createTable('knowledge_bases')
        .addColumn('rag_id', 'text', (c) => c.primaryKey())
        .addColumn('owner_id', 'text', (c) => c.notNull().references('accounts.account_id').onDelete('cascade'))
        .addColumn('bot_name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('greeting', 'text')
        .addColumn('theme', t.json, (c) => c.notNull().defaultTo('{}'))
        .addColumn('content_version', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('record_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .execute();
      await s.createIndex('knowledge_bases_owner').on('knowledge_bases').columns(['owner_id', 'created_at']).execute();
      for (const table of ['sources', 'records'] as const) {
        let create = s.createTable(table);
        // A sequence for paging in insertion order: SQLite's rowid (AUTOINCREMENT: never reused), PostgreSQL's identity.
        create =
          kind === 'sqlite'
            ? create.addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
            : create.addColumn('seq', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey());
        if (table === 'sources') {
          create = create
            .addColumn('source_id', 'text', (c) => c.notNull().unique())
            .addColumn('rag_id', 'text', (c) => c.notNull().references('knowledge_bases.rag_id').onDelete('cascade'))
            .addColumn('source_name', 'text', (c) => c.notNull())
            .addColumn('format', 'text', (c) => c.notNull())
            .addColumn('byte_size', t.bigint, (c) => c.notNull())
            .addColumn('sha256', 'text', (c) => c.notNull())
            .addColumn('added_count', 'integer', (c) => c.notNull())
            .addColumn('duplicate_count', 'integer', (c) => c.notNull())
            .addColumn('rejected_count', 'integer', (c) => c.notNull())
            .addColumn('created_at', t.timestamp, (c) => c.notNull());
        } else {
          create = create
            .addColumn('record_id', 'text', (c) => c.notNull().unique())
            .addColumn('rag_id', 'text', (c) => c.notNull().references('knowledge_bases.rag_id').onDelete('cascade'))
            .addColumn('source_id', 'text', (c) => c.notNull().references('sources.source_id').onDelete('cascade'))
            .addColumn('kind', 'text', (c) => c.notNull())
            .addColumn('title', 'text')
            .addColumn('text', 'text', (c) => c.notNull())
            .addColumn('fingerprint', 'text', (c) => c.notNull())
            .addColumn('created_at', t.timestamp, (c) => c.notNull())
            .addUniqueConstraint('records_rag_id_fingerprint_key', ['rag_id', 'fingerprint']);
        }
        await create.execute();
        await s.createIndex(`${table}_rag`).on(table).columns(['rag_id', 'seq']).execute();
      }
      await s.createIndex('records_source').on('records').column('source_id').execute();
    },
  },
  {
    id: 2,
    name: 'api keys, usage',
    async up(db, kind) {
      const t = columnTypes(kind);
      const s = db.schema;
      await s.alterTable('knowledge_bases').addColumn('keys_version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
      await s
        .createTable('api_keys')
        .addColumn('key_id', 'text', (c) => c.primaryKey())
        .addColumn('rag_id', 'text', (c) => c.notNull().references('knowledge_bases.rag_id').onDelete('cascade'))
        .addColumn('name', 'text')
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('allowed_domains', t.json, (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .execute();
      await s.createIndex('api_keys_rag').on('api_keys').columns(['rag_id', 'created_at']).execute();
      await s
        .createTable('usage_daily')
        .addColumn('rag_id', 'text', (c) => c.notNull().references('knowledge_bases.rag_id').onDelete('cascade'))
        .addColumn('day', t.day, (c) => c.notNull())
        .addColumn('queries', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('cache_hits', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('unanswered', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('usage_daily_pkey', ['rag_id', 'day'])
        .execute();
      await s
        .createTable('unanswered_questions')
        .addColumn('rag_id', 'text', (c) => c.notNull().references('knowledge_bases.rag_id').onDelete('cascade'))
        .addColumn('question_hash', 'text', (c) => c.notNull())
        .addColumn('question', 'text', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_asked_at', t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint('unanswered_questions_pkey', ['rag_id', 'question_hash'])
        .execute();
    },
  },
  {
    id: 3,
    name: 'whitelist patterns of api keys, for CORS preflights',
    // Earlier versions differed here: SQLite kept the patterns in a side table, PostgreSQL indexed
    // the jsonb array (GIN). Migration 9 gives PostgreSQL the side table too.
    async up(db, kind) {
      if (kind === 'postgres') {
        await db.schema.createIndex('api_keys_allowed_domains').on('api_keys').using('gin').column('allowed_domains').execute();
        return;
      }
      await createApiKeyDomains(db);
    },
  },
  {
    id: 4,
    name: 'signing keys',
    async up(db, kind) {
      const t = columnTypes(kind);
      await db.schema
        .createTable('signing_keys')
        .addColumn('kid', 'text', (c) => c.primaryKey())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('alg', 'text', (c) => c.notNull())
        .addColumn('public_jwk', t.json, (c) => c.notNull())
        .addColumn('private_jwk', t.json, (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('retired_at', t.timestamp)
        .execute();
      await db.schema.createIndex('signing_keys_purpose').on('signing_keys').columns(['purpose', 'created_at']).execute();
    },
  },
  {
    id: 5,
    name: 'oauth clients, claims, codes, grants, refresh tokens, account keys, external identities',
    async up(db, kind) {
      const t = columnTypes(kind);
      const s = db.schema;
      const account = 'accounts.account_id';
      await s
        .createTable('oauth_clients')
        .addColumn('client_id', 'text', (c) => c.primaryKey())
        .addColumn('secret_hash', 'text')
        .addColumn('account_id', 'text', (c) => c.references(account).onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('metadata', t.json, (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .execute();
      await s.createIndex('oauth_clients_account').on('oauth_clients').column('account_id').execute();
      await s
        .createTable('external_identities')
        .addColumn('issuer', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull().references(account).onDelete('cascade'))
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint('external_identities_pkey', ['issuer', 'subject'])
        .execute();
      await s.createIndex('external_identities_account').on('external_identities').column('account_id').execute();
      await s
        .createTable('oauth_claims')
        .addColumn('claim_hash', 'text', (c) => c.primaryKey())
        .addColumn('code_hash', 'text', (c) => c.notNull().unique())
        .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.client_id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn('verification_hash', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('confirmed_at', t.timestamp)
        .addColumn('claimed_at', t.timestamp)
        .addColumn('adopted_at', t.timestamp)
        .addColumn('expires_at', t.timestamp, (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .execute();
      await s.createIndex('oauth_claims_client').on('oauth_claims').column('client_id').execute();
      await s.createIndex('oauth_claims_email').on('oauth_claims').columns(['email', 'created_at']).execute();
      await s
        .createTable('oauth_grants')
        .addColumn('grant_id', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.client_id').onDelete('cascade'))
        .addColumn('account_id', 'text', (c) => c.notNull().references(account).onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('resources', t.json, (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('revoked_at', t.timestamp)
        .execute();
      await s.createIndex('oauth_grants_account').on('oauth_grants').column('account_id').execute();
      await s.createIndex('oauth_grants_client').on('oauth_grants').column('client_id').execute();
      await s
        .createTable('oauth_authorization_codes')
        .addColumn('code_hash', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.client_id').onDelete('cascade'))
        .addColumn('account_id', 'text', (c) => c.notNull().references(account).onDelete('cascade'))
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('code_challenge', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('resources', t.json, (c) => c.notNull())
        .addColumn('expires_at', t.timestamp, (c) => c.notNull())
        .addColumn('used_at', t.timestamp)
        .addColumn('grant_id', 'text')
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .execute();
      await s
        .createTable('oauth_refresh_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('grant_id', 'text', (c) => c.notNull().references('oauth_grants.grant_id').onDelete('cascade'))
        .addColumn('expires_at', t.timestamp, (c) => c.notNull())
        .addColumn('rotated_at', t.timestamp)
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .execute();
      await s.createIndex('oauth_refresh_tokens_grant').on('oauth_refresh_tokens').column('grant_id').execute();
      await s
        .createTable('account_api_keys')
        .addColumn('key_hash', 'text', (c) => c.primaryKey())
        .addColumn('key_id', 'text', (c) => c.notNull().unique())
        .addColumn('grant_id', 'text', (c) => c.notNull().references('oauth_grants.grant_id').onDelete('cascade'))
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .execute();
      await s.createIndex('account_api_keys_grant').on('account_api_keys').column('grant_id').execute();
      await s
        .createTable('oauth_used_jtis')
        .addColumn('issuer', 'text', (c) => c.notNull())
        .addColumn('jti', 'text', (c) => c.notNull())
        .addColumn('expires_at', t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint('oauth_used_jtis_pkey', ['issuer', 'jti'])
        .execute();
    },
  },
  {
    id: 6,
    name: "knowledge bases: the owner's fallback message",
    // Nullable with no default: existing knowledge bases keep the default refusal.
    async up(db) {
      await db.schema.alterTable('knowledge_bases').addColumn('fallback_message', 'text').execute();
    },
  },
  {
    id: 7,
    name: 'sign-in: guesses per requester and code, per-requester counters',
    // Issue 11 item 5: a code's attempts are also counted per requester (so one requester cannot use
    // up another's), and per-requester fixed windows (starts, failed verifies) are counted by one
    // conditional upsert each.
    async up(db, kind) {
      const t = columnTypes(kind);
      await db.schema
        .createTable('sign_in_code_guesses')
        .addColumn('code_id', 'text', (c) => c.notNull().references('sign_in_codes.code_id').onDelete('cascade'))
        .addColumn('requester', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('sign_in_code_guesses_pkey', ['code_id', 'requester'])
        .execute();
      await db.schema
        .createTable('sign_in_counters')
        .addColumn('counter_key', 'text', (c) => c.primaryKey())
        .addColumn('window_start', t.timestamp, (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .execute();
    },
  },
  {
    id: 8,
    name: 'agent adoption limited to what the agent made',
    // Issue 11: a person adopting an anonymous agent may give it only what it made. The agent's
    // account then stays the agent's identity with adopted_into naming the person's account, which
    // owns everything the agent makes; knowledge_bases.created_by marks those. Both NULL for
    // everything else, so existing rows keep their meaning.
    async up(db) {
      await db.schema.alterTable('accounts').addColumn('adopted_into', 'text', (c) => c.references('accounts.account_id')).execute();
      await db.schema.alterTable('knowledge_bases').addColumn('created_by', 'text', (c) => c.references('accounts.account_id')).execute();
      await db.schema.createIndex('knowledge_bases_created_by').on('knowledge_bases').column('created_by').execute();
    },
  },
  {
    id: 9,
    name: 'whitelist patterns in a side table on PostgreSQL too',
    // One way to answer "does any key allow this origin?" on both dialects: the patterns of every
    // key, one row each (filled from the keys' arrays), replace PostgreSQL's GIN index on them.
    async up(db, kind) {
      if (kind === 'sqlite') return;
      await createApiKeyDomains(db);
      await sql`INSERT INTO api_key_domains (key_id, pattern)
        SELECT DISTINCT k.key_id, d.pattern FROM api_keys k CROSS JOIN LATERAL jsonb_array_elements_text(k.allowed_domains) AS d (pattern)
        ON CONFLICT DO NOTHING`.execute(db);
      await db.schema.dropIndex('api_keys_allowed_domains').ifExists().execute();
    },
  },
  {
    id: 10,
    name: 'unanswered questions grouped by sameQuestion()',
    // The question hash now follows the domain's one definition of "the same question"
    // (src/knowledge/query/same-question.ts), which also ignores trailing ?, ! and . Stored hashes
    // are recomputed; rows that now name the same question are merged: counts summed, the latest
    // wording and time kept.
    async up(db) {
      await rehashUnansweredQuestions(db as Kysely<Schema>);
    },
  },
  {
    id: 11,
    name: 'sources: the URL a source was imported from',
    // Issue 13, import from a web page or sitemap: a page is one source, found again by its URL on
    // re-import (one source per URL and knowledge base; uploads and pastes have none).
    async up(db) {
      await db.schema.alterTable('sources').addColumn('url', 'text').execute();
      await db.schema.createIndex('sources_rag_url').unique().on('sources').columns(['rag_id', 'url']).execute();
    },
  },
  {
    id: 12,
    name: 'api keys: the sealed full key of a publishable (widget) key',
    // Issue 13, the Widget tab: a key made for a website widget is publishable (it sits in every
    // page's HTML anyway), so the owner can see it again. Its full key is kept sealed (AES-256-GCM
    // under SECRET_KEY, bound to the key's id: see key-store.ts); null for secret keys.
    async up(db) {
      await db.schema.alterTable('api_keys').addColumn('sealed_key', 'text').execute();
    },
  },
  {
    id: 13,
    name: "knowledge bases: where the widget was first seen answering",
    // Issue 13, the guided first run: the first widget request from a site other than the service's
    // own origin (its preview) is written once, so the dashboard can say "live on shop.example".
    async up(db, kind) {
      const t = columnTypes(kind);
      await db.schema.alterTable('knowledge_bases').addColumn('widget_seen_origin', 'text').execute();
      await db.schema.alterTable('knowledge_bases').addColumn('widget_seen_at', t.timestamp).execute();
    },
  },
  {
    id: 15,
    name: 'oauth grants: when a credential of the grant was last presented',
    // Issue 15, connected agents: the dashboard shows when each grant was last used. Written at most
    // once a minute per grant (src/identity/oauth/grant-usage.ts), never on every request; NULL for
    // grants not used since, so existing rows keep their meaning.
    async up(db, kind) {
      const t = columnTypes(kind);
      await db.schema.alterTable('oauth_grants').addColumn('last_used_at', t.timestamp).execute();
    },
  },
  {
    id: 16,
    name: 'records: the content version that wrote them; removed record ids kept for recent versions',
    // Issue 14, incremental indexing: an instance holding a knowledge base's index at version v
    // reads only what changed since (records written after v, ids removed after v), see
    // `KnowledgeStore.recordChanges`. Removals are kept for the last versions only; `changes_from`
    // is the oldest version from which the history is complete (existing knowledge bases: now).
    async up(db) {
      await db.schema.alterTable('records').addColumn('content_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.createIndex('records_rag_id_content_version').on('records').columns(['rag_id', 'content_version']).execute();
      await db.schema
        .createTable('record_removals')
        .addColumn('rag_id', 'text', (c) => c.notNull().references('knowledge_bases.rag_id').onDelete('cascade'))
        .addColumn('content_version', 'integer', (c) => c.notNull())
        .addColumn('record_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('record_removals_pkey', ['rag_id', 'content_version', 'record_id'])
        .execute();
      await db.schema.alterTable('knowledge_bases').addColumn('changes_from', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.updateTable('knowledge_bases').set({ changes_from: sql`content_version` }).execute();
    },
  },
  {
    id: 17,
    name: 'index snapshots: a knowledge base\'s retrieval index in stored form, with its content version',
    // Issue 14, cold indexes: a cold index loads from its stored form and is brought forward with
    // `recordChanges` instead of analysing every record again (src/knowledge/retrieval/index-snapshot.ts).
    // One per knowledge base, replaced by newer ones, dropped with the knowledge base.
    async up(db, kind) {
      const t = columnTypes(kind);
      await db.schema
        .createTable('index_snapshots')
        .addColumn('rag_id', 'text', (c) => c.primaryKey().references('knowledge_bases.rag_id').onDelete('cascade'))
        .addColumn('content_version', 'integer', (c) => c.notNull())
        .addColumn('data', t.bytes, (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .execute();
    },
  },
  {
    id: 18,
    name: 'index snapshots in parts: each snapshot stored as parts of at most 1 MiB, read and written one at a time',
    // Issue 14, head of line: a 100,000-record snapshot (~27 MB) read as one value held the HTTP
    // thread ~20–40 ms (better-sqlite3 reads it synchronously; node-postgres decodes it at once),
    // and its write ~100 ms. In parts, each read or written by its own statement, other requests
    // run between them (src/adapters/storage/index-snapshot-parts.ts). The snapshots already
    // stored are dropped: a snapshot is only a faster start, and the next full build writes one.
    async up(db, kind) {
      const t = columnTypes(kind);
      await db.schema.dropTable('index_snapshots').execute();
      await db.schema
        .createTable('index_snapshots')
        .addColumn('rag_id', 'text', (c) => c.primaryKey().references('knowledge_bases.rag_id').onDelete('cascade'))
        .addColumn('content_version', 'integer', (c) => c.notNull())
        // Which parts are this snapshot's: a new one per write, so a reader never mixes two.
        .addColumn('generation', 'text', (c) => c.notNull())
        .addColumn('parts', 'integer', (c) => c.notNull())
        .addColumn('byte_length', 'integer', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('index_snapshot_parts')
        .addColumn('rag_id', 'text', (c) => c.notNull().references('knowledge_bases.rag_id').onDelete('cascade'))
        .addColumn('generation', 'text', (c) => c.notNull())
        .addColumn('part', 'integer', (c) => c.notNull())
        .addColumn('data', t.bytes, (c) => c.notNull())
        .addPrimaryKeyConstraint('index_snapshot_parts_pkey', ['rag_id', 'generation', 'part'])
        .execute();
    },
  },
  {
    id: 19,
    name: 'record term stats: per knowledge base, the records containing each word, kept by triggers (PostgreSQL)',
    // Issue 14, the PostgreSQL retriever at 100,000 records: it read each knowledge base's words with
    // ts_stat over all its records on every content version; it now reads them from this table,
    // kept with the records (postgres/record-term-stats.ts). SQLite has no PostgreSQL retriever.
    async up(db, kind) {
      if (kind === 'sqlite') return;
      await createRecordTermStats(db);
    },
  },
  {
    id: 20,
    name: 'records: the full-text document stored (generated column tsv), GIN-indexed (PostgreSQL)',
    // Issue 14: ranking recomputed every matching record's tsvector from its text at each search;
    // stored, it is computed once per write (postgres/record-document.ts). Rewrites `records`.
    async up(db, kind) {
      if (kind === 'sqlite') return;
      await storeRecordDocuments(db);
    },
  },
  {
    id: 21,
    name: 'record term stats: per word, a bound of its impact on a record rank (max_impact, PostgreSQL)',
    // Issue 14: a search ranked every record matching any of its words (~12,000 at 100,000 records);
    // with these bounds it ranks those holding the rarer words only, when no other can reach its
    // top k (postgres/record-term-impacts.ts). Locks `records` against writers while it runs.
    async up(db, kind) {
      if (kind === 'sqlite') return;
      await boundRecordTermImpacts(db);
    },
  },
  {
    id: 22,
    name: "knowledge bases: the owner's synonyms",
    // Nullable with no default: existing knowledge bases have none. JSON text, as the theme is.
    async up(db) {
      await db.schema.alterTable('knowledge_bases').addColumn('synonyms', 'text').execute();
    },
  },
  {
    id: 23,
    name: "knowledge bases: the widget's starter questions",
    // Nullable with no default: existing knowledge bases have none. JSON text, as the synonyms are.
    async up(db) {
      await db.schema.alterTable('knowledge_bases').addColumn('starter_questions', 'text').execute();
    },
  },
  {
    id: 24,
    name: "visitors' feedback on answers: per day the helpful and unhelpful counts, per question the counts and the records cited",
    async up(db, kind) {
      const t = columnTypes(kind);
      await db.schema.alterTable('usage_daily').addColumn('helpful', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('usage_daily').addColumn('unhelpful', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema
        .createTable('answer_feedback')
        .addColumn('rag_id', 'text', (c) => c.notNull().references('knowledge_bases.rag_id').onDelete('cascade'))
        .addColumn('question_hash', 'text', (c) => c.notNull())
        .addColumn('question', 'text', (c) => c.notNull())
        .addColumn('record_ids', 'text', (c) => c.notNull())
        .addColumn('helpful', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('unhelpful', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_at', t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint('answer_feedback_pkey', ['rag_id', 'question_hash'])
        .execute();
    },
  },
  {
    id: 25,
    name: 'unanswered questions and feedback: a follow-up keeps the earlier questions it was asked after',
    // Nullable with no default: the rows kept so far are questions asked on their own, and their hash stays right.
    async up(db) {
      await db.schema.alterTable('unanswered_questions').addColumn('asked_after', 'text').execute();
      await db.schema.alterTable('answer_feedback').addColumn('asked_after', 'text').execute();
    },
  },
];

async function createApiKeyDomains(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('api_key_domains')
    .addColumn('key_id', 'text', (c) => c.notNull().references('api_keys.key_id').onDelete('cascade'))
    .addColumn('pattern', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('api_key_domains_pkey', ['pattern', 'key_id'])
    .execute();
  await db.schema.createIndex('api_key_domains_key').on('api_key_domains').column('key_id').execute();
}

const iso = (value: unknown): string => (value instanceof Date ? value.toISOString() : String(value));

/** Recomputes every stored question hash with `questionHash`, merging the rows that now collide. */
export async function rehashUnansweredQuestions(db: Kysely<Schema>): Promise<void> {
  const rows = await db.selectFrom('unanswered_questions').selectAll().orderBy('rag_id').orderBy('question_hash').execute();
  const merged = new Map<string, { rag_id: string; question_hash: string; question: string; count: number; last_asked_at: string }>();
  let changed = false;
  for (const row of rows) {
    const hash = questionHash(row.question);
    if (hash !== row.question_hash) changed = true;
    const key = `${row.rag_id}\n${hash}`;
    const at = iso(row.last_asked_at);
    const seen = merged.get(key);
    if (!seen) {
      merged.set(key, { rag_id: row.rag_id, question_hash: hash, question: row.question, count: Number(row.count), last_asked_at: at });
      continue;
    }
    changed = true;
    seen.count += Number(row.count);
    if (Date.parse(at) > Date.parse(seen.last_asked_at)) Object.assign(seen, { question: row.question, last_asked_at: at });
  }
  if (!changed) return;
  await db.deleteFrom('unanswered_questions').execute();
  for (const batch of chunks([...merged.values()])) await db.insertInto('unanswered_questions').values(batch).execute();
}
