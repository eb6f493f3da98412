/**
 * Import from a URL (docs/ingestion.md, "Import from a web page or sitemap"): one HTML page, or a
 * sitemap (`<urlset>`, or a `<sitemapindex>` one level deep) whose same-host pages are fetched, at
 * most `concurrency` at a time, `maxPages` in all, within `timeLimitMs`. Every request goes through
 * the SSRF guard and robots.txt (web-fetch.ts); each page is extracted on an ingestion thread and
 * stored as the source of its URL by KnowledgeService.ingestPage (added, updated by fingerprint, or
 * left alone when its content is unchanged). One failing page never stops the others: the report
 * says what happened to each. Pages that vanished from a sitemap are reported, not deleted.
 */
import { importRules } from '../../limits/rules.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';
import { DomainError } from '../../errors.js';
import { type Connector, type FetchPolicy, GuardedFetchError, mediaTypeOf, type Resolver, systemResolver, vetAddresses, vetUrl } from '../../net/guarded-fetch.js';
import type { KnowledgeService, Quota } from '../knowledge-service.js';
import { robotsVerdict } from './robots.js';
import { parseSitemap, rootElement, SitemapTooDeep } from './sitemap.js';
import { ImportTimeUp, LOOSE_XML_TYPES, PAGE_TYPES, SITEMAP_MAX_BYTES, SITEMAP_TYPES, WebFetcher } from './web-fetch.js';
import { pageTitle } from './title.js';

export interface WebImportLimits {
  /** Pages fetched per import (IMPORT_MAX_PAGES). */
  maxPages: number;
  /** Bytes per page (IMPORT_MAX_PAGE_BYTES; never more than the upload limit). */
  maxPageBytes: number;
  /** The whole import (IMPORT_TIME_LIMIT_SECONDS), in milliseconds. */
  timeLimitMs: number;
  /** Pages fetched and read at once (IMPORT_CONCURRENCY). */
  concurrency: number;
}

export interface WebImportOptions extends WebImportLimits {
  /** Imports an account may start per hour (IMPORTS_PER_HOUR), counted through `limiter` on every instance. */
  perHour?: number;
  limiter?: RateLimiter;
  policy: FetchPolicy;
  /** Sent as `User-Agent`; its product token is the one robots.txt groups are matched against. */
  userAgent: string;
  resolver?: Resolver | undefined;
  connector?: Connector | undefined;
  now?: () => number;
}

export type ImportPageStatus = 'added' | 'updated' | 'unchanged' | 'skipped' | 'failed';

export interface ImportPage {
  url: string;
  status: ImportPageStatus;
  /** Why it was skipped or failed. */
  reason?: string;
  /** The error catalogue code of a failure the upload would give too (quota_exceeded, no_extractable_text…). */
  code?: string;
  sourceId?: string;
  title?: string;
  records: { added: number; duplicate: number; removed: number; kept: number };
}

export interface ImportReport {
  url: string;
  kind: 'page' | 'sitemap';
  pages: ImportPage[];
  totals: Record<ImportPageStatus, number> & { pages: number; recordsAdded: number; recordsDuplicate: number; recordsRemoved: number };
  /** URLs of the sitemap that were not fetched: on another host, or past the page limit. */
  ignored: { otherHost: number; overLimit: number };
  /** Sources imported earlier from this sitemap's host whose URL it no longer lists: kept, not deleted. */
  notInSitemap: { sourceId: string; url: string; sourceName: string }[];
  quota: Quota;
}

/** Sources listed in `notInSitemap` at most. */
const MAX_NOT_IN_SITEMAP = 50;

const noRecords = () => ({ added: 0, duplicate: 0, removed: 0, kept: 0 });

/** The URL without its fragment: a page's identity. */
function canonical(url: URL): string {
  const copy = new URL(url);
  copy.hash = '';
  return copy.href;
}

export class WebImportService {
  /** Accounts with an import running on this instance: one at a time each. */
  private readonly running = new Set<string>();

  constructor(
    private readonly knowledge: KnowledgeService,
    private readonly options: WebImportOptions,
  ) {}

  get limits(): WebImportLimits {
    const { maxPages, maxPageBytes, timeLimitMs, concurrency } = this.options;
    return { maxPages, maxPageBytes: Math.min(maxPageBytes, this.knowledge.limits.uploadMaxBytes), timeLimitMs, concurrency };
  }

  async import(ownerId: string, ragId: string, rawUrl: string, signal?: AbortSignal): Promise<ImportReport> {
    await this.knowledge.get(ownerId, ragId); // 404 before anything is fetched
    const start = await this.vetStart(rawUrl);
    if (this.running.has(ownerId)) {
      throw new DomainError('rate_limited', 'An import of this account is still running; wait for it to finish before starting another.', {
        limit: 'import',
        retryAfterMs: 10_000,
      });
    }
    this.running.add(ownerId);
    try {
      await this.consumeHourly(ownerId);
      return await this.run(ownerId, ragId, start, signal);
    } finally {
      this.running.delete(ownerId);
    }
  }

  /** One of the account's imports this hour, taken atomically on whichever backend the limiter uses. */
  private async consumeHourly(ownerId: string): Promise<void> {
    const { limiter, perHour } = this.options;
    if (!limiter || !perHour) return;
    const decision = await limiter.consume(importRules({ perHour }, ownerId));
    if (decision.allowed) return;
    throw new DomainError(
      'rate_limited',
      `This account may start ${perHour} imports per hour. Try again in ${Math.ceil(decision.retryAfterMs / 60_000)} min.`,
      { limit: 'import_hour', retryAfterMs: decision.retryAfterMs },
      { rateLimit: decision },
    );
  }

  /** The start URL vetted before anything is sent: scheme, credentials and its host's addresses. */
  private async vetStart(rawUrl: string): Promise<URL> {
    const { policy, resolver } = this.options;
    const refused = (detail: string) => new DomainError('url_not_allowed', `The URL was refused: ${detail}. Nothing was fetched.`);
    let url: URL;
    try {
      url = vetUrl(rawUrl.trim(), policy, 'page');
    } catch (error) {
      // The URL's own faults (scheme, credentials, a loopback name) are named.
      if (error instanceof GuardedFetchError) throw refused(error.message);
      throw error;
    }
    try {
      await vetAddresses(url, policy, resolver ?? systemResolver, 'page');
    } catch (error) {
      // Which addresses a name resolves to, or whether it resolves at all, is not told: the import
      // must not map anyone's internal network.
      if (error instanceof GuardedFetchError) throw refused('its host must resolve, and only to public addresses');
      throw error;
    }
    return url;
  }

  private async run(ownerId: string, ragId: string, start: URL, signal: AbortSignal | undefined): Promise<ImportReport> {
    const now = this.options.now ?? Date.now;
    const limits = this.limits;
    const fetcher = new WebFetcher(this.options, now() + limits.timeLimitMs, limits.timeLimitMs, now);
    const report: ImportReport = {
      url: start.href,
      kind: 'page',
      pages: [],
      totals: { pages: 0, added: 0, updated: 0, unchanged: 0, skipped: 0, failed: 0, recordsAdded: 0, recordsDuplicate: 0, recordsRemoved: 0 },
      ignored: { otherHost: 0, overLimit: 0 },
      notInSitemap: [],
      quota: this.knowledge.quotaOf(await this.knowledge.get(ownerId, ragId)),
    };

    // The start URL: a page or a sitemap, decided by its content type and root element.
    const first = await this.fetchStart(fetcher, start);
    if ('failure' in first) {
      report.pages.push(first.failure);
    } else if (first.kind === 'page') {
      // The URL asked for is the page's identity (not where a same-host redirect ended): re-importing it finds the source again.
      report.pages.push(await this.storePage(ownerId, ragId, start, first.body, signal));
    } else {
      report.kind = 'sitemap';
      const { urls, listed } = await this.sitemapPages(fetcher, start, first.body, report);
      const pages = await this.eachPage(urls, limits.concurrency, async (url): Promise<ImportPage> => {
        if (signal?.aborted) return { url: url.href, status: 'skipped', reason: 'the client closed the request', records: noRecords() };
        return this.importPage(fetcher, ownerId, ragId, url, signal);
      });
      // Child sitemaps that failed come first, then the pages in sitemap order.
      report.pages.push(...pages);
      report.notInSitemap = await this.vanished(ownerId, ragId, start, listed);
    }

    for (const page of report.pages) {
      report.totals[page.status]++;
      report.totals.recordsAdded += page.records.added;
      report.totals.recordsDuplicate += page.records.duplicate;
      report.totals.recordsRemoved += page.records.removed;
    }
    report.totals.pages = report.pages.length;
    report.quota = this.knowledge.quotaOf(await this.knowledge.get(ownerId, ragId));
    return report;
  }

  private async fetchStart(
    fetcher: WebFetcher,
    url: URL,
  ): Promise<{ kind: 'page' | 'sitemap'; body: Buffer } | { failure: ImportPage }> {
    const refusal = await this.robotsRefusal(fetcher, url);
    if (refusal) return { failure: refusal };
    const looksXml = /\.xml$/i.test(url.pathname);
    const accept = [...PAGE_TYPES, ...SITEMAP_TYPES, ...(looksXml ? LOOSE_XML_TYPES : [])];
    try {
      const response = await fetcher.get(url, accept, Math.max(this.limits.maxPageBytes, looksXml ? SITEMAP_MAX_BYTES : 0), 'page');
      const type = mediaTypeOf(response);
      const body = response.body;
      if (type === 'text/html') {
        if (body.byteLength > this.limits.maxPageBytes) return { failure: this.failed(url, `the page is larger than ${this.limits.maxPageBytes} bytes`) };
        return { kind: 'page', body };
      }
      const root = rootElement(body.toString('utf8'));
      if (root === 'urlset' || root === 'sitemapindex') return { kind: 'sitemap', body };
      if (type === 'application/xhtml+xml' || root === 'html') {
        if (body.byteLength > this.limits.maxPageBytes) return { failure: this.failed(url, `the page is larger than ${this.limits.maxPageBytes} bytes`) };
        return { kind: 'page', body };
      }
      return { failure: this.failed(url, `neither an HTML page nor a sitemap (content type "${type}", root element ${root ? `<${root}>` : 'none'})`) };
    } catch (error) {
      return { failure: this.fetchFailure(url, error) };
    }
  }

  /**
   * The same-host page URLs of a sitemap (a sitemap index: of its same-host child sitemaps, one
   * level deep), deduplicated, at most `maxPages`; `listed` holds every same-host page URL named.
   */
  private async sitemapPages(fetcher: WebFetcher, start: URL, body: Buffer, report: ImportReport): Promise<{ urls: URL[]; listed: Set<string> }> {
    const host = start.hostname;
    const listed = new Set<string>();
    const urls: URL[] = [];
    const take = (locs: string[], base: URL) => {
      for (const loc of locs) {
        let url: URL;
        try {
          url = new URL(loc, base);
        } catch {
          continue;
        }
        if (url.hostname !== host) {
          report.ignored.otherHost++;
          continue;
        }
        const key = canonical(url);
        if (listed.has(key)) continue;
        listed.add(key);
        if (urls.length < this.limits.maxPages) urls.push(new URL(key));
        else report.ignored.overLimit++;
      }
    };
    let sitemap: Awaited<ReturnType<typeof parseSitemap>>;
    try {
      sitemap = await parseSitemap(body.toString('utf8'));
    } catch (error) {
      report.pages.push(this.fetchFailure(start, error));
      return { urls, listed };
    }
    if (sitemap?.kind === 'urlset') take(sitemap.locs, start);
    else if (sitemap?.kind === 'sitemapindex') {
      for (const loc of sitemap.locs) {
        let child: URL;
        try {
          child = new URL(loc, start);
        } catch {
          continue;
        }
        if (child.hostname !== host) {
          report.ignored.otherHost++;
          continue;
        }
        const refusal = await this.robotsRefusal(fetcher, child);
        if (refusal) {
          report.pages.push(refusal);
          continue;
        }
        try {
          const response = await fetcher.get(child, [...SITEMAP_TYPES, ...LOOSE_XML_TYPES], SITEMAP_MAX_BYTES, 'sitemap');
          const parsed = await parseSitemap(response.body.toString('utf8'));
          // One level deep: an index inside an index is not followed.
          if (parsed?.kind === 'urlset') take(parsed.locs, child);
          else report.pages.push(this.failed(child, 'not a sitemap <urlset> (a sitemap index is followed one level deep only)'));
        } catch (error) {
          report.pages.push(this.fetchFailure(child, error));
        }
      }
    }
    return { urls, listed };
  }

  private async importPage(fetcher: WebFetcher, ownerId: string, ragId: string, url: URL, signal: AbortSignal | undefined): Promise<ImportPage> {
    const refusal = await this.robotsRefusal(fetcher, url);
    if (refusal) return refusal;
    try {
      const response = await fetcher.get(url, PAGE_TYPES, this.limits.maxPageBytes, 'page');
      return await this.storePage(ownerId, ragId, url, response.body, signal);
    } catch (error) {
      return this.fetchFailure(url, error);
    }
  }

  /** Extracts and stores a fetched page; its refusals (quota, no text…) become a failed page. */
  private async storePage(ownerId: string, ragId: string, url: URL, body: Buffer, signal: AbortSignal | undefined): Promise<ImportPage> {
    const key = canonical(url);
    try {
      const result = await this.knowledge.ingestPage(ownerId, ragId, { url: key, title: pageTitle(body), bytes: body }, signal);
      const { added, duplicate, removed, kept } = result;
      return { url: key, status: result.status, sourceId: result.source.sourceId, title: result.source.sourceName, records: { added, duplicate, removed, kept } };
    } catch (error) {
      if (error instanceof DomainError && error.code !== 'not_found') return { url: key, status: 'failed', code: error.code, reason: error.message, records: noRecords() };
      throw error;
    }
  }

  private async robotsRefusal(fetcher: WebFetcher, url: URL): Promise<ImportPage | undefined> {
    try {
      const verdict = robotsVerdict(await fetcher.robotsFor(url), url);
      return verdict.allowed ? undefined : { url: canonical(url), status: 'skipped', reason: verdict.reason, records: noRecords() };
    } catch (error) {
      return this.fetchFailure(url, error);
    }
  }

  private failed(url: URL, reason: string): ImportPage {
    return { url: canonical(url), status: 'failed', reason, records: noRecords() };
  }

  /** The page for an error met while fetching or reading `url`: skipped at the time limit, failed for a refusal; anything else is rethrown. */
  private fetchFailure(url: URL, error: unknown): ImportPage {
    if (error instanceof ImportTimeUp) return { url: canonical(url), status: 'skipped', code: 'time_limit_exceeded', reason: error.message, records: noRecords() };
    if (error instanceof GuardedFetchError || error instanceof SitemapTooDeep) return this.failed(url, error.message);
    throw error;
  }

  /** Runs `work` on every item, `concurrency` at a time; results in the items' order. */
  private async eachPage<T, R>(items: T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
    const results: R[] = new Array(items.length);
    let next = 0;
    const lane = async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index] as T);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, lane));
    return results;
  }

  /** Sources imported from the sitemap's host whose URL the sitemap no longer lists (kept, reported). */
  private async vanished(ownerId: string, ragId: string, start: URL, listed: Set<string>): Promise<ImportReport['notInSitemap']> {
    const out: ImportReport['notInSitemap'] = [];
    let cursor: string | undefined;
    do {
      const page = await this.knowledge.listSources(ownerId, ragId, { limit: 200, cursor });
      for (const source of page.items) {
        if (!source.url || listed.has(source.url) || source.url === canonical(start)) continue;
        let host: string;
        try {
          host = new URL(source.url).hostname;
        } catch {
          continue;
        }
        if (host === start.hostname && out.length < MAX_NOT_IN_SITEMAP) out.push({ sourceId: source.sourceId, url: source.url, sourceName: source.sourceName });
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor && out.length < MAX_NOT_IN_SITEMAP);
    return out;
  }
}
