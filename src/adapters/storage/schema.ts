/**
 * The tables as Kysely sees them (the DDL is in migrations.ts). Timestamps are
 * written as ISO-8601 strings and read back as strings (SQLite text) or Date
 * (PostgreSQL timestamptz); JSON columns are written as JSON text and read back
 * as text (SQLite) or parsed (PostgreSQL jsonb). rows.ts maps both.
 */
import type { ColumnType } from 'kysely';

/** Written as an ISO string, read as whatever the driver returns. */
type Timestamp = ColumnType<string | Date, string, string>;
type NullableTimestamp = ColumnType<string | Date | null, string | null | undefined, string | null>;
/** Written as JSON text, read as text or a parsed value. */
type Json = ColumnType<unknown, string, string>;
/** An integer the driver may return as a number or, for int8, a string. */
type Int = ColumnType<number, number | undefined, number>;
type Seq = ColumnType<number | string, never, never>;

export interface Schema {
  schema_migrations: { id: number; name: string; applied_at: Timestamp };
  accounts: { account_id: string; email: string | null; created_at: Timestamp; adopted_into: ColumnType<string | null, string | null | undefined, string | null> };
  sign_in_codes: {
    code_id: string;
    email: string;
    code_hash: string;
    expires_at: Timestamp;
    attempts: Int;
    used_at: NullableTimestamp;
    created_at: Timestamp;
  };
  sign_in_code_guesses: { code_id: string; requester: string; attempts: Int };
  sign_in_counters: { counter_key: string; window_start: Timestamp; count: Int };
  sessions: { token_hash: string; account_id: string; csrf_token: string; expires_at: Timestamp; created_at: Timestamp };
  knowledge_bases: {
    rag_id: string;
    owner_id: string;
    created_by: ColumnType<string | null, string | null | undefined, string | null>;
    bot_name: string;
    description: string | null;
    greeting: string | null;
    fallback_message: ColumnType<string | null, string | null | undefined, string | null>;
    /** Migration 22: the owner's synonym groups as JSON text; null when none. */
    synonyms: ColumnType<string | null, string | null | undefined, string | null>;
    /** Migration 23: the widget's starter questions as a JSON array of strings; null when none. */
    starter_questions: ColumnType<string | null, string | null | undefined, string | null>;
    theme: Json;
    content_version: Int;
    /** Migration 16: the oldest content version from which `record_removals` holds every removal. */
    changes_from: Int;
    record_count: Int;
    keys_version: Int;
    created_at: Timestamp;
    updated_at: Timestamp;
    widget_seen_origin: ColumnType<string | null, string | null | undefined, string | null>;
    widget_seen_at: NullableTimestamp;
  };
  sources: {
    seq: Seq;
    source_id: string;
    rag_id: string;
    source_name: string;
    format: string;
    byte_size: ColumnType<number | string, number, number>;
    sha256: string;
    added_count: number;
    duplicate_count: number;
    rejected_count: number;
    created_at: Timestamp;
    /** Migration 11: the page a source was imported from; null for uploads and pastes. */
    url: ColumnType<string | null, string | null | undefined, string | null>;
  };
  records: {
    seq: Seq;
    record_id: string;
    rag_id: string;
    source_id: string;
    kind: string;
    title: string | null;
    text: string;
    fingerprint: string;
    created_at: Timestamp;
    /** Migration 16: the content version that wrote the record (0: written before migration 16). */
    content_version: Int;
  };
  /** Migration 16: records removed in recent content versions (see `KnowledgeStore.recordChanges`). */
  record_removals: { rag_id: string; content_version: Int; record_id: string };
  /** Migrations 17, 18: a knowledge base's retrieval index in stored form (see `KnowledgeStore.readIndexSnapshot`), its bytes in `index_snapshot_parts`. */
  index_snapshots: { rag_id: string; content_version: Int; generation: string; parts: Int; byte_length: Int; created_at: Timestamp };
  /** Migration 18: the bytes of the index snapshots, in parts of at most 1 MiB (index-snapshot-parts.ts). */
  index_snapshot_parts: { rag_id: string; generation: string; part: Int; data: Uint8Array };
  api_keys: {
    key_id: string;
    rag_id: string;
    name: string | null;
    prefix: string;
    key_hash: string;
    allowed_domains: Json;
    created_at: Timestamp;
    /** A publishable key's full key, sealed (migration 12); null for a secret key. */
    sealed_key: ColumnType<string | null, string | null | undefined, string | null>;
  };
  api_key_domains: { key_id: string; pattern: string };
  /** `helpful`, `unhelpful`: migration 24. */
  usage_daily: { rag_id: string; day: string; queries: Int; cache_hits: Int; unanswered: Int; helpful: Int; unhelpful: Int };
  /** `asked_after` (migration 25): for a follow-up, the earlier questions it leaned on; `question_hash` then covers both (`questionInContext`). */
  unanswered_questions: { rag_id: string; question_hash: string; question: string; asked_after: string | null; count: Int; last_asked_at: Timestamp };
  /** Migration 24: visitors' feedback on answers, by question; `record_ids` a JSON array of the cited records' ids. `asked_after`: migration 25. */
  answer_feedback: { rag_id: string; question_hash: string; question: string; asked_after: string | null; record_ids: string; helpful: Int; unhelpful: Int; last_at: Timestamp };
  signing_keys: {
    kid: string;
    purpose: string;
    alg: string;
    public_jwk: Json;
    private_jwk: Json;
    created_at: Timestamp;
    retired_at: NullableTimestamp;
  };
  oauth_clients: { client_id: string; secret_hash: string | null; account_id: string | null; kind: string; metadata: Json; created_at: Timestamp };
  external_identities: { issuer: string; subject: string; account_id: string; created_at: Timestamp };
  oauth_claims: {
    claim_hash: string;
    code_hash: string;
    client_id: string;
    kind: string;
    email: string | null;
    verification_hash: string | null;
    attempts: Int;
    confirmed_at: NullableTimestamp;
    claimed_at: NullableTimestamp;
    adopted_at: NullableTimestamp;
    expires_at: Timestamp;
    created_at: Timestamp;
  };
  oauth_grants: {
    grant_id: string;
    client_id: string;
    account_id: string;
    kind: string;
    scope: string;
    resources: Json;
    created_at: Timestamp;
    revoked_at: NullableTimestamp;
    /** Migration 15: when a credential of the grant was last presented (to within a minute). */
    last_used_at: NullableTimestamp;
  };
  oauth_authorization_codes: {
    code_hash: string;
    client_id: string;
    account_id: string;
    redirect_uri: string;
    code_challenge: string;
    scope: string;
    resources: Json;
    expires_at: Timestamp;
    used_at: NullableTimestamp;
    grant_id: string | null;
    created_at: Timestamp;
  };
  oauth_refresh_tokens: { token_hash: string; grant_id: string; expires_at: Timestamp; rotated_at: NullableTimestamp; created_at: Timestamp };
  account_api_keys: { key_hash: string; key_id: string; grant_id: string; prefix: string; created_at: Timestamp };
  oauth_used_jtis: { issuer: string; jti: string; expires_at: Timestamp };
}
