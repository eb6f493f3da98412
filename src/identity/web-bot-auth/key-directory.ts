/**
 * Bots' public keys, fetched from the URL their `Signature-Agent` names and
 * cached: a good directory for 10 minutes, a failure for 1 minute; an unknown
 * keyid refetches a directory older than a minute (key rotation). Concurrent
 * requests share one fetch.
 *
 * Fetch budgets (issue 11 item 8) are per origin and per client, not one
 * global cap that junk could exhaust for everyone: at most
 * `maxFetchesPerOriginPerMinute` fetches to one origin (so nobody can aim us
 * at a site, and a junk origin only spends its own budget), at most
 * `maxFetchesPerClientPerMinute` fetches caused by one client address (so one
 * sender cannot make us crawl many origins), and at most `maxConcurrentFetches`
 * in flight. A fetch refused by a budget is not cached: the next request may
 * fetch once the budget allows.
 *
 * Every failure reaches the client as the same `directory_unavailable` with
 * the same text (`DIRECTORY_UNAVAILABLE`): the URL is the requester's, so
 * naming the cause would answer DNS and port-scan questions for them. The
 * cause is logged at debug level, with the URL's credentials and query left out.
 */
import { LRUCache } from 'lru-cache';
import type { JWK } from 'jose';
import { BotAuthError, DIRECTORY_UNAVAILABLE, DirectoryFetchError } from './errors.js';
import { DIRECTORY_MEDIA_TYPE, type DirectoryKey, parseKeyDirectory, verifyDirectoryResponse } from './directory.js';
import { type FetchedResponse, GuardedFetchError } from '../../net/guarded-fetch.js';
import { type AgentEntry, discoveryUrl } from './signature-agent.js';

export interface EventLog {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** A guarded GET (see guarded-fetch.ts) accepting the given media types. */
export type DirectoryFetch = (url: URL, accept: readonly string[]) => Promise<FetchedResponse>;

export interface KeyDirectoryOptions {
  fetch: DirectoryFetch;
  log?: EventLog | undefined;
  /** Milliseconds since the epoch. */
  now?: () => number;
  positiveTtlMs?: number;
  negativeTtlMs?: number;
  refreshUnknownAfterMs?: number;
  maxEntries?: number;
  /** Fetches to one origin (scheme, host, port) per minute; default 10. */
  maxFetchesPerOriginPerMinute?: number;
  /** Fetches caused by one client address per minute; default 20. */
  maxFetchesPerClientPerMinute?: number;
  /** Fetches in flight at once; default 64. */
  maxConcurrentFetches?: number;
  /** Budgets tracked at once (origins + clients); the oldest are forgotten first. Default 10 000. */
  maxBudgets?: number;
}

interface Entry {
  at: number;
  until: number;
  keys?: DirectoryKey[];
  error?: string;
}

export const JWKS_TYPES = [DIRECTORY_MEDIA_TYPE, 'application/jwk-set+json', 'application/json'] as const;

const text = (response: FetchedResponse) => response.body.toString('utf8');

/** A URL as it may be logged: no user name, password, query or fragment (they may carry secrets), at most 200 characters. */
export function loggableUrl(raw: string | URL): string {
  try {
    const url = new URL(raw);
    if (!url.username && !url.password && !url.search && !url.hash) return String(raw).slice(0, 200);
    return `${url.protocol}//${url.host}${url.pathname}${url.search ? '?…' : ''}`.slice(0, 200);
  } catch {
    return '(not a URL)';
  }
}

export class KeyDirectory {
  /** Directory answers by `type url`, least recently used dropped past `maxEntries`; each carries its own `until`. */
  private readonly cache: LRUCache<string, Entry>;
  private readonly inflight = new Map<string, Promise<Entry>>();
  /** Fetch times in the last minute, per `origin <origin>` and per `client <address>`. */
  // Not a cache: sliding fetch logs with their own one-minute expiry and bound (see `overBudget`).
  private readonly budgets = new Map<string, number[]>();
  private fetching = 0;
  private readonly now: () => number;

  constructor(private readonly options: KeyDirectoryOptions) {
    this.now = options.now ?? Date.now;
    this.cache = new LRUCache<string, Entry>({ max: options.maxEntries ?? 1000 });
  }

  /** The agent's key with this thumbprint; undefined when the directory does not hold it. */
  /** `client`: the address of the request that needs the key, for the per-client fetch budget. */
  async findKey(agent: AgentEntry, keyid: string, client?: string): Promise<JWK | undefined> {
    const url = discoveryUrl(agent);
    let entry = await this.entry(url, agent, false, client);
    if (entry.keys && !entry.keys.some((k) => k.keyid === keyid) && this.now() - entry.at > (this.options.refreshUnknownAfterMs ?? 60_000)) {
      entry = await this.entry(url, agent, true, client);
    }
    // Whatever went wrong (DNS, address, connection, HTTP, format, budget), the client is told the same thing.
    if (entry.error !== undefined) throw new BotAuthError('directory_unavailable', DIRECTORY_UNAVAILABLE);
    return entry.keys?.find((k) => k.keyid === keyid)?.jwk;
  }

  /** Why a new fetch may not start now, or undefined (and the fetch is counted). */
  private overBudget(url: URL, client: string | undefined, now: number): string | undefined {
    if (this.fetching >= (this.options.maxConcurrentFetches ?? 64)) return 'too many key directory fetches in progress; try again shortly';
    const recent = (key: string) => {
      const times = (this.budgets.get(key) ?? []).filter((t) => t > now - 60_000);
      this.budgets.set(key, times);
      return times;
    };
    const origin = recent(`origin ${url.origin}`);
    if (origin.length >= (this.options.maxFetchesPerOriginPerMinute ?? 10)) return "too many fetches of this agent's key directory; try again shortly";
    const byClient = client === undefined ? undefined : recent(`client ${client}`);
    if (byClient && byClient.length >= (this.options.maxFetchesPerClientPerMinute ?? 20))
      return 'too many key directory fetches for this client; try again shortly';
    origin.push(now);
    byClient?.push(now);
    this.forgetOldBudgets(`origin ${url.origin}`, client === undefined ? undefined : `client ${client}`);
    return undefined;
  }

  /** Keeps the budget map bounded: the two just used move to the young end, the oldest go first. */
  private forgetOldBudgets(...used: (string | undefined)[]): void {
    for (const key of used) {
      if (key === undefined) continue;
      const times = this.budgets.get(key);
      this.budgets.delete(key);
      if (times) this.budgets.set(key, times);
    }
    for (const oldest of this.budgets.keys()) {
      if (this.budgets.size <= (this.options.maxBudgets ?? 10_000)) break;
      this.budgets.delete(oldest);
    }
  }

  private entry(url: URL, agent: AgentEntry, refresh: boolean, client?: string): Promise<Entry> {
    const key = `${agent.type} ${url.href}`;
    const now = this.now();
    const cached = this.cache.get(key);
    if (cached && !refresh && cached.until > now) return Promise.resolve(cached);
    const pending = this.inflight.get(key);
    if (pending) return pending;
    const refused = this.overBudget(url, client, now);
    if (refused !== undefined) {
      this.options.log?.info({ agent: loggableUrl(agent.uri), url: loggableUrl(url), error: refused }, 'bot key directory not fetched');
      return Promise.resolve(cached ?? { at: now, until: now, error: refused });
    }
    this.fetching++;
    const loading = this.load(url, agent).finally(() => this.fetching--).then(
      (keys): Entry => ({ at: now, until: now + (this.options.positiveTtlMs ?? 600_000), keys }),
      (err: unknown): Entry => {
        if (!(err instanceof GuardedFetchError)) this.options.log?.warn({ err: { message: (err as Error).message } }, 'bot key directory failed unexpectedly');
        const error = err instanceof GuardedFetchError ? err.message : 'unexpected failure';
        // Debug only: the cause answers questions about our network (see the top of this file).
        const code = err instanceof GuardedFetchError ? err.code : undefined;
        this.options.log?.debug({ agent: loggableUrl(agent.uri), url: loggableUrl(url), error, ...(code ? { code } : {}) }, 'bot key directory refused');
        return { at: now, until: now + (this.options.negativeTtlMs ?? 60_000), error };
      },
    );
    const stored = loading.then((entry) => {
      this.inflight.delete(key);
      this.cache.set(key, entry);
      return entry;
    });
    this.inflight.set(key, stored);
    return stored;
  }

  private async load(url: URL, agent: AgentEntry): Promise<DirectoryKey[]> {
    let jwksUrl = url;
    let keys: DirectoryKey[] | undefined;
    if (agent.type === 'cimd') {
      // Client ID Metadata Document: keys inline (`jwks`) or behind `jwks_uri`.
      let doc: { jwks?: unknown; jwks_uri?: unknown };
      try {
        doc = JSON.parse(text(await this.options.fetch(url, ['application/json'])));
      } catch (err) {
        if (err instanceof GuardedFetchError) throw err;
        throw new DirectoryFetchError('the client metadata document is not JSON');
      }
      if (doc.jwks !== undefined) keys = await parseKeyDirectory(JSON.stringify(doc.jwks));
      else if (typeof doc.jwks_uri === 'string') jwksUrl = new URL(doc.jwks_uri);
      else throw new DirectoryFetchError('the client metadata document has neither "jwks" nor "jwks_uri"');
    }
    if (!keys) {
      const response = await this.options.fetch(jwksUrl, JWKS_TYPES);
      keys = await parseKeyDirectory(text(response));
      if (agent.type === 'directory') await this.checkBinding(agent, jwksUrl, response, keys);
    }
    if (keys.length === 0) throw new DirectoryFetchError('the key directory holds no usable Ed25519 or RSA key');
    return keys;
  }

  /** The directory's own response signatures are RECOMMENDED, not required: verified, and the result logged. */
  private async checkBinding(agent: AgentEntry, url: URL, response: FetchedResponse, keys: DirectoryKey[]): Promise<void> {
    const result = await verifyDirectoryResponse({ targetUri: url.href, headers: response.headers, body: text(response) }, keys, Math.floor(this.now() / 1000));
    const fields = { agent: loggableUrl(agent.uri), url: loggableUrl(url), verifiedKeys: result.verified, failures: result.failures };
    if (!result.signed) this.options.log?.info(fields, 'bot key directory fetched (unsigned)');
    else if (result.failures.length > 0) this.options.log?.warn(fields, 'bot key directory signature did not verify');
    else this.options.log?.info(fields, 'bot key directory fetched, signature verified');
  }
}
