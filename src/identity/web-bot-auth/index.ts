/**
 * Web Bot Auth (product.md §7, standards.md §6): recognising bots that sign
 * their requests, and publishing the service's own signed key directory.
 * compose.ts builds one `WebBotAuth`; the HTTP plugin calls `verify`.
 */
import type { ReplayStore } from '../../ports/replay.js';
import type { SigningKeyStore } from '../../ports/storage.js';
import { type Connector, type FetchPolicy, guardedGet, type Resolver } from '../../net/guarded-fetch.js';
import { type EventLog, KeyDirectory, type KeyDirectoryOptions } from './key-directory.js';
import { OwnDirectory } from './own-directory.js';
import { type SignedRequest, type VerifiedBot, verifyBotRequest } from './verify-request.js';

export { BotAuthError, type BotAuthReason } from './errors.js';
export type { SignedRequest, VerifiedBot } from './verify-request.js';
export { OwnDirectory } from './own-directory.js';

export interface WebBotAuthOptions {
  publicUrl: string;
  /** Development mode: loopback key directories (also over plain http) are allowed. */
  devMode: boolean;
  signingKeys: SigningKeyStore;
  replay: ReplayStore;
  log?: EventLog | undefined;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
  /** Overrides of the directory fetch (tests). */
  fetch?: { policy?: FetchPolicy; resolver?: Resolver; connector?: Connector; timeoutMs?: number; maxBytes?: number } | undefined;
  cache?: Pick<
    KeyDirectoryOptions,
    'positiveTtlMs' | 'negativeTtlMs' | 'maxFetchesPerOriginPerMinute' | 'maxFetchesPerClientPerMinute' | 'maxConcurrentFetches'
  >;
}

export class WebBotAuth {
  readonly keys: KeyDirectory;
  readonly directory: OwnDirectory;
  private readonly now: () => number;

  constructor(private readonly options: WebBotAuthOptions) {
    this.now = options.now ?? Date.now;
    const policy = options.fetch?.policy ?? { allowLoopback: options.devMode };
    this.keys = new KeyDirectory({
      ...options.cache,
      log: options.log,
      now: this.now,
      fetch: (url, accept) =>
        guardedGet(url, {
          policy,
          accept,
          resolver: options.fetch?.resolver,
          connector: options.fetch?.connector,
          timeoutMs: options.fetch?.timeoutMs ?? 3000,
          maxBytes: options.fetch?.maxBytes ?? 64 * 1024,
          userAgent: `Groundwork/1.0 (+${options.publicUrl})`,
          label: 'directory',
        }),
    });
    this.directory = new OwnDirectory(options.signingKeys, options.publicUrl, { now: this.now });
  }

  /** Throws `BotAuthError` for any signature that is not a valid, fresh Web Bot Auth signature. */
  verify(request: SignedRequest): Promise<VerifiedBot> {
    return verifyBotRequest(request, {
      now: Math.floor(this.now() / 1000),
      resolveKey: (agent, keyid) => this.keys.findKey(agent, keyid, request.client),
      replay: this.options.replay,
    });
  }
}
