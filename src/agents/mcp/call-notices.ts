/**
 * Notifications a tool call sends on its own response stream (routes/mcp.ts
 * answers such calls with SSE): log messages at or above the account's level
 * (log-levels.ts) and progress for a client that sent a `progressToken`.
 *
 * Log messages say what happened in the call — counts, outcomes, catalogue
 * codes — and never carry content, queries, answers, keys or tokens. A
 * notification that cannot be sent (the client went away) is dropped: it
 * never fails the call.
 */
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { LoggingLevel, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { passes } from './log-levels.js';

export const mcpLoggerName = 'groundwork';

export type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface CallNotices {
  log(level: LoggingLevel, message: string, details?: Record<string, string | number | boolean>): void;
  /** Whether the client asked for progress (sent a progressToken). */
  readonly wantsProgress: boolean;
  /** `progress` must grow with each call (MCP progress); a value not above the last one is not sent. */
  progress(progress: number, total: number | undefined, message: string): void;
}

/** Whether a JSON-RPC message is a `tools/call` whose caller asked for progress. */
export function asksForProgress(message: unknown): boolean {
  const meta = (message as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta;
  return typeof meta?.progressToken === 'string' || typeof meta?.progressToken === 'number';
}

export function callNotices(extra: Pick<CallExtra, '_meta' | 'sendNotification'> | undefined, minLevel: LoggingLevel | undefined): CallNotices {
  const token = extra?._meta?.progressToken;
  let last = -Infinity;
  const send = (notification: ServerNotification) => {
    extra?.sendNotification(notification).catch(() => undefined);
  };
  return {
    log(level, message, details) {
      if (!extra || !passes(level, minLevel)) return;
      send({ method: 'notifications/message', params: { level, logger: mcpLoggerName, data: details ? { message, ...details } : message } });
    },
    wantsProgress: token !== undefined,
    progress(progress, total, message) {
      if (token === undefined || progress <= last) return;
      last = progress;
      send({ method: 'notifications/progress', params: { progressToken: token, progress, ...(total !== undefined ? { total } : {}), message } });
    },
  };
}
