/**
 * What an MCP tool call runs with: the authenticated caller (one request, one
 * account — the server is stateless, see docs/agents.md) and the services.
 * Tool results: structured content plus the same as text; domain errors
 * become MCP tool errors (`isError: true`) with the catalogue code and the
 * message people see over HTTP; anything unexpected is logged and reported
 * without internals.
 */
import type { UsageReports } from '../../knowledge/query/usage-reports.js';
import type { CallToolResult, LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyBaseLogger } from 'fastify';
import { isDomainError } from '../../errors.js';
import type { Scope } from '../../identity/principal.js';
import type { ApiKeyService } from '../../knowledge/keys/api-key-service.js';
import type { KnowledgeService } from '../../knowledge/knowledge-service.js';
import type { OwnerQueries } from '../../knowledge/query/owner-query.js';
import type { Metrics } from '../../ops/metrics.js';
import { type CallExtra, type CallNotices, callNotices } from './call-notices.js';
import type { McpLogLevels } from './log-levels.js';

export interface McpCaller {
  accountId: string;
  scopes: ReadonlySet<Scope>;
  requestId: string;
  log: FastifyBaseLogger;
  /** The account's MCP logging level (log-levels.ts), read when the request came in; none = no log notifications. */
  logLevel?: LoggingLevel | undefined;
}

export interface McpServices {
  publicUrl: string;
  knowledge: KnowledgeService;
  keys: ApiKeyService;
  queries: OwnerQueries;
  /** The owner's usage reports (`get_usage`). */
  usage: UsageReports;
  metrics?: Metrics | undefined;
  /** TOOL_TIME_LIMIT_MS: caps every utility's own time limit, as for `POST /api/tools/{id}`. */
  toolTimeLimitMs?: number | undefined;
  /** Where `logging/setLevel` is remembered (per account). */
  logLevels: McpLogLevels;
}

export function ok(structured: Record<string, unknown>, text?: string): CallToolResult {
  return { content: [{ type: 'text', text: text ?? JSON.stringify(structured, null, 2) }], structuredContent: structured };
}

export function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * Runs a tool body for a caller holding `scope` (checked again here: the HTTP pre-check is the first
 * line, not the only one). With the call's `extra`, the body gets notices (call-notices.ts) and a
 * refusal or failure is also sent as a log message (its catalogue code only).
 */
export async function guarded(
  caller: McpCaller,
  scope: Scope | undefined,
  body: (notices: CallNotices) => Promise<CallToolResult>,
  call?: { tool: string; extra: CallExtra },
): Promise<CallToolResult> {
  const notices = callNotices(call?.extra, caller.logLevel);
  const tool = call?.tool ?? 'tool';
  if (scope && !caller.scopes.has(scope)) {
    notices.log('warning', `${tool} refused: the access token lacks the ${scope} scope`, { tool, code: 'forbidden' });
    return toolError(`forbidden: this access token lacks the ${scope} scope.`);
  }
  try {
    return await body(notices);
  } catch (error) {
    if (isDomainError(error)) {
      notices.log('warning', `${tool} refused: ${error.code}`, { tool, code: error.code });
      const extra = Object.entries(error.extra)
        .filter(([key, value]) => key !== 'errors' && (typeof value === 'number' || typeof value === 'string'))
        .map(([key, value]) => `${key}=${value}`);
      return toolError(`${error.code}: ${error.message}${extra.length ? ` (${extra.join(', ')})` : ''}`);
    }
    caller.log.error({ err: error }, 'mcp tool failed');
    notices.log('error', `${tool} failed on the server`, { tool, code: 'internal_error', requestId: caller.requestId });
    return toolError(`internal_error: something went wrong on our side (request ${caller.requestId}).`);
  }
}
