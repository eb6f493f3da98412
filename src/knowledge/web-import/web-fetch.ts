/**
 * What one import fetches, and how: every request goes through the SSRF guard
 * (src/net/guarded-fetch.ts) with the configured policy (loopback and plain http only in
 * development), names us in `User-Agent`, follows at most three redirects and only to the same
 * host (each hop vetted again), and gets the time left of the import, at most 15 s. robots.txt is
 * fetched once per host and import: 200 → its rules; 4xx (none) → everything allowed; 5xx, or
 * unreachable (DNS, connection, refused by the guard, too large) → the whole host disallowed.
 */
import {
  type Connector,
  type FetchPolicy,
  GuardedFetchError,
  type GuardedResponse,
  guardedGet,
  guardedRequest,
  type Resolver,
} from '../../net/guarded-fetch.js';
import { allowAll, parseRobots, type RobotsRules } from './robots.js';

export const PAGE_TYPES = ['text/html', 'application/xhtml+xml'] as const;
export const SITEMAP_TYPES = ['application/xml', 'text/xml'] as const;
/** Servers often send a sitemap as one of these: accepted for a URL ending in `.xml`. */
export const LOOSE_XML_TYPES = ['text/plain', 'application/octet-stream'] as const;
/** Same-host redirects followed per request. */
export const MAX_REDIRECTS = 3;
/** One request's time at most (less when the import has less left). */
export const FETCH_TIMEOUT_MS = 15_000;
/** RFC 9309 asks crawlers to read at least 500 KiB of a robots.txt. */
export const ROBOTS_MAX_BYTES = 512 * 1024;
/** A sitemap of 50,000 URLs is about 10 MB. */
export const SITEMAP_MAX_BYTES = 10 * 1024 * 1024;

export interface WebFetchOptions {
  policy: FetchPolicy;
  userAgent: string;
  resolver?: Resolver | undefined;
  connector?: Connector | undefined;
}

/** The import's time ran out before this request. */
export class ImportTimeUp extends Error {
  constructor(readonly limitMs: number) {
    super(`the import's time limit (${Math.round(limitMs / 1000)} s) was reached first`);
    this.name = 'ImportTimeUp';
  }
}

export class WebFetcher {
  private readonly robots = new Map<string, Promise<RobotsRules>>();

  constructor(
    private readonly options: WebFetchOptions,
    /** Epoch milliseconds at which the import stops starting requests. */
    private readonly deadline: number,
    private readonly limitMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  private timeout(): number {
    const left = this.deadline - this.now();
    if (left <= 0) throw new ImportTimeUp(this.limitMs);
    return Math.min(FETCH_TIMEOUT_MS, left);
  }

  /** GET that must answer 200 with one of `accept` within `maxBytes`; throws GuardedFetchError or ImportTimeUp. */
  get(url: URL, accept: readonly string[], maxBytes: number, label: string): Promise<GuardedResponse> {
    return guardedGet(url, {
      policy: this.options.policy,
      accept,
      resolver: this.options.resolver,
      connector: this.options.connector,
      timeoutMs: this.timeout(),
      maxBytes,
      userAgent: this.options.userAgent,
      label,
      maxRedirects: MAX_REDIRECTS,
    });
  }

  /** The robots.txt rules of `url`'s origin, fetched once per import. */
  robotsFor(url: URL): Promise<RobotsRules> {
    const origin = url.origin;
    let rules = this.robots.get(origin);
    if (!rules) {
      rules = this.loadRobots(new URL('/robots.txt', origin));
      this.robots.set(origin, rules);
    }
    return rules;
  }

  private async loadRobots(url: URL): Promise<RobotsRules> {
    try {
      const response = await guardedRequest(url, {
        policy: this.options.policy,
        accept: ['text/plain'],
        resolver: this.options.resolver,
        connector: this.options.connector,
        timeoutMs: this.timeout(),
        maxBytes: ROBOTS_MAX_BYTES,
        userAgent: this.options.userAgent,
        label: 'robots.txt',
        maxRedirects: MAX_REDIRECTS,
      });
      if (response.status === 200) return parseRobots(response.body.toString('utf8'));
      if (response.status >= 500) return { rules: [], disallowAll: `robots.txt answered ${response.status}, so the site is treated as disallowed` };
      // 4xx: there are no rules (RFC 9309 §2.3.1.3).
      return allowAll;
    } catch (error) {
      if (error instanceof ImportTimeUp) throw error;
      const cause = error instanceof GuardedFetchError ? error.message : 'unexpected failure';
      return { rules: [], disallowAll: `robots.txt could not be fetched (${cause}), so the site is treated as disallowed` };
    }
  }
}
