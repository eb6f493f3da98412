/**
 * This instance's copies of knowledge-base rows for the query path (issue 14), each tagged with
 * the stamp it was read under (ports/admission.ts): a query whose copy the admission check confirms
 * reads nothing from the store. A copy is dropped when this instance changes the knowledge base, when
 * the admission port resets (Redis back after an outage), and at the latest `maxAgeMs` after it was
 * read: the bound on staleness should a change ever fail to reach Redis.
 */
import { LRUCache } from 'lru-cache';
import type { Admission } from '../../ports/admission.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';
import type { KnowledgeBase } from '../model.js';

export interface KnowledgeBaseCopy {
  kb: KnowledgeBase;
  stamp: string;
}

interface Entry extends KnowledgeBaseCopy {
  readAt: number;
}

export interface KnowledgeBaseCopiesOptions {
  /** Default 10,000 knowledge bases. */
  max?: number;
  /** Default 10 s. */
  maxAgeMs?: number;
  now?: () => number;
  /**
   * The in-process limiter that stands in for the shared one (the shadow the admission mirrors its
   * decisions into): after an admission round trip failed, the query's limits are taken here, not
   * sent to Redis again, since the failed call may have taken them there already (its reply late).
   */
  inProcessLimiter?: RateLimiter;
}

export class KnowledgeBaseCopies {
  private readonly copies: LRUCache<string, Entry>;
  private readonly maxAgeMs: number;
  private readonly now: () => number;
  /** See `KnowledgeBaseCopiesOptions.inProcessLimiter`. */
  readonly inProcessLimiter: RateLimiter | undefined;

  constructor(
    readonly admission: Admission,
    options: KnowledgeBaseCopiesOptions = {},
  ) {
    this.inProcessLimiter = options.inProcessLimiter;
    this.copies = new LRUCache<string, Entry>({ max: options.max ?? 10_000 });
    this.maxAgeMs = options.maxAgeMs ?? 10_000;
    this.now = options.now ?? Date.now;
    admission.onReset(() => this.copies.clear());
  }

  get(ragId: string): KnowledgeBaseCopy | undefined {
    const entry = this.copies.get(ragId);
    if (entry && this.now() - entry.readAt < this.maxAgeMs) return entry;
    if (entry) this.copies.delete(ragId);
    return undefined;
  }

  set(ragId: string, kb: KnowledgeBase, stamp: string): void {
    this.copies.set(ragId, { kb, stamp, readAt: this.now() });
  }

  delete(ragId: string): void {
    this.copies.delete(ragId);
  }

  /** After a committed change of the knowledge base through this instance: stale here and everywhere. */
  async changed(ragId: string): Promise<void> {
    this.copies.delete(ragId);
    await this.admission.changed(ragId);
  }
}
