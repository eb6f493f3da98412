/**
 * Client ID Metadata Documents fetched and cached (rules: client-id-document.ts). The document is
 * fetched through the SSRF guard (net/guarded-fetch.ts: public addresses only, loopback and plain
 * http only under the development policy, no redirects), `application/json` only, at most 5 KiB
 * and 3 seconds. A valid one is kept in this process for its `Cache-Control: max-age` (at most a
 * day; 5 minutes when the header gives none; not kept under `no-store`, `no-cache` or
 * `max-age=0`), in a bounded least-recently-used cache; parallel requests for one URL share one
 * fetch. Each fetched client is stored (OAuthStore.saveDocumentClient) so its codes and grants
 * reference a client row. Failures are not cached.
 */
import { type Connector, type FetchPolicy, GuardedFetchError, guardedGet, type Resolver } from '../../net/guarded-fetch.js';
import type { OAuthStore } from '../../ports/storage.js';
import { clientIdUrlProblem, validateClientIdDocument } from './client-id-document.js';
import { OAuthError } from './errors.js';
import type { OAuthClient } from './model.js';

export interface ClientIdDocumentOptions {
  policy: FetchPolicy;
  resolver?: Resolver | undefined;
  connector?: Connector | undefined;
  /** Default 3000. */
  timeoutMs?: number;
  /** Default 5120. */
  maxBytes?: number;
  /** Documents kept at most; default 500. */
  maxEntries?: number;
  userAgent?: string;
  /** Custom redirect-URI schemes allowed (OAUTH_REDIRECT_SCHEMES), as for dynamic registration. */
  redirectSchemes?: readonly string[];
  now?: () => number;
}

export const defaultDocumentLifetimeMs = 5 * 60_000;
export const maxDocumentLifetimeMs = 24 * 3600_000;

/** How long a document may be kept, from its Cache-Control header(s): 0 means not at all. */
export function documentLifetimeMs(cacheControl: string | undefined): number {
  if (cacheControl === undefined) return defaultDocumentLifetimeMs;
  const directives = cacheControl.split(',').map((d) => d.trim().toLowerCase());
  if (directives.some((d) => d === 'no-store' || d === 'no-cache' || d.startsWith('no-cache='))) return 0;
  const maxAge = directives.map((d) => /^max-age=("?)(\d+)\1$/.exec(d)?.[2]).find((v) => v !== undefined);
  if (maxAge === undefined) return defaultDocumentLifetimeMs;
  return Math.min(Number(maxAge) * 1000, maxDocumentLifetimeMs);
}

const unusable = (description: string) => new OAuthError('invalid_client', `The client metadata document could not be used: ${description}`, 401);

export class ClientIdDocuments {
  private readonly cache = new Map<string, { client: OAuthClient; expiresAt: number }>();
  private readonly pending = new Map<string, Promise<OAuthClient>>();
  private readonly now: () => number;

  constructor(
    private readonly store: Pick<OAuthStore, 'saveDocumentClient'>,
    private readonly options: ClientIdDocumentOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** The client a URL client_id names; OAuthError invalid_request (bad URL) or invalid_client (bad or missing document). */
  async client(clientId: string): Promise<OAuthClient> {
    const problem = clientIdUrlProblem(clientId, this.options.policy.allowLoopback);
    if (problem) throw new OAuthError('invalid_request', `A URL client_id names a client metadata document, and this one ${problem}.`);
    const hit = this.cache.get(clientId);
    if (hit) {
      this.cache.delete(clientId);
      if (hit.expiresAt > this.now()) {
        this.cache.set(clientId, hit); // most recently used last
        return hit.client;
      }
    }
    let pending = this.pending.get(clientId);
    if (!pending) {
      pending = this.fetch(clientId).finally(() => this.pending.delete(clientId));
      this.pending.set(clientId, pending);
    }
    return pending;
  }

  private async fetch(clientId: string): Promise<OAuthClient> {
    let response;
    try {
      response = await guardedGet(clientId, {
        policy: this.options.policy,
        accept: ['application/json'],
        resolver: this.options.resolver,
        connector: this.options.connector,
        timeoutMs: this.options.timeoutMs ?? 3000,
        maxBytes: this.options.maxBytes ?? 5120,
        label: 'client metadata document',
        ...(this.options.userAgent ? { userAgent: this.options.userAgent } : {}),
      });
    } catch (error) {
      if (error instanceof GuardedFetchError) throw unusable(`${error.message}.`);
      throw error;
    }
    let document: unknown;
    try {
      document = JSON.parse(response.body.toString('utf8'));
    } catch {
      throw unusable('it is not valid JSON.');
    }
    const metadata = validateClientIdDocument(clientId, document, this.options.redirectSchemes);
    const fetchedAt = this.now();
    const client: OAuthClient = { clientId, secretHash: null, accountId: null, kind: 'cimd', metadata, createdAt: new Date(fetchedAt).toISOString() };
    await this.store.saveDocumentClient(client);
    const cacheControl = response.headers.filter(([name]) => name.toLowerCase() === 'cache-control').map(([, value]) => value);
    const lifetime = documentLifetimeMs(cacheControl.length > 0 ? cacheControl.join(', ') : undefined);
    if (lifetime > 0) this.remember(clientId, client, fetchedAt + lifetime);
    return client;
  }

  private remember(clientId: string, client: OAuthClient, expiresAt: number): void {
    this.cache.delete(clientId);
    this.cache.set(clientId, { client, expiresAt });
    const max = this.options.maxEntries ?? 500;
    for (const oldest of this.cache.keys()) {
      if (this.cache.size <= max) break;
      this.cache.delete(oldest);
    }
  }
}
