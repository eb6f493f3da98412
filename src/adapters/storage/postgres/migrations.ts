/**
 * Schema of the PostgreSQL store, as ordered migrations. It mirrors the SQLite
 * schema column for column (rows.ts maps both), with native types where they
 * help: timestamps are `timestamptz` so comparisons and ordering are by time,
 * not by string (node-pg returns them as Date, which rows.ts turns back into
 * ISO strings); `theme` is `jsonb`; `seq` is an identity column. Never edit an
 * applied migration: add the next.
 */
export const postgresMigrations: { id: number; name: string; sql: string }[] = [
  {
    id: 1,
    name: 'accounts, sign-in, knowledge bases, sources, records',
    sql: `
CREATE TABLE accounts (
  account_id text PRIMARY KEY,
  email text UNIQUE,
  created_at timestamptz NOT NULL
);
CREATE TABLE sign_in_codes (
  code_id text PRIMARY KEY,
  email text NOT NULL,
  code_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  used_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX sign_in_codes_email ON sign_in_codes (email, created_at);
CREATE TABLE sessions (
  token_hash text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
  csrf_token text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE TABLE knowledge_bases (
  rag_id text PRIMARY KEY,
  owner_id text NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
  bot_name text NOT NULL,
  description text,
  greeting text,
  theme jsonb NOT NULL DEFAULT '{}',
  content_version integer NOT NULL DEFAULT 1,
  record_count integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX knowledge_bases_owner ON knowledge_bases (owner_id, created_at);
CREATE TABLE sources (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  source_id text NOT NULL UNIQUE,
  rag_id text NOT NULL REFERENCES knowledge_bases (rag_id) ON DELETE CASCADE,
  source_name text NOT NULL,
  format text NOT NULL,
  byte_size bigint NOT NULL,
  sha256 text NOT NULL,
  added_count integer NOT NULL,
  duplicate_count integer NOT NULL,
  rejected_count integer NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX sources_rag ON sources (rag_id, seq);
CREATE TABLE records (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  record_id text NOT NULL UNIQUE,
  rag_id text NOT NULL REFERENCES knowledge_bases (rag_id) ON DELETE CASCADE,
  source_id text NOT NULL REFERENCES sources (source_id) ON DELETE CASCADE,
  kind text NOT NULL,
  title text,
  text text NOT NULL,
  fingerprint text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (rag_id, fingerprint)
);
CREATE INDEX records_rag ON records (rag_id, seq);
CREATE INDEX records_source ON records (source_id);
`,
  },
  {
    id: 2,
    name: 'api keys, usage',
    // `day` is a UTC calendar date kept as 'YYYY-MM-DD' text, as in SQLite,
    // and compared as text; COLLATE "C" makes that a byte-wise comparison
    // (date order) whatever the database's locale, and lets the primary key
    // index serve day ranges.
    sql: `
ALTER TABLE knowledge_bases ADD COLUMN keys_version integer NOT NULL DEFAULT 1;
CREATE TABLE api_keys (
  key_id text PRIMARY KEY,
  rag_id text NOT NULL REFERENCES knowledge_bases (rag_id) ON DELETE CASCADE,
  name text,
  prefix text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  allowed_domains jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX api_keys_rag ON api_keys (rag_id, created_at);
CREATE TABLE usage_daily (
  rag_id text NOT NULL REFERENCES knowledge_bases (rag_id) ON DELETE CASCADE,
  day text COLLATE "C" NOT NULL,
  queries integer NOT NULL DEFAULT 0,
  cache_hits integer NOT NULL DEFAULT 0,
  unanswered integer NOT NULL DEFAULT 0,
  PRIMARY KEY (rag_id, day)
);
CREATE TABLE unanswered_questions (
  rag_id text NOT NULL REFERENCES knowledge_bases (rag_id) ON DELETE CASCADE,
  question_hash text NOT NULL,
  question text NOT NULL,
  count integer NOT NULL DEFAULT 0,
  last_asked_at timestamptz NOT NULL,
  PRIMARY KEY (rag_id, question_hash)
);
`,
  },
  {
    id: 3,
    name: 'whitelist patterns of api keys, for CORS preflights',
    // SQLite keeps the patterns in a side table; here the jsonb array itself is
    // indexed (jsonb_ops answers `allowed_domains ?| patterns`), so there is
    // no second copy to keep in step.
    sql: `
CREATE INDEX api_keys_allowed_domains ON api_keys USING gin (allowed_domains);
`,
  },
  {
    id: 4,
    name: 'signing keys',
    sql: `
CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  purpose text NOT NULL,
  alg text NOT NULL,
  public_jwk jsonb NOT NULL,
  private_jwk jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  retired_at timestamptz
);
CREATE INDEX signing_keys_purpose ON signing_keys (purpose, created_at);
`,
  },
  {
    id: 5,
    name: 'oauth clients, claims, codes, grants, refresh tokens, account keys, external identities',
    sql: `
CREATE TABLE oauth_clients (
  client_id text PRIMARY KEY,
  secret_hash text,
  account_id text REFERENCES accounts (account_id) ON DELETE CASCADE,
  kind text NOT NULL,
  metadata jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX oauth_clients_account ON oauth_clients (account_id);
CREATE TABLE external_identities (
  issuer text NOT NULL,
  subject text NOT NULL,
  account_id text NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX external_identities_account ON external_identities (account_id);
CREATE TABLE oauth_claims (
  claim_hash text PRIMARY KEY,
  code_hash text NOT NULL UNIQUE,
  client_id text NOT NULL REFERENCES oauth_clients (client_id) ON DELETE CASCADE,
  kind text NOT NULL,
  email text,
  verification_hash text,
  attempts integer NOT NULL DEFAULT 0,
  confirmed_at timestamptz,
  claimed_at timestamptz,
  adopted_at timestamptz,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX oauth_claims_client ON oauth_claims (client_id);
CREATE INDEX oauth_claims_email ON oauth_claims (email, created_at);
CREATE TABLE oauth_grants (
  grant_id text PRIMARY KEY,
  client_id text NOT NULL REFERENCES oauth_clients (client_id) ON DELETE CASCADE,
  account_id text NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
  kind text NOT NULL,
  scope text NOT NULL,
  resources jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX oauth_grants_account ON oauth_grants (account_id);
CREATE INDEX oauth_grants_client ON oauth_grants (client_id);
CREATE TABLE oauth_authorization_codes (
  code_hash text PRIMARY KEY,
  client_id text NOT NULL REFERENCES oauth_clients (client_id) ON DELETE CASCADE,
  account_id text NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
  redirect_uri text NOT NULL,
  code_challenge text NOT NULL,
  scope text NOT NULL,
  resources jsonb NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  grant_id text,
  created_at timestamptz NOT NULL
);
CREATE TABLE oauth_refresh_tokens (
  token_hash text PRIMARY KEY,
  grant_id text NOT NULL REFERENCES oauth_grants (grant_id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  rotated_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX oauth_refresh_tokens_grant ON oauth_refresh_tokens (grant_id);
CREATE TABLE account_api_keys (
  key_hash text PRIMARY KEY,
  key_id text NOT NULL UNIQUE,
  grant_id text NOT NULL REFERENCES oauth_grants (grant_id) ON DELETE CASCADE,
  prefix text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX account_api_keys_grant ON account_api_keys (grant_id);
CREATE TABLE oauth_used_jtis (
  issuer text NOT NULL,
  jti text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (issuer, jti)
);
`,
  },
  {
    id: 6,
    name: "knowledge bases: the owner's fallback message",
    // Nullable with no default: existing knowledge bases keep the default refusal.
    sql: `
ALTER TABLE knowledge_bases ADD COLUMN fallback_message text;
`,
  },
  {
    id: 7,
    name: 'sign-in: guesses per requester and code, per-requester counters',
    // Issue 11 item 5: a code's attempts are also counted per requester (so one
    // requester cannot use up another's), and per-requester fixed windows
    // (starts, failed verifies) are counted by one conditional upsert each.
    sql: `
CREATE TABLE sign_in_code_guesses (
  code_id text NOT NULL REFERENCES sign_in_codes (code_id) ON DELETE CASCADE,
  requester text NOT NULL,
  attempts integer NOT NULL,
  PRIMARY KEY (code_id, requester)
);
CREATE TABLE sign_in_counters (
  counter_key text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  count integer NOT NULL
);
`,
  },
];
