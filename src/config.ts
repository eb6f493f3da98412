/**
 * Every setting of the service, read once at start-up from the environment
 * (product.md §2). A bad value stops start-up with one message naming the
 * variable. The README's configuration table is written from this file.
 */
import path from 'node:path';
import { parseTrustedIssuers, type TrustedIssuer } from './identity/oauth/trusted-issuers.js';

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
  ipRatePerSecond: number;
  /** IP_MAX_CONNECTIONS: open connections one client address may hold at once; 0 = no cap. */
  ipMaxConnections: number;
  /** Server timeouts in milliseconds (HTTP_*_TIMEOUT_SECONDS); see docs/decisions.md, "Connections and timeouts". */
  httpTimeouts: { headersMs: number; requestMs: number; keepAliveMs: number };
  /** METRICS_TOKEN: when set, `/metrics` answers only `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  uploadMaxBytes: number;
  /** TOOL_TIME_LIMIT_MS: caps every utility's own time limit on the server; undefined = the tools' own limits. */
  toolTimeLimitMs: number | undefined;
  queryCacheTtlSeconds: number;
  /** Seconds between `: ping` comments on idle answer streams. */
  sseHeartbeatSeconds: number;
  /** TRUSTED_ID_JAG_ISSUERS: JSON array of {issuer, jwks_uri | jwks} (see identity/oauth/trusted-issuers.ts). */
  trustedIdJagIssuers: TrustedIssuer[];
  /** Fastify `trustProxy` value: false, true, a hop count, or a list of addresses/CIDRs. */
  trustProxy: boolean | number | string[];
  nodeEnv: string | undefined;
  logLevel: string;
  /** Development conveniences (mail outbox, relaxed cookie Secure, …): loopback origin or NODE_ENV=development, never production. */
  devMode: boolean;
  /** Cookies get `Secure` when the public origin is https. */
  secureCookies: boolean;
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

function str(env: Env, name: string, fallback: string): string {
  const value = env[name];
  return value === undefined || value.trim() === '' ? fallback : value.trim();
}

function optional(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function int(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = optional(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, 'must be a URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')} (got ${parsed.protocol})`);
  }
  return raw;
}

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

export function isLoopbackHost(hostname: string): boolean {
  // 127.0.0.0/8 as an IPv4 literal only: a DNS name such as 127.example.com is a public host.
  return loopbackHosts.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname) || hostname.endsWith('.localhost');
}

function parsePublicUrl(env: Env): URL {
  const raw = str(env, 'PUBLIC_URL', 'http://localhost:3000');
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError('PUBLIC_URL', `must be an absolute URL such as https://groundwork.example, got "${raw}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError('PUBLIC_URL', 'must use http or https');
  }
  if (raw.endsWith('/') || parsed.pathname !== '/' || parsed.search || parsed.hash) {
    throw new ConfigError('PUBLIC_URL', 'must be an origin with no path and no trailing slash');
  }
  return parsed;
}

function parseTrustProxy(env: Env): Config['trustProxy'] {
  const raw = optional(env, 'TRUST_PROXY');
  if (raw === undefined || raw === 'off' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const list = raw.split(',').map((s) => s.trim()).filter(Boolean);
  for (const entry of list) {
    if (!/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(entry) && !['loopback', 'linklocal', 'uniquelocal'].includes(entry)) {
      throw new ConfigError('TRUST_PROXY', `must be off, true, a hop count, or a comma-separated list of addresses/CIDRs (bad entry "${entry}")`);
    }
  }
  return list;
}

function httpTimeouts(env: Env): Config['httpTimeouts'] {
  const headers = int(env, 'HTTP_HEADERS_TIMEOUT_SECONDS', 10, 1, 600);
  const request = int(env, 'HTTP_REQUEST_TIMEOUT_SECONDS', 60, 1, 3600);
  // Node refuses a headers timeout longer than the request timeout: the headers are part of the request.
  if (headers > request) {
    throw new ConfigError('HTTP_HEADERS_TIMEOUT_SECONDS', `must not exceed HTTP_REQUEST_TIMEOUT_SECONDS (${request}), got ${headers}`);
  }
  const keepAlive = int(env, 'HTTP_KEEP_ALIVE_TIMEOUT_SECONDS', 72, 1, 3600);
  return { headersMs: headers * 1000, requestMs: request * 1000, keepAliveMs: keepAlive * 1000 };
}

function metricsToken(env: Env): string | undefined {
  const token = optional(env, 'METRICS_TOKEN');
  if (token !== undefined && (token.length < 16 || !/^[\x21-\x7e]+$/.test(token))) {
    throw new ConfigError('METRICS_TOKEN', 'must be at least 16 printable characters without spaces');
  }
  return token;
}

function trustedIssuers(env: Env, devMode: boolean): TrustedIssuer[] {
  try {
    return parseTrustedIssuers(str(env, 'TRUSTED_ID_JAG_ISSUERS', ''), devMode);
  } catch (error) {
    throw new ConfigError('TRUSTED_ID_JAG_ISSUERS', (error as Error).message);
  }
}

export function loadConfig(env: Env = process.env): Config {
  const publicUrl = parsePublicUrl(env);
  const nodeEnv = optional(env, 'NODE_ENV');
  const production = nodeEnv === 'production';
  const devMode = !production && (nodeEnv === 'development' || isLoopbackHost(publicUrl.hostname));
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const redisUrl = url(env, 'REDIS_URL', ['redis:', 'rediss:']);
  const llmBaseUrl = url(env, 'LLM_BASE_URL', ['http:', 'https:']);
  const smtpUrl = url(env, 'SMTP_URL', ['smtp:', 'smtps:']);
  const logLevel = str(env, 'LOG_LEVEL', 'info');
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', 'must be one of fatal, error, warn, info, debug, trace, silent');
  }
  const mailFrom = str(env, 'MAIL_FROM', `Groundwork <no-reply@${publicUrl.hostname}>`);
  if (!mailFrom.includes('@')) throw new ConfigError('MAIL_FROM', 'must be an e-mail address, optionally with a display name');

  return {
    port: int(env, 'PORT', 3000, 0, 65535),
    host: str(env, 'HOST', '127.0.0.1'),
    publicUrl: publicUrl.origin,
    dataDir: path.resolve(str(env, 'DATA_DIR', './data')),
    databaseUrl,
    redisUrl,
    llm: llmBaseUrl
      ? {
          baseUrl: llmBaseUrl.replace(/\/+$/, ''),
          apiKey: optional(env, 'LLM_API_KEY'),
          model: str(env, 'LLM_MODEL', 'gpt-4o-mini'),
          timeoutSeconds: int(env, 'LLM_TIMEOUT_SECONDS', 15, 1, 600),
        }
      : undefined,
    smtpUrl,
    mailFrom,
    maxKnowledgeBases: int(env, 'MAX_KNOWLEDGE_BASES', 2, 1),
    maxRecordsPerKb: int(env, 'MAX_RECORDS_PER_KB', 25, 1),
    queryRatePerMinute: int(env, 'QUERY_RATE_PER_MINUTE', 10, 0),
    queryQuotaPerDay: int(env, 'QUERY_QUOTA_PER_DAY', 100, 0),
    ipRatePerSecond: int(env, 'IP_RATE_PER_SECOND', 30, 0),
    ipMaxConnections: int(env, 'IP_MAX_CONNECTIONS', 64, 0, 100_000),
    httpTimeouts: httpTimeouts(env),
    metricsToken: metricsToken(env),
    uploadMaxBytes: int(env, 'UPLOAD_MAX_BYTES', 10 * 1024 * 1024, 1, 1024 * 1024 * 1024),
    toolTimeLimitMs: int(env, 'TOOL_TIME_LIMIT_MS', 0, 0, 600_000) || undefined,
    queryCacheTtlSeconds: int(env, 'QUERY_CACHE_TTL_SECONDS', 60, 0),
    sseHeartbeatSeconds: int(env, 'SSE_HEARTBEAT_SECONDS', 15, 1, 3600),
    trustedIdJagIssuers: trustedIssuers(env, devMode),
    trustProxy: parseTrustProxy(env),
    nodeEnv,
    logLevel,
    devMode,
    secureCookies: publicUrl.protocol === 'https:',
  };
}
