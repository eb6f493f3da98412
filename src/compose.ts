/**
 * Builds the adapters and services from the configuration: SQLite or
 * PostgreSQL, in-process or Redis-backed limiter and cache, SMTP or the
 * development outbox, the extractive or LLM answerer. main.ts starts them.
 */
import path from 'node:path';
import type { Logger } from 'pino';
import type { AnswerCache } from './ports/answer-cache.js';
import { MemoryAnswerCache } from './adapters/cache/memory.js';
import type { RateLimiter } from './ports/rate-limiter.js';
import { MemoryRateLimiter } from './adapters/limits/memory.js';
import { ChatCompletionsClient } from './adapters/llm/chat-completions.js';
import type { Mailer } from './ports/mailer.js';
import { OutboxMailer } from './adapters/mail/outbox-mailer.js';
import { MemoryReplayStore } from './adapters/replay/memory.js';
import type { ReplayStore } from './ports/replay.js';
import type { RedisParts } from './compose-redis.js';
import type { Store } from './ports/storage.js';
import { SqliteStore } from './adapters/storage/sqlite/dialect.js';
import type { Config } from './config.js';
import type { AppDeps } from './http/app.js';
import type { ReadinessCheck } from './http/routes/health.js';
import { loadSkills } from './agents/skills/index.js';
import { AnonymousAccountLimit } from './identity/oauth/anonymous-account-limit.js';
import { createOAuth } from './identity/oauth/oauth.js';
import { SignInService } from './identity/sign-in-service.js';
import { WebBotAuth } from './identity/web-bot-auth/index.js';
import { LlmAnswerer } from './knowledge/answering/llm-answerer.js';
import { ApiKeyService } from './knowledge/keys/api-key-service.js';
import { KnowledgeService } from './knowledge/knowledge-service.js';
import { ROBOTS_PRODUCT_TOKEN } from './knowledge/web-import/robots.js';
import { WebImportService } from './knowledge/web-import/web-import-service.js';
import type { Answerer } from './knowledge/query/answerer.js';
import { ExtractiveAnswerer } from './knowledge/query/extractive-answerer.js';
import { IndexRegistry } from './knowledge/query/index-registry.js';
import { QueryService } from './knowledge/query/query-service.js';
import { KnowledgeBaseCopies } from './knowledge/query/knowledge-base-copies.js';
import { stampedKeyStore, stampedKnowledgeStore } from './knowledge/query/stamped-stores.js';
import { UsageRecorder } from './knowledge/query/usage-recorder.js';
import { FeedbackService } from './knowledge/query/answer-feedback.js';
import { UsageReports } from './knowledge/query/usage-reports.js';
import type { Retriever } from './knowledge/retrieval/port.js';
import { Metrics } from './ops/metrics.js';
import { loadSecretKey, Sealer } from './secrets.js';

export interface Composition {
  deps: AppDeps;
  store: Store;
  /** Closes everything in reverse order of need: usage flush, mail, limiter, cache, Redis, database. */
  close(): Promise<void>;
}

/** The store the configuration names. PostgreSQL's driver is loaded only when DATABASE_URL is set. */
export async function openStore(config: Config): Promise<Store> {
  if (!config.databaseUrl) return new SqliteStore(path.join(config.dataDir, 'groundwork.db'));
  const { PostgresStore } = await import('./adapters/storage/postgres/dialect.js');
  return new PostgresStore({ connectionString: config.databaseUrl });
}

/**
 * RETRIEVAL_BACKEND: the in-memory BM25F index (default, the reference ranking) or PostgreSQL
 * full-text search on the records table (needs DATABASE_URL; its stored documents and GIN index
 * come from storage migration 20, which `compose` runs first; `start` checks that they are there).
 */
async function openRetriever(config: Config, store: Store): Promise<Retriever> {
  if (config.retrievalBackend !== 'postgres' || !config.databaseUrl) return new IndexRegistry(store.knowledge, { maxBytes: config.indexCacheBytes });
  const { PostgresFtsRetriever } = await import('./adapters/retrieval/postgres-fts.js');
  const retriever = new PostgresFtsRetriever({ connectionString: config.databaseUrl });
  await retriever.start().catch(async (error: unknown) => {
    await retriever.close();
    throw error;
  });
  return retriever;
}

export interface ComposeOptions {
  /**
   * An open store to use instead of opening one from the configuration (a second composition on
   * the same data in one process, e.g. the benchmark's); it stays open when this composition closes.
   */
  store?: Store;
}

export async function compose(config: Config, logger: Logger, options: ComposeOptions = {}): Promise<Composition> {
  // Private signing keys are encrypted at rest with a key derived from SECRET_KEY (src/secrets.ts).
  const secretKey = loadSecretKey(config, (message) => logger.warn(message));
  const sealer = new Sealer(secretKey);
  const ownStore = options.store === undefined;
  const store = options.store ?? (await openStore(config));
  if (ownStore) await store.migrate();
  // Publishable (widget) query keys are kept sealed with the same secret (docs/widget-keys.md).
  store.keys.encryptAtRest(sealer);
  // A SECRET_KEY that does not open the stored keys stops start-up here (no new key is made).
  await store.signingKeys.encryptAtRest(sealer).catch(async (error: unknown) => {
    if (ownStore) await store.close();
    throw error;
  });
  const retriever = await openRetriever(config, store).catch(async (error: unknown) => {
    if (ownStore) await store.close();
    throw error;
  });

  // With Redis, the in-process limiter that takes over during an outage, mirroring the shared decisions.
  const shadowLimiter = new MemoryRateLimiter();
  // Redis's client and adapters are loaded only when REDIS_URL is set (compose-redis.ts).
  const shared: RedisParts | undefined = config.redisUrl ? (await import('./compose-redis.js')).openRedisParts(config.redisUrl, logger, shadowLimiter) : undefined;
  const limiter: RateLimiter = shared?.limiter ?? new MemoryRateLimiter();
  const cache: AnswerCache = shared?.cache ?? new MemoryAnswerCache();
  // Web Bot Auth nonces: refused on this instance always, across instances through Redis.
  const replay: ReplayStore = shared?.replay ?? new MemoryReplayStore();
  const webBotAuth = new WebBotAuth({ publicUrl: config.publicUrl, devMode: config.devMode, signingKeys: store.signingKeys, replay, log: logger });

  // With Redis, queries use this instance's copies of knowledge-base rows, confirmed together with the
  // limits and the cached answer in one round trip; every write through the stores below stamps the
  // knowledge base changed for every instance (ports/admission.ts, docs/performance.md).
  const admission = shared?.admission;
  const copies = admission ? new KnowledgeBaseCopies(admission, { inProcessLimiter: shadowLimiter }) : undefined;
  const knowledgeStore = copies ? stampedKnowledgeStore(store.knowledge, (ragId) => copies.changed(ragId)) : store.knowledge;
  const keyStore = copies ? stampedKeyStore(store.keys, (ragId) => copies.changed(ragId)) : store.keys;

  const outbox = config.smtpUrl ? undefined : new OutboxMailer(logger, config.devMode);
  const mailer: Mailer = config.smtpUrl
    ? new (await import('./adapters/mail/smtp-mailer.js')).SmtpMailer(config.smtpUrl, config.mailFrom)
    : (outbox as OutboxMailer);
  if (!config.smtpUrl && !config.devMode) logger.warn('SMTP_URL is not set: sign-in codes cannot be delivered');

  const metrics = new Metrics();
  const knowledge = new KnowledgeService(knowledgeStore, config);
  // Import from a URL: fetches through the SSRF guard, loopback and plain http only in development.
  const webImport = new WebImportService(knowledge, {
    ...config.webImport,
    limiter,
    policy: { allowLoopback: config.devMode },
    userAgent: `${ROBOTS_PRODUCT_TOKEN}/1.0 (Groundwork knowledge import; +${config.publicUrl})`,
  });
  const keys = new ApiKeyService(keyStore);
  knowledge.onContentChange(async (ragId) => {
    // Bring this instance's index forward by the change now; other instances notice the new content
    // version on their next query and apply the same change (index-registry.ts).
    const kb = await store.knowledge.findKnowledgeBase(ragId);
    await retriever.invalidate(ragId, kb?.contentVersion);
  });
  const answerer: Answerer = config.llm
    ? new LlmAnswerer(new ChatCompletionsClient(config.llm), config.llm.model, {
        firstTokenTimeoutMs: config.llm.timeoutSeconds * 1000,
        totalTimeoutMs: config.llm.timeoutSeconds * 4000,
        onFailure: (err) => logger.warn({ err: { message: (err as Error).message } }, 'LLM failed; extractive answer used'),
      })
    : new ExtractiveAnswerer();
  const usageRecorder = new UsageRecorder(store.usage, (err) => logger.warn({ err }, 'usage flush failed'));
  const queries = new QueryService(knowledgeStore, keys, retriever, answerer, cache, limiter, usageRecorder, config, Date.now, copies);
  const signIn = new SignInService(store.accounts, mailer, config.publicUrl);
  const oauth = await createOAuth({
    store,
    mailer,
    publicUrl: config.publicUrl,
    trustedIssuers: config.trustedIdJagIssuers,
    idJagMaxLifetimeSeconds: config.idJagMaxLifetimeSeconds,
    anonymousLimit: new AnonymousAccountLimit(limiter, config.anonymousRegistrations),
    secretKey,
    refreshReuseGraceSeconds: config.refreshReuseGraceSeconds,
    accessTokenSeconds: config.accessTokenSeconds,
    redirectSchemes: config.oauthRedirectSchemes,
    // Client ID Metadata Documents: through the SSRF guard, loopback and plain http only in development.
    clientIdDocuments: { policy: { allowLoopback: config.devMode }, userAgent: `Groundwork/1.0 (OAuth client metadata; +${config.publicUrl})` },
  });
  // Expired codes, claims, refresh tokens and ID-JAG jti records.
  const oauthHousekeeping = setInterval(() => {
    store.oauth.purgeExpired(new Date().toISOString()).catch((err) => logger.warn({ err }, 'oauth housekeeping failed'));
  }, 3600_000);
  oauthHousekeeping.unref();

  const readiness: ReadinessCheck[] = [{ name: 'database', check: () => store.ping() }];
  const redisBreaker = shared?.breaker;
  if (redisBreaker) {
    // Without Redis the instance still serves (limits and caches fall back to the process), so an
    // outage is reported as degraded without taking the instance out of rotation. The breaker's
    // state answers at once: a probe never waits on a Redis that is down.
    readiness.push({
      name: 'redis',
      optional: true,
      check: async () => {
        const status = redisBreaker.status();
        if (status.state !== 'closed') throw new Error(`redis ${status.state}`);
      },
    });
  }

  const deps: AppDeps = {
    config,
    knowledge,
    webImport,
    keys,
    queries,
    keyStore,
    usageReports: new UsageReports({
      store: store.usage,
      flush: () => usageRecorder.flush(),
      unknownWords: (ragId, questions) => queries.unknownWords(ragId, questions),
      answeredNow: (ragId, questions) => queries.answeredNow(ragId, questions),
      limits: config,
      onUnknownWordsFailed: (err) => logger.warn({ err }, 'the words no record uses could not be found'),
    }),
    feedback: new FeedbackService({ queries, usage: usageRecorder, limiter, limits: config }),
    flushUsage: () => usageRecorder.flush(),
    limiter,
    signIn,
    oauth: { server: oauth, skills: loadSkills() },
    metrics,
    outbox,
    webBotAuth,
    logger,
    readiness,
    cache,
  };
  return {
    deps,
    store,
    async close() {
      clearInterval(oauthHousekeeping);
      await usageRecorder.close();
      await mailer.close();
      await limiter.close();
      await replay.close();
      await cache.close();
      await admission?.close();
      await knowledge.close();
      await retriever.close();
      await shared?.quit();
      if (ownStore) await store.close();
    },
  };
}
