/**
 * Every setting of the service, read once at start-up from the environment
 * (product.md §2). Each variable is declared once, in `settings` below: how its
 * value is parsed and checked, its default, and the line that documents it.
 * A bad value stops start-up with one message naming the variable.
 *
 * The README's configuration table is generated from `settings`
 * (`npm run docs:config`, scripts/config-table.ts) and test/config/schema.test.ts
 * fails when it is out of date or when src/ reads a variable not declared here.
 * Values derived from several settings (development mode, secure cookies, the
 * LLM block, checks across settings) are plain code in `loadConfig`.
 */
import path from 'node:path';
import { defaultAccessTokenLifetimeSeconds } from './identity/oauth/access-tokens.js';
import { defaultRedirectSchemes, parseRedirectSchemes } from './identity/oauth/client-metadata.js';
import { defaultRefreshReuseGraceSeconds } from './identity/oauth/token-service.js';
import { parseTrustedIssuers, type TrustedIssuer } from './identity/oauth/trusted-issuers.js';
import { minSecretKeyLength } from './secrets.js';
import { code, custom, integer, Invalid, json, oneOf, type ParseContext, seconds, secret, type Setting, text, url } from './config-settings.js';

export type { ParseContext, Setting } from './config-settings.js';

export interface Config {
  port: number;
  host: string;
  /** Origin without trailing slash; also the OAuth issuer. */
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  llm: { baseUrl: string; apiKey: string | undefined; model: string; timeoutSeconds: number } | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  maxKnowledgeBases: number;
  maxRecordsPerKb: number;
  queryRatePerMinute: number;
  queryQuotaPerDay: number;
  /** PLAYGROUND_QUERIES_PER_MINUTE / _PER_DAY: the owner's Playground questions per account, apart from the visitors' limits; 0 = no limit. */
  playgroundQueriesPerMinute: number;
  playgroundQueriesPerDay: number;
  ipRatePerSecond: number;
  /** IP_MAX_CONNECTIONS: open connections one client address may hold at once; 0 = no cap. */
  ipMaxConnections: number;
  /** ANON_REGISTRATIONS_PER_MINUTE / _PER_HOUR: anonymous agent accounts one client address may create (sliding windows); 0 = no limit. */
  anonymousRegistrations: { perMinute: number; perHour: number };
  /** Server timeouts in milliseconds (HTTP_*_TIMEOUT_SECONDS); see docs/decisions.md, "Connections and timeouts". */
  httpTimeouts: { headersMs: number; requestMs: number; keepAliveMs: number };
  /** METRICS_TOKEN: when set, `/metrics` answers only `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  uploadMaxBytes: number;
  /** UPLOAD_QUEUE_PER_ACCOUNT: uploads one account may have waiting for an ingestion thread (then 429). */
  uploadQueuePerAccount: number;
  /** IMPORT_*: caps of one import from a URL (pages, bytes per page, whole time in ms, pages at once); see docs/ingestion.md. */
  webImport: { maxPages: number; maxPageBytes: number; timeLimitMs: number; concurrency: number; perHour: number };
  /** TOOL_TIME_LIMIT_MS: caps every utility's own time limit on the server; undefined = the tools' own limits. */
  toolTimeLimitMs: number | undefined;
  queryCacheTtlSeconds: number;
  /** Seconds between `: ping` comments on idle answer streams. */
  sseHeartbeatSeconds: number;
  /** TRUSTED_ID_JAG_ISSUERS: JSON array of {issuer, jwks_uri | jwks} (see identity/oauth/trusted-issuers.ts). */
  trustedIdJagIssuers: TrustedIssuer[];
  /** ID_JAG_MAX_LIFETIME_SECONDS: longest `exp − iat` accepted in an ID-JAG (see identity/oauth/id-jag.ts). */
  idJagMaxLifetimeSeconds: number;
  /** REFRESH_REUSE_GRACE_SECONDS: how long a rotated refresh token still yields the same successor (docs/agents.md). */
  refreshReuseGraceSeconds: number;
  /** OAUTH_ACCESS_TOKEN_SECONDS: lifetime of an OAuth access token. */
  accessTokenSeconds: number;
  /** OAUTH_REDIRECT_SCHEMES: custom schemes accepted in redirect URIs (identity/oauth/client-metadata.ts). */
  oauthRedirectSchemes: string[];
  /** SECRET_KEY: encrypts the signing keys at rest (src/secrets.ts); unset → generated in DATA_DIR, refused with NODE_ENV=production. */
  secretKey: string | undefined;
  /** Fastify `trustProxy` value: false, true, a hop count, or a list of addresses/CIDRs. */
  trustProxy: boolean | number | string[];
  nodeEnv: string | undefined;
  logLevel: string;
  /** Development conveniences (mail outbox, relaxed cookie Secure, …): loopback origin or NODE_ENV=development, never production. */
  devMode: boolean;
  /** Cookies get `Secure` when the public origin is https. */
  secureCookies: boolean;
  /** RETRIEVAL_BACKEND: the in-memory BM25F index, or PostgreSQL full-text search (only with DATABASE_URL). */
  retrievalBackend: 'memory' | 'postgres';
  /** INDEX_CACHE_MB: approximate heap the in-memory indexes may hold together, in bytes. */
  indexCacheBytes: number;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`Invalid configuration: ${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

// ---------------------------------------------------------------------------
// Parsers of their own.
// ---------------------------------------------------------------------------

function parsePublicUrl(raw: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new Invalid(`must be an absolute URL such as https://groundwork.example, got "${raw}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Invalid('must use http or https');
  if (raw.endsWith('/') || parsed.pathname !== '/' || parsed.search || parsed.hash) {
    throw new Invalid('must be an origin with no path and no trailing slash');
  }
  return parsed;
}

function parseTrustProxy(raw: string): Config['trustProxy'] {
  if (raw === 'off' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const list = raw.split(',').map((s) => s.trim()).filter(Boolean);
  for (const entry of list) {
    if (!/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(entry) && !['loopback', 'linklocal', 'uniquelocal'].includes(entry)) {
      throw new Invalid(`must be off, true, a hop count, or a comma-separated list of addresses/CIDRs (bad entry "${entry}")`);
    }
  }
  return list;
}

// ---------------------------------------------------------------------------
// The schema: every variable, in the README's order.
// ---------------------------------------------------------------------------

export const settings = {
  PORT: integer({ fallback: 3000, min: 0, max: 65535, meaning: 'port to listen on' }),
  HOST: text({ fallback: '127.0.0.1', accepts: 'an address or host name', meaning: 'address to listen on (`0.0.0.0`: every interface)' }),
  PUBLIC_URL: custom<URL>({
    fallback: parsePublicUrl('http://localhost:3000'),
    parse: parsePublicUrl,
    defaultText: code('http://localhost:3000'),
    accepts: '`http` or `https` origin: no path, no trailing slash',
    meaning: 'the public origin (no trailing slash); also the OAuth issuer',
  }),
  DATA_DIR: text({
    fallback: './data',
    accepts: 'a directory (relative to the working directory)',
    meaning:
      'embedded database (and the generated `secret-key` when `SECRET_KEY` is unset); one Groundwork process at a time: a second one on the same directory stops at start with an error',
  }),
  DATABASE_URL: url({
    protocols: ['postgres:', 'postgresql:'],
    sensitive: true,
    defaultText: 'unset → SQLite in `DATA_DIR`',
    meaning: '`postgres://…` → PostgreSQL (run several instances)',
  }),
  REDIS_URL: url({
    protocols: ['redis:', 'rediss:'],
    sensitive: true,
    defaultText: 'unset → in-process limiters and cache',
    meaning: '`redis://…` → limits and answer cache shared by all instances',
  }),
  LLM_BASE_URL: url({
    protocols: ['http:', 'https:'],
    defaultText: 'unset → built-in extractive answerer',
    meaning: 'any OpenAI-compatible chat-completions server (e.g. `http://127.0.0.1:11434/v1`)',
  }),
  LLM_API_KEY: text({
    fallback: undefined,
    accepts: 'secret text',
    sensitive: true,
    defaultText: 'unset → no `Authorization` header',
    meaning: 'sent to the `LLM_BASE_URL` server as `Authorization: Bearer <key>`',
  }),
  LLM_MODEL: text({ fallback: 'gpt-4o-mini', accepts: 'a model name', meaning: 'the model asked for at the `LLM_BASE_URL` server' }),
  LLM_TIMEOUT_SECONDS: seconds({
    fallback: 15,
    min: 1,
    max: 600,
    meaning: "wait for the model's first token before falling back to the extractive answer (whole answer: 4×)",
  }),
  SMTP_URL: url({
    protocols: ['smtp:', 'smtps:'],
    sensitive: true,
    defaultText: 'unset → log and development outbox',
    meaning: '`smtp://user:pass@host:587` for real mail',
  }),
  MAIL_FROM: custom<string | undefined>({
    fallback: undefined,
    parse(raw) {
      if (!raw.includes('@')) throw new Invalid('must be an e-mail address, optionally with a display name');
      return raw;
    },
    defaultText: '`Groundwork <no-reply@HOST>`, `HOST` from `PUBLIC_URL`',
    accepts: 'an e-mail address, optionally with a display name (`Name <a@b.example>`)',
    meaning: 'sender of the mail the service sends (sign-in codes) when `SMTP_URL` is set',
  }),
  MAX_KNOWLEDGE_BASES: integer({ fallback: 2, min: 1, meaning: 'active knowledge bases per account' }),
  MAX_RECORDS_PER_KB: integer({ fallback: 25, min: 1, meaning: 'records per knowledge base' }),
  QUERY_RATE_PER_MINUTE: integer({ fallback: 10, min: 0, meaning: 'per knowledge base, sliding 60 s window; `0` disables' }),
  QUERY_QUOTA_PER_DAY: integer({ fallback: 100, min: 0, meaning: "per knowledge base, resets 00:00 UTC; also bounds the day's visitor feedback on answers; `0` disables" }),
  PLAYGROUND_QUERIES_PER_MINUTE: integer({
    fallback: 30,
    min: 0,
    meaning: "the owner's questions in the dashboard's Playground, per account, sliding 60 s window; apart from (and not counted in) the visitors' `QUERY_*` limits; `0` disables",
  }),
  PLAYGROUND_QUERIES_PER_DAY: integer({
    fallback: 300,
    min: 0,
    meaning: "the owner's questions in the dashboard's Playground, per account, resets 00:00 UTC; `0` disables",
  }),
  IP_RATE_PER_SECOND: integer({ fallback: 30, min: 0, meaning: 'whole service, per client IP (sliding 1 s); `0` disables' }),
  IP_MAX_CONNECTIONS: integer({
    fallback: 64,
    min: 0,
    max: 100_000,
    meaning:
      'open connections one client address may hold; one more is answered `429` (`limit: "connections"`) and closed; connections from a `TRUST_PROXY` proxy are not counted; `0` disables',
  }),
  ANON_REGISTRATIONS_PER_MINUTE: integer({
    fallback: 5,
    min: 0,
    max: 100_000,
    meaning:
      'anonymous agent accounts (`POST /oauth/register` with `identity_type: "anonymous"`) one client address (IPv6 per /64) may create in a sliding minute; one more is answered `429 {"error":"slow_down"}` with `Retry-After`; `0` disables this window',
  }),
  ANON_REGISTRATIONS_PER_HOUR: integer({
    fallback: 20,
    min: 0,
    max: 1_000_000,
    meaning: 'the same, in a sliding hour; `0` disables this window',
  }),
  HTTP_HEADERS_TIMEOUT_SECONDS: seconds({
    fallback: 10,
    min: 1,
    max: 600,
    meaning: 'a client that has not sent its request line and headers by then is disconnected (408); at most `HTTP_REQUEST_TIMEOUT_SECONDS`',
  }),
  HTTP_REQUEST_TIMEOUT_SECONDS: seconds({
    fallback: 60,
    min: 1,
    max: 3600,
    meaning: 'the whole request, body included, must arrive within this; responses and answer streams are not limited by it',
  }),
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: seconds({
    fallback: 72,
    min: 1,
    max: 3600,
    meaning: "an idle keep-alive connection is closed after this (longer than a load balancer's usual 60 s)",
  }),
  METRICS_TOKEN: secret({
    minLength: 16,
    printable: true,
    refusal: 'must be at least 16 printable characters without spaces',
    defaultText: 'unset → `/metrics` is public (under the IP limit)',
    meaning: '`/metrics` answers only `Authorization: Bearer <token>`',
  }),
  UPLOAD_MAX_BYTES: integer({
    fallback: 10 * 1024 * 1024,
    min: 1,
    max: 1024 * 1024 * 1024,
    defaultText: '`10485760` (10 MiB)',
    meaning: 'per uploaded file or pasted text',
  }),
  UPLOAD_QUEUE_PER_ACCOUNT: integer({
    fallback: 4,
    min: 1,
    max: 16,
    meaning:
      'uploads one account may have waiting for an ingestion thread; one more is answered `429` (`limit: "upload_queue"`) with `Retry-After`. Accounts take turns for the threads, and an upload whose client disconnects leaves the queue (see [docs/ingestion.md](docs/ingestion.md) §11)',
  }),
  IMPORT_MAX_PAGES: integer({
    fallback: 50,
    min: 1,
    max: 1000,
    meaning:
      'pages one import from a URL fetches (`POST …/sources/import`); a sitemap listing more has the rest counted as `ignored.overLimit` (see [docs/ingestion.md](docs/ingestion.md), "Import from a web page or sitemap")',
  }),
  IMPORT_MAX_PAGE_BYTES: integer({
    fallback: 2 * 1024 * 1024,
    min: 1024,
    max: 1024 * 1024 * 1024,
    defaultText: '`2097152` (2 MiB)',
    meaning: 'bytes one imported page may have (never more than `UPLOAD_MAX_BYTES`); a larger page fails, the others go on',
  }),
  IMPORT_TIME_LIMIT_SECONDS: seconds({
    fallback: 120,
    min: 5,
    max: 3600,
    meaning: 'one import from a URL starts no request after this; pages not reached are reported as skipped',
  }),
  IMPORT_CONCURRENCY: integer({
    fallback: 2,
    min: 1,
    max: 8,
    meaning: 'pages one import fetches and reads at once',
  }),
  IMPORTS_PER_HOUR: integer({
    fallback: 20,
    min: 1,
    max: 10_000,
    meaning: 'imports from a URL one account may start per hour, counted on every instance (Redis when set); one runs at a time per account on each instance',
  }),
  TOOL_TIME_LIMIT_MS: integer({
    fallback: 0,
    min: 0,
    max: 600_000,
    unit: 'milliseconds',
    meaning: "caps the time limit of every utility run on the server (each tool has its own, 10 s by default, 60 s for OCR); `0` keeps the tools' own",
  }),
  QUERY_CACHE_TTL_SECONDS: seconds({
    fallback: 60,
    min: 0,
    meaning: 'identical questions on unchanged content are served from cache; `0` disables',
  }),
  SSE_HEARTBEAT_SECONDS: seconds({ fallback: 15, min: 1, max: 3600, meaning: '`: ping` comments on idle answer streams' }),
  TRUSTED_ID_JAG_ISSUERS: json<TrustedIssuer[]>({
    fallback: [],
    check: (raw, context) => parseTrustedIssuers(raw, context.devMode),
    defaultText: 'empty',
    accepts: 'JSON array of `{"issuer", "jwks_uri" | "jwks"}`; https URLs (http only for loopback hosts in development)',
    meaning:
      'issuers whose ID-JAGs are accepted: `[{"issuer":"https://idp.example","jwks_uri":"https://idp.example/jwks"}]` or with an inline `"jwks"` (see [docs/agents.md](docs/agents.md))',
  }),
  ID_JAG_MAX_LIFETIME_SECONDS: seconds({
    fallback: 300,
    min: 30,
    max: 3600,
    meaning:
      'longest ID-JAG accepted (`exp − iat`); a longer one, or one expiring further ahead than this plus 60 s, is `invalid_grant` (see [docs/agents.md](docs/agents.md))',
  }),
  REFRESH_REUSE_GRACE_SECONDS: seconds({
    fallback: defaultRefreshReuseGraceSeconds,
    min: 0,
    max: 300,
    meaning:
      'a rotated refresh token presented again within this time gets its successor, or the live one after it when that was exchanged too (parallel refreshes of one agent); later, it revokes the grant; `0`: no grace (see [docs/agents.md](docs/agents.md))',
  }),
  OAUTH_ACCESS_TOKEN_SECONDS: seconds({
    fallback: defaultAccessTokenLifetimeSeconds,
    min: 1,
    max: 3600,
    meaning:
      'lifetime of an OAuth access token (`expires_in`); clients refresh after it. Shorter limits what a leaked token can do; every instance must use the same value (see [docs/agents.md](docs/agents.md))',
  }),
  OAUTH_REDIRECT_SCHEMES: custom<string[]>({
    fallback: [...defaultRedirectSchemes],
    parse: (raw) => {
      try {
        return parseRedirectSchemes(raw);
      } catch (error) {
        throw new Invalid(`must be comma-separated URI scheme names or \`none\` (${(error as Error).message})`);
      }
    },
    defaultText: defaultRedirectSchemes.map(code).join(', '),
    accepts: 'comma-separated scheme names, or `none`; `javascript`, `data`, `file` and the like are refused',
    meaning:
      'custom URI schemes a client may register redirect URIs under (the IDEs\' callbacks), besides https, loopback http and reverse-domain schemes (see [docs/agents.md](docs/agents.md))',
  }),
  SECRET_KEY: secret({
    minLength: minSecretKeyLength,
    refusal: `must be at least ${minSecretKeyLength} characters (e.g. \`openssl rand -base64 32\`)`,
    defaultText: 'unset → generated in `DATA_DIR/secret-key`; **required** with `NODE_ENV=production`',
    meaning:
      'encrypts the token signing keys at rest (AES-256-GCM, key derived with HKDF); make one with `openssl rand -base64 32`. Give every instance the same one, and keep it: a different secret stops start-up rather than replacing the keys (see [docs/agents.md](docs/agents.md))',
  }),
  TRUST_PROXY: custom<Config['trustProxy']>({
    fallback: false,
    parse: parseTrustProxy,
    defaultText: 'off',
    accepts: '`off`, `false`, `true`, a hop count, or comma-separated addresses/CIDRs (also `loopback`, `linklocal`, `uniquelocal`)',
    meaning: 'proxies whose `X-Forwarded-For` is honoured: `true` (every peer), a hop count, or comma-separated proxy addresses/CIDRs',
  }),
  LOG_LEVEL: oneOf({
    values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    fallback: 'info',
    meaning: 'least severe level written to the log, `fatal` … `trace`, or `silent` for none',
  }),
  NODE_ENV: text({
    fallback: undefined,
    accepts: 'any; `production` and `development` change behaviour',
    meaning:
      '`production` turns every development convenience off (and requires `SECRET_KEY`); `development` turns them on whatever `PUBLIC_URL` is',
  }),
  RETRIEVAL_BACKEND: oneOf({
    values: ['memory', 'postgres'],
    fallback: 'memory',
    meaning:
      'how records are found for a question: `memory`, an in-process BM25F index per knowledge base; `postgres`, full-text search in the database (needs `DATABASE_URL`; no index in memory, slower and less precise, see [docs/quality.md](docs/quality.md))',
  }),
  INDEX_CACHE_MB: integer({
    // A 25-record index holds ~48 KB: 768 MiB keeps ~16,000 small knowledge bases indexed at once (at 256 MiB, 10,000
    // active ones were loaded again on most queries: 13.7x the CPU per query; docs/indexing.md).
    fallback: 768,
    min: 1,
    meaning:
      'approximate heap (MiB) the in-memory indexes (`RETRIEVAL_BACKEND=memory`) may hold together; the least recently queried are dropped past it and built again on their next query (see [docs/indexing.md](docs/indexing.md))',
  }),
};

export type SettingName = keyof typeof settings;
type Values = { [K in SettingName]: (typeof settings)[K] extends Setting<infer T> ? T : never };

/** The value of one variable: trimmed, blank as unset, refused values as a ConfigError naming it. */
function read<T>(env: Env, name: string, setting: Setting<T>, context: ParseContext): T {
  const raw = env[name]?.trim();
  if (!raw) return setting.fallback;
  try {
    return setting.parse(raw, context);
  } catch (error) {
    if (error instanceof Invalid) throw new ConfigError(name, error.message);
    throw error;
  }
}

/** PUBLIC_URL and NODE_ENV decide development mode, so their parsers may not depend on it. */
const beforeDevMode: ParseContext = {
  get devMode(): boolean {
    throw new Error('PUBLIC_URL and NODE_ENV are read before development mode is known');
  },
};

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

export function isLoopbackHost(hostname: string): boolean {
  // 127.0.0.0/8 as an IPv4 literal only: a DNS name such as 127.example.com is a public host.
  return loopbackHosts.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname) || hostname.endsWith('.localhost');
}

export function loadConfig(env: Env = process.env): Config {
  const publicUrl = read(env, 'PUBLIC_URL', settings.PUBLIC_URL, beforeDevMode);
  const nodeEnv = read(env, 'NODE_ENV', settings.NODE_ENV, beforeDevMode);
  const devMode = nodeEnv !== 'production' && (nodeEnv === 'development' || isLoopbackHost(publicUrl.hostname));

  const context: ParseContext = { devMode };
  const v = {} as Record<SettingName, unknown>;
  for (const name of Object.keys(settings) as SettingName[]) {
    v[name] = read(env, name, settings[name] as Setting<unknown>, context);
  }
  const values = v as Values;

  // Node refuses a headers timeout longer than the request timeout: the headers are part of the request.
  if (values.HTTP_HEADERS_TIMEOUT_SECONDS > values.HTTP_REQUEST_TIMEOUT_SECONDS) {
    throw new ConfigError(
      'HTTP_HEADERS_TIMEOUT_SECONDS',
      `must not exceed HTTP_REQUEST_TIMEOUT_SECONDS (${values.HTTP_REQUEST_TIMEOUT_SECONDS}), got ${values.HTTP_HEADERS_TIMEOUT_SECONDS}`,
    );
  }

  if (values.RETRIEVAL_BACKEND === 'postgres' && !values.DATABASE_URL) {
    throw new ConfigError('RETRIEVAL_BACKEND', 'postgres needs DATABASE_URL (records are searched where PostgreSQL stores them)');
  }

  return {
    port: values.PORT,
    host: values.HOST,
    publicUrl: publicUrl.origin,
    dataDir: path.resolve(values.DATA_DIR),
    databaseUrl: values.DATABASE_URL,
    redisUrl: values.REDIS_URL,
    llm: values.LLM_BASE_URL
      ? {
          baseUrl: values.LLM_BASE_URL.replace(/\/+$/, ''),
          apiKey: values.LLM_API_KEY,
          model: values.LLM_MODEL,
          timeoutSeconds: values.LLM_TIMEOUT_SECONDS,
        }
      : undefined,
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM ?? `Groundwork <no-reply@${publicUrl.hostname}>`,
    maxKnowledgeBases: values.MAX_KNOWLEDGE_BASES,
    maxRecordsPerKb: values.MAX_RECORDS_PER_KB,
    queryRatePerMinute: values.QUERY_RATE_PER_MINUTE,
    queryQuotaPerDay: values.QUERY_QUOTA_PER_DAY,
    playgroundQueriesPerMinute: values.PLAYGROUND_QUERIES_PER_MINUTE,
    playgroundQueriesPerDay: values.PLAYGROUND_QUERIES_PER_DAY,
    ipRatePerSecond: values.IP_RATE_PER_SECOND,
    ipMaxConnections: values.IP_MAX_CONNECTIONS,
    anonymousRegistrations: { perMinute: values.ANON_REGISTRATIONS_PER_MINUTE, perHour: values.ANON_REGISTRATIONS_PER_HOUR },
    httpTimeouts: {
      headersMs: values.HTTP_HEADERS_TIMEOUT_SECONDS * 1000,
      requestMs: values.HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
      keepAliveMs: values.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
    },
    metricsToken: values.METRICS_TOKEN,
    uploadMaxBytes: values.UPLOAD_MAX_BYTES,
    uploadQueuePerAccount: values.UPLOAD_QUEUE_PER_ACCOUNT,
    webImport: {
      maxPages: values.IMPORT_MAX_PAGES,
      maxPageBytes: values.IMPORT_MAX_PAGE_BYTES,
      timeLimitMs: values.IMPORT_TIME_LIMIT_SECONDS * 1000,
      concurrency: values.IMPORT_CONCURRENCY,
      perHour: values.IMPORTS_PER_HOUR,
    },
    toolTimeLimitMs: values.TOOL_TIME_LIMIT_MS || undefined,
    queryCacheTtlSeconds: values.QUERY_CACHE_TTL_SECONDS,
    sseHeartbeatSeconds: values.SSE_HEARTBEAT_SECONDS,
    // A copy: the fallback array is shared by every call.
    trustedIdJagIssuers: [...values.TRUSTED_ID_JAG_ISSUERS],
    idJagMaxLifetimeSeconds: values.ID_JAG_MAX_LIFETIME_SECONDS,
    refreshReuseGraceSeconds: values.REFRESH_REUSE_GRACE_SECONDS,
    accessTokenSeconds: values.OAUTH_ACCESS_TOKEN_SECONDS,
    oauthRedirectSchemes: [...values.OAUTH_REDIRECT_SCHEMES],
    secretKey: values.SECRET_KEY,
    trustProxy: values.TRUST_PROXY,
    nodeEnv,
    logLevel: values.LOG_LEVEL,
    devMode,
    secureCookies: publicUrl.protocol === 'https:',
    retrievalBackend: values.RETRIEVAL_BACKEND,
    indexCacheBytes: values.INDEX_CACHE_MB * 1024 * 1024,
  };
}
