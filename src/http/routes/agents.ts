/**
 * The agent surfaces in one place for app.ts: the MCP server, the A2A
 * endpoint, their cards, and their entries in the API catalog (RFC 9727).
 * They need the OAuth resource server (bearer tokens), so app.ts mounts them
 * with it.
 */
import type { UsageReports } from '../../knowledge/query/usage-reports.js';
import type { AnswerCache } from '../../ports/answer-cache.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';
import { McpLogLevels } from '../../agents/mcp/log-levels.js';
import { a2aPath, agentCardPath } from '../../agents/a2a/card.js';
import { serverCardType } from '../../agents/mcp/server-card.js';
import type { Config } from '../../config.js';
import type { OAuth } from '../../identity/oauth/oauth.js';
import type { ApiKeyService } from '../../knowledge/keys/api-key-service.js';
import type { KnowledgeService } from '../../knowledge/knowledge-service.js';
import { OwnerQueries } from '../../knowledge/query/owner-query.js';
import type { QueryService } from '../../knowledge/query/query-service.js';
import type { Metrics } from '../../ops/metrics.js';
import type { App } from '../types.js';
import { a2aRoutes } from './a2a.js';
import { agentCardRoutes } from './agent-cards.js';
import type { LinksetEntry } from './discovery.js';
import { mcpRoutes } from './mcp.js';

export interface AgentRouteDeps {
  config: Config;
  oauth: OAuth;
  knowledge: KnowledgeService;
  keys: ApiKeyService;
  queries: QueryService;
  usageReports: UsageReports;
  limiter: RateLimiter;
  metrics: Metrics;
  /** The shared short-lived store (the answer cache's port): MCP log levels live there. In process when absent. */
  cache?: AnswerCache | undefined;
}

export function agentCatalogEntries(o: string): LinksetEntry[] {
  return [
    {
      anchor: `${o}/api/mcp`,
      'service-desc': [{ href: `${o}/.well-known/mcp/server-card.json`, type: serverCardType, title: 'MCP server card' }],
      'service-doc': [{ href: `${o}/docs`, type: 'text/html' }],
    },
    {
      anchor: `${o}${a2aPath}`,
      'service-desc': [{ href: `${o}${agentCardPath}`, type: 'application/json', title: 'A2A agent card' }],
      'service-doc': [{ href: `${o}/docs`, type: 'text/html' }],
    },
    {
      anchor: `${o}/api/tools`,
      'service-desc': [{ href: `${o}/openapi.json`, type: 'application/json' }],
      'service-doc': [{ href: `${o}/docs`, type: 'text/html' }],
    },
  ];
}

export async function agentRoutes(app: App, deps: AgentRouteDeps): Promise<void> {
  const { config, oauth } = deps;
  const queries = new OwnerQueries(deps.knowledge, deps.queries);
  agentCardRoutes(app, config.publicUrl);
  await mcpRoutes(app, {
    publicUrl: config.publicUrl,
    devMode: config.devMode,
    resource: oauth.resources.mcp,
    bearer: oauth.bearer,
    services: {
      publicUrl: config.publicUrl,
      knowledge: deps.knowledge,
      keys: deps.keys,
      queries,
      usage: deps.usageReports,
      metrics: deps.metrics,
      toolTimeLimitMs: deps.config.toolTimeLimitMs,
      logLevels: new McpLogLevels(deps.cache),
    },
    bodyLimit: config.uploadMaxBytes * 2 + 65_536,
  });
  await a2aRoutes(app, { publicUrl: config.publicUrl, resource: oauth.resources.rest, bearer: oauth.bearer, queries, metrics: deps.metrics, heartbeatMs: config.sseHeartbeatSeconds * 1000 });
}
