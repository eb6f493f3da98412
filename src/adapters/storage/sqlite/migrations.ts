/** Schema of the embedded SQLite store, as ordered migrations. Never edit an applied one: add the next. */
export const sqliteMigrations: { id: number; name: string; sql: string }[] = [
  {
    id: 1,
    name: 'accounts, sign-in, knowledge bases, sources, records',
    sql: `
CREATE TABLE accounts (
  account_id TEXT PRIMARY KEY,
  email TEXT UNIQUE,
  created_at TEXT NOT NULL
);
CREATE TABLE sign_in_codes (
  code_id TEXT PRIMARY KEY,
  email TEXT NOT NULL,
  code_hash TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  used_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX sign_in_codes_email ON sign_in_codes (email, created_at);
CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE knowledge_bases (
  rag_id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
  bot_name TEXT NOT NULL,
  description TEXT,
  greeting TEXT,
  theme TEXT NOT NULL DEFAULT '{}',
  content_version INTEGER NOT NULL DEFAULT 1,
  record_count INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX knowledge_bases_owner ON knowledge_bases (owner_id, created_at);
CREATE TABLE sources (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  source_id TEXT NOT NULL UNIQUE,
  rag_id TEXT NOT NULL REFERENCES knowledge_bases (rag_id) ON DELETE CASCADE,
  source_name TEXT NOT NULL,
  format TEXT NOT NULL,
  byte_size INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  added_count INTEGER NOT NULL,
  duplicate_count INTEGER NOT NULL,
  rejected_count INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX sources_rag ON sources (rag_id, seq);
CREATE TABLE records (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  record_id TEXT NOT NULL UNIQUE,
  rag_id TEXT NOT NULL REFERENCES knowledge_bases (rag_id) ON DELETE CASCADE,
  source_id TEXT NOT NULL REFERENCES sources (source_id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  title TEXT,
  text TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (rag_id, fingerprint)
);
CREATE INDEX records_rag ON records (rag_id, seq);
CREATE INDEX records_source ON records (source_id);
`,
  },
  {
    id: 2,
    name: 'api keys, usage',
    sql: `
ALTER TABLE knowledge_bases ADD COLUMN keys_version INTEGER NOT NULL DEFAULT 1;
CREATE TABLE api_keys (
  key_id TEXT PRIMARY KEY,
  rag_id TEXT NOT NULL REFERENCES knowledge_bases (rag_id) ON DELETE CASCADE,
  name TEXT,
  prefix TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  allowed_domains TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX api_keys_rag ON api_keys (rag_id, created_at);
CREATE TABLE usage_daily (
  rag_id TEXT NOT NULL REFERENCES knowledge_bases (rag_id) ON DELETE CASCADE,
  day TEXT NOT NULL,
  queries INTEGER NOT NULL DEFAULT 0,
  cache_hits INTEGER NOT NULL DEFAULT 0,
  unanswered INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (rag_id, day)
);
CREATE TABLE unanswered_questions (
  rag_id TEXT NOT NULL REFERENCES knowledge_bases (rag_id) ON DELETE CASCADE,
  question_hash TEXT NOT NULL,
  question TEXT NOT NULL,
  count INTEGER NOT NULL DEFAULT 0,
  last_asked_at TEXT NOT NULL,
  PRIMARY KEY (rag_id, question_hash)
);
`,
  },
  {
    id: 3,
    name: 'whitelist patterns of api keys, for CORS preflights',
    sql: `
CREATE TABLE api_key_domains (
  key_id TEXT NOT NULL REFERENCES api_keys (key_id) ON DELETE CASCADE,
  pattern TEXT NOT NULL,
  PRIMARY KEY (pattern, key_id)
);
CREATE INDEX api_key_domains_key ON api_key_domains (key_id);
`,
  },
  {
    id: 4,
    name: 'signing keys',
    sql: `
CREATE TABLE signing_keys (
  kid TEXT PRIMARY KEY,
  purpose TEXT NOT NULL,
  alg TEXT NOT NULL,
  public_jwk TEXT NOT NULL,
  private_jwk TEXT NOT NULL,
  created_at TEXT NOT NULL,
  retired_at TEXT
);
CREATE INDEX signing_keys_purpose ON signing_keys (purpose, created_at);
`,
  },
  {
    id: 5,
    name: 'oauth clients, claims, codes, grants, refresh tokens, account keys, external identities',
    sql: `
CREATE TABLE oauth_clients (
  client_id TEXT PRIMARY KEY,
  secret_hash TEXT,
  account_id TEXT REFERENCES accounts (account_id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  metadata TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX oauth_clients_account ON oauth_clients (account_id);
CREATE TABLE external_identities (
  issuer TEXT NOT NULL,
  subject TEXT NOT NULL,
  account_id TEXT NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX external_identities_account ON external_identities (account_id);
CREATE TABLE oauth_claims (
  claim_hash TEXT PRIMARY KEY,
  code_hash TEXT NOT NULL UNIQUE,
  client_id TEXT NOT NULL REFERENCES oauth_clients (client_id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  email TEXT,
  verification_hash TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  confirmed_at TEXT,
  claimed_at TEXT,
  adopted_at TEXT,
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX oauth_claims_client ON oauth_claims (client_id);
CREATE INDEX oauth_claims_email ON oauth_claims (email, created_at);
CREATE TABLE oauth_grants (
  grant_id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oauth_clients (client_id) ON DELETE CASCADE,
  account_id TEXT NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  scope TEXT NOT NULL,
  resources TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX oauth_grants_account ON oauth_grants (account_id);
CREATE INDEX oauth_grants_client ON oauth_grants (client_id);
CREATE TABLE oauth_authorization_codes (
  code_hash TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oauth_clients (client_id) ON DELETE CASCADE,
  account_id TEXT NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  scope TEXT NOT NULL,
  resources TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT,
  grant_id TEXT,
  created_at TEXT NOT NULL
);
CREATE TABLE oauth_refresh_tokens (
  token_hash TEXT PRIMARY KEY,
  grant_id TEXT NOT NULL REFERENCES oauth_grants (grant_id) ON DELETE CASCADE,
  expires_at TEXT NOT NULL,
  rotated_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX oauth_refresh_tokens_grant ON oauth_refresh_tokens (grant_id);
CREATE TABLE account_api_keys (
  key_hash TEXT PRIMARY KEY,
  key_id TEXT NOT NULL UNIQUE,
  grant_id TEXT NOT NULL REFERENCES oauth_grants (grant_id) ON DELETE CASCADE,
  prefix TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX account_api_keys_grant ON account_api_keys (grant_id);
CREATE TABLE oauth_used_jtis (
  issuer TEXT NOT NULL,
  jti TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (issuer, jti)
);
`,
  },
  {
    id: 6,
    name: "knowledge bases: the owner's fallback message",
    // Nullable with no default: existing knowledge bases keep the default refusal.
    sql: `
ALTER TABLE knowledge_bases ADD COLUMN fallback_message TEXT;
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
  code_id TEXT NOT NULL REFERENCES sign_in_codes (code_id) ON DELETE CASCADE,
  requester TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  PRIMARY KEY (code_id, requester)
);
CREATE TABLE sign_in_counters (
  counter_key TEXT PRIMARY KEY,
  window_start TEXT NOT NULL,
  count INTEGER NOT NULL
);
`,
  },
];
