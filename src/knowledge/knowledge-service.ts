/**
 * Knowledge bases, sources and records: the use cases behind the management
 * API, the dashboard and the agent tools. No HTTP here: callers pass plain
 * values and get entities or a DomainError.
 */
import type { KnowledgeBasePatch, KnowledgeStore, PageRequest } from '../adapters/storage/port.js';
import { DomainError } from '../errors.js';
import { newId } from '../ids.js';
import { extract } from './extraction/index.js';
import type { ExtractionOptions, RecordKind, Rejection, SourceFormat } from './extraction/types.js';
import { fingerprint, sha256Hex } from './fingerprint.js';
import type { CandidateRecord, KnowledgeBase, KnowledgeRecord, Page, Source, WidgetTheme } from './model.js';

export interface KnowledgeLimits {
  maxKnowledgeBases: number;
  maxRecordsPerKb: number;
  uploadMaxBytes: number;
}

export interface NewKnowledgeBaseInput {
  botName: string;
  description?: string | null | undefined;
  greeting?: string | null | undefined;
  fallbackMessage?: string | null | undefined;
  theme?: WidgetTheme | undefined;
}

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
  ) {}

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

  async update(ownerId: string, ragId: string, patch: KnowledgeBasePatch): Promise<KnowledgeBase> {
    const clean: KnowledgeBasePatch = { ...patch };
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
   * Extracts, fingerprints and stores one upload as a source. Extraction runs
   * before the transaction; the store then dedupes and applies the quota in
   * one transaction, so a refused upload stores nothing.
   */
  async ingest(ownerId: string, ragId: string, upload: Upload): Promise<UploadReport> {
    if (upload.bytes.byteLength > this.limits.uploadMaxBytes) {
      throw new DomainError('payload_too_large', `The upload is larger than ${this.limits.uploadMaxBytes} bytes.`, { limitBytes: this.limits.uploadMaxBytes });
    }
    // Fail fast (and cheaply) on a knowledge base that is not the caller's.
    found(await this.store.getKnowledgeBase(ownerId, ragId));
    const extraction = extract(upload.bytes, upload.format, this.extraction);
    const candidates: CandidateRecord[] = extraction.records.map((record) => ({
      recordId: newId('rec'),
      kind: record.kind,
      title: record.title ?? null,
      text: record.text,
      fingerprint: fingerprint(record.text),
    }));
    const result = await this.store.commitSource(
      ownerId,
      ragId,
      {
        sourceId: newId('src'),
        sourceName: upload.name,
        format: upload.format,
        byteSize: upload.bytes.byteLength,
        sha256: sha256Hex(upload.bytes),
        rejectedCount: extraction.rejectedCount,
      },
      candidates,
      this.limits.maxRecordsPerKb,
    );
    if (result.kind === 'not_found') throw notFound();
    if (result.kind === 'quota_exceeded') {
      throw new DomainError(
        'quota_exceeded',
        `The upload has ${result.needed} new records but only ${result.available} of ${this.limits.maxRecordsPerKb} slots are free. Nothing was stored.`,
        { needed: result.needed, available: result.available, limit: this.limits.maxRecordsPerKb },
      );
    }
    await this.changed(ragId);
    const items = uploadItems(candidates, result.duplicateFingerprints).slice(0, 200);
    return {
      source: result.source,
      added: result.source.addedCount,
      duplicate: result.source.duplicateCount,
      rejected: result.source.rejectedCount,
      rejections: extraction.rejected.slice(0, 50),
      items,
      quota: this.quotaOf(result.knowledgeBase),
    };
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
 * Per-record outcome of an upload. The store reports duplicates as
 * fingerprints in upload order: a fingerprint reported as often as it occurs
 * was already stored; one reported once less had its first occurrence added.
 */
function uploadItems(candidates: CandidateRecord[], duplicateFingerprints: string[]): UploadItem[] {
  const occurrences = countBy(candidates.map((c) => c.fingerprint));
  const duplicates = countBy(duplicateFingerprints);
  const seen = new Set<string>();
  return candidates.map((c) => {
    const alreadyStored = duplicates.get(c.fingerprint) === occurrences.get(c.fingerprint);
    const added = !alreadyStored && !seen.has(c.fingerprint);
    seen.add(c.fingerprint);
    return {
      kind: c.kind,
      title: c.title,
      preview: c.text.slice(0, 160),
      fingerprint: c.fingerprint,
      status: added ? 'added' : 'duplicate',
      ...(added ? { recordId: c.recordId } : {}),
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

function notFound(): DomainError {
  return new DomainError('not_found', 'No such knowledge base, source or record in this account.');
}

function found<T>(value: T | undefined): T {
  if (value === undefined) throw notFound();
  return value;
}
