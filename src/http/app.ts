/**
 * The Fastify application: plugins (request id, errors, auth, metrics,
 * cookies, multipart, docs) and the thin routes of each feature. Everything
 * it uses is passed in; nothing here reads the environment.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyServerOptions } from 'fastify';
import type { AnswerCache } from '../ports/answer-cache.js';
import type { RateLimiter } from '../ports/rate-limiter.js';
import type { OutboxMailer } from '../adapters/mail/outbox-mailer.js';
import type { KeyStore } from '../ports/storage.js';
import type { Skill } from '../agents/skills/index.js';
import type { Config } from '../config.js';
import type { OAuth } from '../identity/oauth/oauth.js';
import { resourcesOf } from '../identity/oauth/scopes.js';
import type { WebBotAuth } from '../identity/web-bot-auth/index.js';
import type { SignInService } from '../identity/sign-in-service.js';
import type { ApiKeyService } from '../knowledge/keys/api-key-service.js';
import type { KnowledgeService } from '../knowledge/knowledge-service.js';
import type { WebImportService } from '../knowledge/web-import/web-import-service.js';
import { OwnerQueries } from '../knowledge/query/owner-query.js';
import type { QueryService } from '../knowledge/query/query-service.js';
import type { Metrics } from '../ops/metrics.js';
import { registerAuth } from './plugins/auth.js';
import { registerErrorHandling } from './plugins/errors.js';
import { registerIpLimit } from './plugins/ip-limit.js';
import { limitConnectionsPerIp } from './plugins/connection-limit.js';
import { registerJsonBody } from './plugins/json-body.js';
import { acceptMultipartUnread } from './multipart-body.js';
import { refuseBadSignatures, registerWebBotAuth } from './plugins/web-bot-auth.js';
import { queryCorsRoutes } from './plugins/query-cors.js';
import type { FeedbackService } from '../knowledge/query/answer-feedback.js';
import { agentCatalogEntries, agentRoutes } from './routes/agents.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { botDirectoryRoutes } from './routes/bot-directory.js';
import { connectedAgentRoutes } from './routes/connected-agents.js';
import { devOutboxRoutes } from './routes/dev-outbox.js';
import { docsRoutes } from './routes/docs.js';
import { healthRoutes, type ReadinessCheck } from './routes/health.js';
import { knowledgeBaseRoutes } from './routes/knowledge-bases.js';
import { oauthRoutes } from './routes/oauth.js';
import { recordRoutes } from './routes/records.js';
import { queryRoutes } from './routes/query.js';
import { playgroundRoutes } from './routes/playground.js';
import { signInRoutes } from './routes/sign-in.js';
import { sourceRoutes } from './routes/sources.js';
import { toolAssetRoutes } from './routes/tool-assets.js';
import { toolsApiRoutes } from './routes/tools-api.js';
import { usageRoutes } from './routes/usage.js';
import { feedbackRoutes } from './routes/feedback.js';
import type { UsageReports } from '../knowledge/query/usage-reports.js';
import { widgetRoutes } from './routes/widget.js';
import { webRoutes } from './routes/web.js';
import { sendProblem } from './problem.js';
import { requestLoggerFactory } from './request-logger.js';
import { Problem } from './schemas.js';
import type { App } from './types.js';
import { validatorCompiler } from './validation.js';

export interface AppDeps {
  config: Config;
  knowledge: KnowledgeService;
  /** Import from a web page or sitemap (`POST …/sources/import`); the route exists only with it. */
  webImport?: WebImportService | undefined;
  keys: ApiKeyService;
  queries: QueryService;
  /** For CORS preflights of the query endpoints. */
  keyStore: KeyStore;
  /** The owner's usage reports (REST and MCP). */
  usageReports: UsageReports;
  /** Visitors' feedback on answers (`POST /api/v1/feedback`). */
  feedback: FeedbackService;
  /** Writes this instance's pending usage counters (the benchmarks, before they read memory). */
  flushUsage: () => Promise<void>;
  limiter: RateLimiter;
  signIn: SignInService;
  metrics: Metrics;
  readiness: ReadinessCheck[];
  /** The shared short-lived store (answer cache port; Redis when configured): MCP log levels. In process when absent. */
  cache?: AnswerCache | undefined;
  /** Agent identity: the OAuth server, claims, consent and discovery documents (with the agent skills they list). */
  oauth?: { server: OAuth; skills: Skill[] } | undefined;
  /** Present only in development mode. */
  outbox?: OutboxMailer | undefined;
  /** Web Bot Auth: signed-bot recognition and our own key directory. */
  webBotAuth?: WebBotAuth | undefined;
  /** A ready logger to share with the rest of the process; otherwise one is made from the log level. */
  logger?: FastifyBaseLogger;
}

const requestIdPattern = /^[A-Za-z0-9._:-]{1,64}$/;

// Request ids need to be unique, not secret: a random per-process prefix and a counter
// are unique across instances and cost nothing per request (randomBytes did, measurably).
const requestIdPrefix = `req_${randomBytes(6).toString('base64url')}`;
let requestCounter = 0;

/** Honour a caller's X-Request-Id when it is a sane token, so traces join up; otherwise mint one. */
function requestId(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  if (typeof incoming === 'string' && requestIdPattern.test(incoming)) return incoming;
  requestCounter = (requestCounter + 1) % Number.MAX_SAFE_INTEGER;
  return `${requestIdPrefix}${requestCounter.toString(36)}`;
}

/** Logger options: JSON lines, credentials redacted, query strings (which may hold codes) dropped. */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]', 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { id: string; method: string; url: string; ip?: string }) => ({ id: req.id, method: req.method, path: req.url.split('?')[0], ip: req.ip }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  };
}

/**
 * How often Node looks for requests past their headers or request timeout: a quarter of the
 * shorter one, so a slow client is cut within 125% of its timeout (Node's default is every 30 s).
 */
function connectionsCheckingInterval(timeouts: Config['httpTimeouts']): number {
  return Math.min(30_000, Math.max(100, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 4)));
}

export async function buildApp(deps: AppDeps): Promise<App> {
  const { config } = deps;
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: loggerOptions(config.logLevel) }),
    genReqId: requestId,
    // A request's logger is made only when it writes a line (request-logger.ts).
    childLoggerFactory: requestLoggerFactory,
    // A hop count is valid for Fastify (proxy-addr) though its types omit it.
    trustProxy: config.trustProxy as boolean | string[],
    bodyLimit: 1024 * 1024,
    // Slow clients (docs/decisions.md, "Connections and timeouts"): Fastify's defaults leave the
    // request timeout off; Node's headers timeout (60 s) is checked only every 30 s.
    requestTimeout: config.httpTimeouts.requestMs,
    keepAliveTimeout: config.httpTimeouts.keepAliveMs,
    http: {
      headersTimeout: config.httpTimeouts.headersMs,
      connectionsCheckingInterval: connectionsCheckingInterval(config.httpTimeouts),
    },
    return503OnClosing: true,
    // Fastify's own errors before routing (e.g. a URL with broken percent-encoding) are problem documents too.
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', request.id);
      return sendProblem(reply, config.publicUrl, 'bad_request', error.code === 'FST_ERR_BAD_URL' ? 'The URL is not valid.' : 'The request could not be read.');
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler());
  limitConnectionsPerIp(app, { maxPerIp: config.ipMaxConnections, trustProxy: config.trustProxy, publicUrl: config.publicUrl, metrics: deps.metrics });
  registerJsonBody(app);

  app.addSchema(Problem);

  // Hooks that run on every request take Fastify's callback form: no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    deps.metrics.httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
    deps.metrics.httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    done();
  });

  registerErrorHandling(app, config.publicUrl, config.uploadMaxBytes);
  // Before the IP limit: a verified bot is limited by its own bucket (request.botKey).
  if (deps.webBotAuth) registerWebBotAuth(app, deps.webBotAuth, config.publicUrl);
  registerIpLimit(app, deps.limiter, config.ipRatePerSecond, deps.metrics, { deferToHandlers: deps.queries.takesClientLimitWithAdmission });
  if (deps.webBotAuth) refuseBadSignatures(app);
  await app.register(cookie);
  // Multipart bodies are read only by the upload route: the plugin is registered in its scope (below).
  acceptMultipartUnread(app);
  registerAuth(app, {
    signIn: deps.signIn,
    publicUrl: config.publicUrl,
    resource: resourcesOf(config.publicUrl).rest,
    authenticator: deps.oauth?.server.bearer,
  });
  await docsRoutes(app, config.publicUrl);

  healthRoutes(app, deps.readiness, deps.metrics, { metricsToken: config.metricsToken });
  await webRoutes(app);
  signInRoutes(app, deps.signIn, config.secureCookies);
  knowledgeBaseRoutes(app, deps.knowledge);
  await app.register(async (uploads) => {
    // This scope's parser is the plugin's, which reads the parts (multipart-body.ts).
    uploads.removeContentTypeParser('multipart/form-data');
    await uploads.register(multipart, { limits: { fileSize: config.uploadMaxBytes, files: 2, fields: 5, fieldSize: 1024 } });
    sourceRoutes(uploads as unknown as App, deps.knowledge, config.uploadMaxBytes, deps.webImport);
  });
  recordRoutes(app, deps.knowledge);
  apiKeyRoutes(app, deps.keys);
  usageRoutes(app, deps.usageReports);
  queryCorsRoutes(app, deps.keyStore);
  const answerStreams = queryRoutes(app, deps.queries, deps.metrics, config.sseHeartbeatSeconds * 1000);
  feedbackRoutes(app, deps.feedback);
  playgroundRoutes(app, {
    owners: new OwnerQueries(deps.knowledge, deps.queries, { limiter: deps.limiter, limits: config }),
    metrics: deps.metrics,
    heartbeatMs: config.sseHeartbeatSeconds * 1000,
    streams: answerStreams,
  });
  widgetRoutes(app, deps.queries, { publicUrl: config.publicUrl });
  if (config.devMode && deps.outbox) devOutboxRoutes(app, deps.outbox);
  toolsApiRoutes(app, { ...(config.toolTimeLimitMs ? { timeLimitMs: config.toolTimeLimitMs } : {}) });
  await toolAssetRoutes(app);
  if (deps.oauth) {
    await oauthRoutes(app, deps.oauth.server, deps.signIn, {
      publicUrl: config.publicUrl,
      secureCookies: config.secureCookies,
      skills: deps.oauth.skills,
      catalogEntries: agentCatalogEntries(config.publicUrl),
    });
    await agentRoutes(app, { ...deps, oauth: deps.oauth.server });
    connectedAgentRoutes(app, deps.oauth.server.connectedAgents);
  }
  if (deps.webBotAuth) botDirectoryRoutes(app, deps.webBotAuth.directory);

  return app;
}
