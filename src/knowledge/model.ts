/** The knowledge domain's entities (product.md §3). Plain data, shared by the service and the store. */
import type { RecordKind, SourceFormat } from './extraction/types.js';

export interface WidgetTheme {
  /** Accent colour as #rrggbb. */
  accentColor?: string;
  /** `light`, `dark` or `auto` (follow the page). */
  colorScheme?: 'light' | 'dark' | 'auto';
  position?: 'bottom-right' | 'bottom-left';
}

export interface KnowledgeBase {
  ragId: string;
  ownerId: string;
  botName: string;
  description: string | null;
  greeting: string | null;
  /** What the bot says when its records do not answer (e.g. "Ask us at help@shop.example"); null = the default refusal in the question's language. */
  fallbackMessage: string | null;
  theme: WidgetTheme;
  /** Changes whenever the knowledge base's records change; caches key on it. */
  contentVersion: number;
  /** Changes whenever one of its API keys is changed or revoked; key caches check it on every query. */
  keysVersion: number;
  recordCount: number;
  createdAt: string;
  updatedAt: string;
}

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
}

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

export interface Page<T> {
  items: T[];
  /** Opaque cursor for the next page; null on the last page. */
  nextCursor: string | null;
}

/** A knowledge-base query key (`X-API-Key`). Only its SHA-256 is stored; `prefix` is for display. */
export interface ApiKey {
  keyId: string;
  ragId: string;
  name: string | null;
  /** The first characters of the key, e.g. `gw_live_4fQx`, so people can tell keys apart. */
  prefix: string;
  /** Hosts allowed as Origin/Referer: `example.com`, `*.example.com` (subdomains), `localhost`. */
  allowedDomains: string[];
  createdAt: string;
}

export interface DailyUsage {
  /** UTC date, YYYY-MM-DD. */
  day: string;
  queries: number;
  cacheHits: number;
  unanswered: number;
}

export interface UnansweredQuestion {
  question: string;
  count: number;
  lastAskedAt: string;
}
