/**
 * The knowledge domain's entities (product.md §3). Plain data, shared by the service and the store.
 * Where an entity is exactly what the API sends, its type is the API's (src/sdk/api-schemas.ts);
 * where it differs, a line says why, and test/sdk/types.test.ts pins the rest of the shape.
 */
import type { Page, Theme, UsageReport } from '../sdk/api-schemas.js';
import type { RecordKind, SourceFormat } from './extraction/types.js';
import type { SynonymGroups } from './synonyms.js';

/** Stored as the API takes it (accent colour as #rrggbb; `auto` follows the page). */
export type WidgetTheme = Theme;

/** The API's view drops `ownerId` and `keysVersion` (internal) and adds the computed `quota`. */
export interface KnowledgeBase {
  ragId: string;
  ownerId: string;
  botName: string;
  description: string | null;
  greeting: string | null;
  /** What the bot says when its records do not answer (e.g. "Ask us at help@shop.example"); null = the default refusal in the question's language. */
  fallbackMessage: string | null;
  /** The owner's groups of words that mean the same to their visitors (synonyms.ts); empty when none. */
  synonyms: SynonymGroups;
  /** Questions the widget offers before the visitor types (starter-questions.ts), in the owner's order; empty when none. */
  starterQuestions: string[];
  theme: WidgetTheme;
  /** Changes whenever the knowledge base's records change; caches key on it. */
  contentVersion: number;
  /** Changes whenever one of its API keys is changed or revoked; key caches check it on every query. */
  keysVersion: number;
  recordCount: number;
  createdAt: string;
  updatedAt: string;
  /** The first widget request from a site other than the service itself (its origin, when), or null while none came. */
  widgetSeen: WidgetSighting | null;
}

export interface WidgetSighting {
  origin: string;
  at: string;
}

/** The API's view drops `ragId` (it is in the URL). */
export interface Source {
  sourceId: string;
  ragId: string;
  sourceName: string;
  format: SourceFormat;
  byteSize: number;
  sha256: string;
  addedCount: number;
  duplicateCount: number;
  rejectedCount: number;
  createdAt: string;
  /** The page the source was imported from (import from a URL); absent for uploads and pastes. */
  url?: string | null;
}

/** The API's view drops `ragId` (it is in the URL). */
export interface KnowledgeRecord {
  recordId: string;
  ragId: string;
  sourceId: string;
  kind: RecordKind;
  title: string | null;
  text: string;
  fingerprint: string;
  createdAt: string;
}

/** A record with the name of the source it came from, as retrieval and citations need it. */
export interface SourcedRecord extends KnowledgeRecord {
  sourceName: string;
}

/** A record extracted from an upload, fingerprinted, not yet stored. */
export interface CandidateRecord {
  recordId: string;
  kind: RecordKind;
  title: string | null;
  text: string;
  fingerprint: string;
}

export type { Page };

/**
 * A knowledge-base query key (`X-API-Key`). Only its SHA-256 is stored; `prefix` is for display.
 * The API's view drops `ragId` (it is in the URL).
 */
export interface ApiKey {
  keyId: string;
  ragId: string;
  name: string | null;
  /** The first characters of the key, e.g. `gw_live_4fQx`, so people can tell keys apart. */
  prefix: string;
  /** Hosts allowed as Origin/Referer: `example.com`, `*.example.com` (subdomains), `localhost`. */
  allowedDomains: string[];
  createdAt: string;
  /**
   * A key made for a website widget (docs/widget-keys.md): public by nature, so its full key is kept
   * sealed and shown to its owner again. False for a secret key (stored as a hash only, shown once).
   */
  publishable: boolean;
  /** The full key: only on a publishable key as listed to its owner, never on a secret key. */
  apiKey?: string;
}

/** One UTC day (`day` is YYYY-MM-DD) of a knowledge base's usage, as the usage report lists it. */
export type DailyUsage = UsageReport['days'][number];

/** A question the records did not answer, as it is stored; the usage report adds the words of it no record uses, found when it is read. */
export type UnansweredQuestion = Omit<UsageReport['unanswered'][number], 'unknownWords'>;
