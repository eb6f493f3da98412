/**
 * Knowledge bases, sources and records: the use cases behind the management
 * API, the dashboard and the agent tools. No HTTP here: callers pass plain
 * values and get entities or a DomainError.
 */
import type { KnowledgeBasePatch, KnowledgeStore, PageRequest } from '../ports/storage.js';
import { DomainError } from '../errors.js';
import { newId } from '../ids.js';
import type { ExtractionOptions, RecordKind, Rejection, SourceFormat } from './extraction/types.js';
import { IngestThreads } from './ingest-threads.js';
import type { CandidateRecord, KnowledgeBase, KnowledgeRecord, Page, Source, WidgetTheme } from './model.js';
import { sha256Hex } from './fingerprint.js';
import { MIN_RECORDS_PER_UPLOAD, type ReportedRecord } from './prepare-upload.js';
import { checkedStarterQuestions } from './starter-questions.js';
import { checkedSynonyms } from './synonyms.js';

export interface KnowledgeLimits {
  maxKnowledgeBases: number;
  maxRecordsPerKb: number;
  uploadMaxBytes: number;
  /** Uploads one account may have waiting for an ingestion thread (UPLOAD_QUEUE_PER_ACCOUNT). */
  uploadQueuePerAccount?: number;
}

export interface NewKnowledgeBaseInput {
  botName: string;
  description?: string | null | undefined;
  greeting?: string | null | undefined;
  fallbackMessage?: string | null | undefined;
  /** Checked here (synonyms.ts): null or absent, none. */
  synonyms?: unknown;
  /** Checked here (starter-questions.ts): null or absent, none. */
  starterQuestions?: unknown;
  theme?: WidgetTheme | undefined;
}

/** What an owner may change of a knowledge base; null clears a text, the synonyms or the starter questions. */
export type KnowledgeBaseChanges = Omit<KnowledgeBasePatch, 'synonyms' | 'starterQuestions'> & { synonyms?: unknown; starterQuestions?: unknown };

/** The owner's refusal text: at most this many characters after trimming. */
export const maxFallbackMessageChars = 500;

export interface Upload {
  name: string;
  format: SourceFormat;
  bytes: Uint8Array;
}

export interface UploadItem {
  kind: RecordKind;
  title: string | null;
  /** The first 160 characters of the record's text. */
  preview: string;
  fingerprint: string;
  status: 'added' | 'duplicate';
  /** Set for added records. */
  recordId?: string;
}

export interface UploadReport {
  source: Source;
  added: number;
  duplicate: number;
  rejected: number;
  /** The first rejected items and why (at most 50). */
  rejections: Rejection[];
  /** Per-record outcome in upload order (at most 200). */
  items: UploadItem[];
  quota: Quota;
}

/** A fetched web page to store as a source (import from a URL). */
export interface WebPage {
  /** Its URL (without fragment): the source's identity within the knowledge base. */
  url: string;
  /** Its `<title>`, or null: the source's name (else the URL). */
  title: string | null;
  bytes: Uint8Array;
}

export interface PageIngestResult {
  status: 'added' | 'updated' | 'unchanged';
  source: Source;
  /** Records stored, already stored elsewhere (or repeated in the page), deleted, kept from the previous version. */
  added: number;
  duplicate: number;
  removed: number;
  kept: number;
  quota: Quota;
}

export interface Quota {
  limit: number;
  used: number;
  available: number;
}

/** Called after every committed change of a knowledge base's records (index and cache invalidation). */
export type ContentChangeListener = (ragId: string) => void | Promise<void>;

export class KnowledgeService {
  private readonly listeners: ContentChangeListener[] = [];

  constructor(
    private readonly store: KnowledgeStore,
    readonly limits: KnowledgeLimits,
    private readonly extraction: ExtractionOptions = { maxRecordChars: 2000 },
    /** Where uploads are extracted and fingerprinted: never on the HTTP thread. */
    private readonly threads: IngestThreads = new IngestThreads({ maxQueuedPerAccount: limits.uploadQueuePerAccount }),
  ) {}

  /** Records (duplicates included) one upload may yield: 413 too_many_records past it. */
  get maxRecordsPerUpload(): number {
    return Math.max(MIN_RECORDS_PER_UPLOAD, this.limits.maxRecordsPerKb);
  }

  /** Ends the ingestion threads (shutdown). */
  close(): Promise<void> {
    return this.threads.close();
  }

  onContentChange(listener: ContentChangeListener): void {
    this.listeners.push(listener);
  }

  private async changed(ragId: string): Promise<void> {
    for (const listener of this.listeners) await listener(ragId);
  }

  quotaOf(kb: KnowledgeBase): Quota {
    const limit = this.limits.maxRecordsPerKb;
    return { limit, used: kb.recordCount, available: Math.max(0, limit - kb.recordCount) };
  }

  async create(ownerId: string, input: NewKnowledgeBaseInput): Promise<KnowledgeBase> {
    const result = await this.store.createKnowledgeBase(
      {
        ragId: newId('kb'),
        ownerId,
        botName: input.botName.trim(),
        description: input.description?.trim() || null,
        greeting: input.greeting?.trim() || null,
        fallbackMessage: checkedFallbackMessage(input.fallbackMessage),
        synonyms: checkedSynonyms(input.synonyms),
        starterQuestions: checkedStarterQuestions(input.starterQuestions),
        theme: input.theme ?? {},
      },
      this.limits.maxKnowledgeBases,
    );
    if (result.kind === 'limit_reached') {
      throw new DomainError('kb_limit_reached', `This account already has ${result.active} of ${this.limits.maxKnowledgeBases} knowledge bases. Delete one to create another.`, {
        limit: this.limits.maxKnowledgeBases,
        active: result.active,
      });
    }
    return result.knowledgeBase;
  }

  list(ownerId: string): Promise<KnowledgeBase[]> {
    return this.store.listKnowledgeBases(ownerId);
  }

  async get(ownerId: string, ragId: string): Promise<KnowledgeBase> {
    return found(await this.store.getKnowledgeBase(ownerId, ragId));
  }

  async update(ownerId: string, ragId: string, changes: KnowledgeBaseChanges): Promise<KnowledgeBase> {
    const { synonyms, starterQuestions, ...patch } = changes;
    const clean: KnowledgeBasePatch = { ...patch };
    if (synonyms !== undefined) clean.synonyms = checkedSynonyms(synonyms);
    if (starterQuestions !== undefined) clean.starterQuestions = checkedStarterQuestions(starterQuestions);
    if (clean.botName !== undefined) clean.botName = clean.botName.trim();
    if (clean.description !== undefined) clean.description = clean.description?.trim() || null;
    if (clean.greeting !== undefined) clean.greeting = clean.greeting?.trim() || null;
    if (clean.fallbackMessage !== undefined) clean.fallbackMessage = checkedFallbackMessage(clean.fallbackMessage);
    return found(await this.store.updateKnowledgeBase(ownerId, ragId, clean));
  }

  async remove(ownerId: string, ragId: string): Promise<void> {
    if (!(await this.store.deleteKnowledgeBase(ownerId, ragId))) throw notFound();
    await this.changed(ragId);
  }

  /**
   * Reads `bytes` on an ingestion thread (queued per account; `signal` takes it out of the queue or
   * stops its reading): the distinct candidate records in upload order. Refuses, before anything is
   * stored, content over the upload size, an upload that cannot fit the quota (stopped as soon as
   * that is certain) and one with too many records; 404 for a knowledge base not the caller's.
   */
  private async prepare(ownerId: string, ragId: string, bytes: Uint8Array, format: SourceFormat, what: 'upload' | 'page', signal?: AbortSignal) {
    if (bytes.byteLength > this.limits.uploadMaxBytes) {
      throw new DomainError('payload_too_large', `The ${what} is larger than ${this.limits.uploadMaxBytes} bytes.`, { limitBytes: this.limits.uploadMaxBytes });
    }
    // Fail fast (and cheaply) on a knowledge base that is not the caller's.
    const kb = found(await this.store.getKnowledgeBase(ownerId, ragId));
    const prepared = await this.threads.prepare({
      bytes,
      format,
      options: this.extraction,
      limits: { maxDistinct: Math.max(this.limits.maxRecordsPerKb, kb.recordCount), maxRecords: this.maxRecordsPerUpload },
    }, { account: ownerId, signal });
    if (prepared.kind === 'over_quota') {
      // At most recordCount of the distinct records read so far can be stored already: at least
      // one more than the free slots is new, and reading on would only make the number larger.
      const { available } = this.quotaOf(kb);
      throw this.quotaExceeded(available + 1, available, true);
    }
    if (prepared.kind === 'too_many_records') {
      throw new DomainError('too_many_records', `The ${what} holds more than ${prepared.maxRecords} records (duplicates included). Nothing was stored.`, {
        maxRecords: prepared.maxRecords,
      });
    }
    return { prepared, candidates: prepared.order.map((index) => prepared.unique[index] as CandidateRecord) };
  }

  /**
   * Extracts, fingerprints and stores one upload as a source. Extraction and
   * hashing run on an ingestion thread and stop as soon as the upload cannot
   * fit (prepare-upload.ts); the store then dedupes and applies the quota in
   * one transaction, so a refused upload stores nothing. Uploads wait in one queue per account;
   * `signal` (the client left) takes the upload out of the queue or stops its reading.
   */
  async ingest(ownerId: string, ragId: string, upload: Upload, signal?: AbortSignal): Promise<UploadReport> {
    const { candidates, prepared } = await this.prepare(ownerId, ragId, upload.bytes, upload.format, 'upload', signal);
    const result = await this.store.commitSource(
      ownerId,
      ragId,
      {
        sourceId: newId('src'),
        sourceName: upload.name,
        format: upload.format,
        byteSize: upload.bytes.byteLength,
        sha256: prepared.sha256,
        rejectedCount: prepared.rejectedCount,
      },
      candidates,
      this.limits.maxRecordsPerKb,
    );
    if (result.kind === 'not_found') throw notFound();
    if (result.kind === 'quota_exceeded') throw this.quotaExceeded(result.needed, result.available, false);
    await this.changed(ragId);
    return {
      source: result.source,
      added: result.source.addedCount,
      duplicate: result.source.duplicateCount,
      rejected: result.source.rejectedCount,
      rejections: prepared.rejected,
      items: uploadItems(prepared.head, candidates, result.duplicateFingerprints),
      quota: this.quotaOf(result.knowledgeBase),
    };
  }

  /**
   * Stores one web page (import from a URL) as the source of its URL: extracted on an ingestion
   * thread like an uploaded `.html` file, then committed in one transaction (KnowledgeStore
   * `commitPageSource`): a page whose extracted content has the SHA-256 of the stored one is left
   * alone; a changed one has its records replaced by fingerprint; a new one is added. Same limits
   * and errors as an upload (payload_too_large, quota_exceeded, too_many_records, no_extractable_text…);
   * a refused page stores nothing.
   */
  async ingestPage(ownerId: string, ragId: string, page: WebPage, signal?: AbortSignal): Promise<PageIngestResult> {
    const { candidates, prepared } = await this.prepare(ownerId, ragId, page.bytes, 'html', 'page', signal);
    const name = pageSourceName(page);
    // The page's identity on re-import: its name and the fingerprints of its records in order, not
    // its bytes (a new ad or a timestamp in the page furniture changes nothing).
    const contentSha = sha256Hex(`${name}\n${candidates.map((c) => c.fingerprint).join('\n')}`);
    const result = await this.store.commitPageSource(
      ownerId,
      ragId,
      { sourceId: newId('src'), sourceName: name, format: 'html', byteSize: page.bytes.byteLength, sha256: contentSha, rejectedCount: prepared.rejectedCount, url: page.url },
      candidates,
      this.limits.maxRecordsPerKb,
    );
    if (result.kind === 'not_found') throw notFound();
    if (result.kind === 'quota_exceeded') throw this.quotaExceeded(result.needed, result.available, false);
    if (result.kind !== 'unchanged') await this.changed(ragId);
    return {
      status: result.kind,
      source: result.source,
      added: result.added,
      duplicate: result.duplicateFingerprints.length,
      removed: result.removed,
      kept: result.kept,
      quota: this.quotaOf(result.knowledgeBase),
    };
  }

  /** `atLeast`: reading stopped once the upload could not fit, so `needed` is a lower bound. */
  private quotaExceeded(needed: number, available: number, atLeast: boolean): DomainError {
    const limit = this.limits.maxRecordsPerKb;
    return new DomainError(
      'quota_exceeded',
      `The upload has ${atLeast ? 'at least ' : ''}${needed} new records but only ${available} of ${limit} slots are free. Nothing was stored.`,
      { needed, available, limit },
    );
  }

  async listSources(ownerId: string, ragId: string, page: PageRequest): Promise<Page<Source>> {
    return found(await this.store.listSources(ownerId, ragId, page));
  }

  async deleteSource(ownerId: string, ragId: string, sourceId: string): Promise<void> {
    if (!(await this.store.deleteSource(ownerId, ragId, sourceId))) throw notFound();
    await this.changed(ragId);
  }

  async listRecords(ownerId: string, ragId: string, page: PageRequest & { sourceId?: string | undefined }): Promise<Page<KnowledgeRecord>> {
    return found(await this.store.listRecords(ownerId, ragId, page));
  }

  async deleteRecord(ownerId: string, ragId: string, recordId: string): Promise<void> {
    if (!(await this.store.deleteRecord(ownerId, ragId, recordId))) throw notFound();
    await this.changed(ragId);
  }
}

/**
 * Per-record outcome of the first records of an upload (`head`). The store
 * reports duplicates as fingerprints in upload order: a fingerprint reported
 * as often as it occurs in the upload was already stored; one reported once
 * less had its first occurrence added.
 */
function uploadItems(head: ReportedRecord[], candidates: CandidateRecord[], duplicateFingerprints: string[]): UploadItem[] {
  const occurrences = countBy(candidates.map((c) => c.fingerprint));
  const duplicates = countBy(duplicateFingerprints);
  const seen = new Set<string>();
  return head.map((r) => {
    const alreadyStored = duplicates.get(r.fingerprint) === occurrences.get(r.fingerprint);
    const added = !alreadyStored && !seen.has(r.fingerprint);
    seen.add(r.fingerprint);
    return {
      kind: r.kind,
      title: r.title,
      preview: r.preview,
      fingerprint: r.fingerprint,
      status: added ? 'added' : 'duplicate',
      ...(added ? { recordId: r.recordId } : {}),
    };
  });
}

function countBy(values: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

/**
 * The fallback message trimmed, null when empty (the default refusal), or a
 * validation error when it is too long or holds control characters. Markup is
 * not refused: it is stored as typed and every client renders it as text.
 */
function checkedFallbackMessage(raw: string | null | undefined): string | null {
  const message = raw?.trim() || null;
  if (message === null) return null;
  const problem =
    // Code points, as the HTTP schema's maxLength counts them (an emoji is one character, not two).
    [...message].length > maxFallbackMessageChars
      ? `must be at most ${maxFallbackMessageChars} characters after trimming`
      : /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(message)
        ? 'must not contain control characters'
        : undefined;
  if (problem) {
    throw new DomainError('validation_failed', `fallbackMessage ${problem}.`, { errors: [{ location: '/body/fallbackMessage', message: problem }] });
  }
  return message;
}

/** The page's title without control characters, at most 200 characters; the URL when it has none. */
function pageSourceName(page: WebPage): string {
  const title = (page.title ?? '').replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/\s+/g, ' ').trim();
  return (title || page.url).slice(0, 200);
}

function notFound(): DomainError {
  return new DomainError('not_found', 'No such knowledge base, source or record in this account.');
}

function found<T>(value: T | undefined): T {
  if (value === undefined) throw notFound();
  return value;
}
