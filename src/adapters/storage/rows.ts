/**
 * Row ↔ entity mapping for both dialects: the columns are the same, only what
 * the driver returns differs. Numbers may arrive as strings or bigints from
 * PostgreSQL, timestamps as Dates and JSON parsed; all are normalised here.
 */
import type { StoredSigningKey } from '../../ports/storage.js';
import type { Account, Session, SignInCode } from '../../identity/model.js';
import type { RecordKind, SourceFormat } from '../../knowledge/extraction/types.js';
import { LRUCache } from 'lru-cache';
import type { SynonymGroups } from '../../knowledge/synonyms.js';
import type { ApiKey, KnowledgeBase, KnowledgeRecord, Source, SourcedRecord, UnansweredQuestion, WidgetTheme } from '../../knowledge/model.js';

export type Row = Record<string, unknown>;

const num = (value: unknown): number => Number(value);
export const text = (value: unknown): string => (value instanceof Date ? value.toISOString() : String(value));
const nullableText = (value: unknown): string | null => (value === null || value === undefined ? null : text(value));

function parseTheme(value: unknown): WidgetTheme {
  if (value && typeof value === 'object') return value as WidgetTheme;
  try {
    return JSON.parse(String(value ?? '{}')) as WidgetTheme;
  } catch {
    return {};
  }
}

/**
 * The synonyms' JSON text of a row, by the text: a row read again yields the same frozen groups
 * (retrieval compiles them, and the answer cache hashes them, once per array). Bounded by the texts'
 * length: a knowledge base's synonyms are at most ~60 KB of JSON (synonyms.ts).
 */
const parsedSynonyms = new LRUCache<string, SynonymGroups>({ maxSize: 4_000_000, sizeCalculation: (_, json) => json.length + 100 });

function parseSynonyms(value: unknown): SynonymGroups {
  if (value === null || value === undefined || value === '') return [];
  const json = String(value);
  let groups = parsedSynonyms.get(json);
  if (groups === undefined) {
    groups = [];
    try {
      const parsed: unknown = JSON.parse(json);
      for (const g of Array.isArray(parsed) ? parsed : []) {
        if (!Array.isArray(g)) continue;
        const members = g.filter((m): m is string => typeof m === 'string');
        Object.freeze(members);
        groups.push(members);
      }
    } catch {
      // Never written so: the store writes synonymsColumn's JSON only.
    }
    Object.freeze(groups);
    parsedSynonyms.set(json, groups);
  }
  return groups;
}

/** The column's value for `groups`: null when there are none. */
export function synonymsColumn(groups: SynonymGroups | undefined): string | null {
  return groups === undefined || groups.length === 0 ? null : JSON.stringify(groups);
}

/** The starter questions of a row's JSON text, frozen (a few short strings, parsed as the row is read). */
function parseStarterQuestions(value: unknown): string[] {
  let questions: string[] = [];
  if (value !== null && value !== undefined && value !== '') {
    try {
      const parsed: unknown = JSON.parse(String(value));
      if (Array.isArray(parsed)) questions = parsed.filter((q): q is string => typeof q === 'string');
    } catch {
      // Never written so: the store writes starterQuestionsColumn's JSON only.
    }
  }
  Object.freeze(questions);
  return questions;
}

/** The column's value for `questions`: null when there are none. */
export function starterQuestionsColumn(questions: string[] | undefined): string | null {
  return questions === undefined || questions.length === 0 ? null : JSON.stringify(questions);
}

export function toKnowledgeBase(row: Row): KnowledgeBase {
  return {
    ragId: text(row.rag_id),
    ownerId: text(row.owner_id),
    botName: text(row.bot_name),
    description: nullableText(row.description),
    greeting: nullableText(row.greeting),
    fallbackMessage: nullableText(row.fallback_message),
    synonyms: parseSynonyms(row.synonyms),
    starterQuestions: parseStarterQuestions(row.starter_questions),
    theme: parseTheme(row.theme),
    contentVersion: num(row.content_version),
    keysVersion: num(row.keys_version),
    recordCount: num(row.record_count),
    createdAt: text(row.created_at),
    updatedAt: text(row.updated_at),
    widgetSeen: row.widget_seen_origin && row.widget_seen_at ? { origin: text(row.widget_seen_origin), at: text(row.widget_seen_at) } : null,
  };
}

/** A knowledge base that cached rows share with every reader: nobody may change it in place. */
export function frozenKnowledgeBase(kb: KnowledgeBase): KnowledgeBase {
  Object.freeze(kb.theme);
  return Object.freeze(kb);
}

export function toSource(row: Row): Source {
  return {
    sourceId: text(row.source_id),
    ragId: text(row.rag_id),
    sourceName: text(row.source_name),
    format: text(row.format) as SourceFormat,
    byteSize: num(row.byte_size),
    sha256: text(row.sha256),
    addedCount: num(row.added_count),
    duplicateCount: num(row.duplicate_count),
    rejectedCount: num(row.rejected_count),
    createdAt: text(row.created_at),
    // Only sources imported from a URL carry one (migration 11).
    ...(typeof row.url === 'string' ? { url: row.url } : {}),
  };
}

export function toRecord(row: Row): KnowledgeRecord {
  return {
    recordId: text(row.record_id),
    ragId: text(row.rag_id),
    sourceId: text(row.source_id),
    kind: text(row.kind) as RecordKind,
    title: nullableText(row.title),
    text: text(row.text),
    fingerprint: text(row.fingerprint),
    createdAt: text(row.created_at),
  };
}

export function toSourcedRecord(row: Row): SourcedRecord {
  return { ...toRecord(row), sourceName: text(row.source_name) };
}

export function toAccount(row: Row): Account {
  return { accountId: text(row.account_id), email: nullableText(row.email), createdAt: text(row.created_at) };
}

/** Sign-in counter windows are at most an hour long: rows whose window began before this can go. */
export function counterHorizon(now: string): string {
  return new Date(Date.parse(now) - 3600_000).toISOString();
}

export function toSignInCode(row: Row): SignInCode {
  return {
    codeId: text(row.code_id),
    email: text(row.email),
    codeHash: text(row.code_hash),
    expiresAt: text(row.expires_at),
    attempts: num(row.attempts),
    createdAt: text(row.created_at),
  };
}

export function toSession(row: Row): Session {
  return {
    tokenHash: text(row.token_hash),
    accountId: text(row.account_id),
    csrfToken: text(row.csrf_token),
    expiresAt: text(row.expires_at),
    createdAt: text(row.created_at),
  };
}

/**
 * Splits upload candidates into new records and duplicates, given the
 * fingerprints already stored. In-file repeats count as duplicates too.
 */
export function partitionCandidates<T extends { fingerprint: string }>(candidates: T[], existing: Set<string>): { fresh: T[]; duplicates: string[] } {
  const seen = new Set(existing);
  const fresh: T[] = [];
  const duplicates: string[] = [];
  for (const candidate of candidates) {
    if (seen.has(candidate.fingerprint)) duplicates.push(candidate.fingerprint);
    else {
      seen.add(candidate.fingerprint);
      fresh.push(candidate);
    }
  }
  return { fresh, duplicates };
}

export function toApiKey(row: Row): ApiKey {
  const domains = typeof row.allowed_domains === 'string' ? JSON.parse(row.allowed_domains) : row.allowed_domains;
  return {
    keyId: text(row.key_id),
    ragId: text(row.rag_id),
    name: nullableText(row.name),
    prefix: text(row.prefix),
    allowedDomains: Array.isArray(domains) ? domains.map(String) : [],
    createdAt: text(row.created_at),
    publishable: row.sealed_key !== null && row.sealed_key !== undefined,
  };
}

/** `{ askedAfter }` when the row's question was a follow-up (migration 25), else nothing. */
export function askedAfterOf(row: Row): { askedAfter?: string } {
  const askedAfter = nullableText(row.asked_after);
  return askedAfter === null ? {} : { askedAfter };
}

export function toUnanswered(row: Row): UnansweredQuestion {
  return {
    question: text(row.question),
    ...askedAfterOf(row),
    count: num(row.count),
    lastAskedAt: text(row.last_asked_at),
  };
}

export function toSigningKey(row: Row): StoredSigningKey {
  const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, unknown>;
  return {
    kid: text(row.kid),
    purpose: text(row.purpose),
    alg: text(row.alg),
    publicJwk: json(row.public_jwk),
    privateJwk: json(row.private_jwk),
    createdAt: text(row.created_at),
    retiredAt: nullableText(row.retired_at),
  };
}
