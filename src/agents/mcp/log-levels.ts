/**
 * The MCP logging level an account's agents asked for (`logging/setLevel`).
 * The server keeps no session (docs/agent-surfaces.md), so the level is
 * remembered per account, for a day after it was last set, in the service's
 * short-lived shared store: the answer cache's port, Redis when configured
 * (every instance sees the level at once), else in process. Until an account
 * sets a level it gets no log notifications at all (MCP logging: "If no
 * logging/setLevel request has been sent from the client, the server MAY
 * decide which messages to send automatically" — we send none).
 *
 * The store may lose a level (eviction, Redis outage): the agent then gets
 * no log notifications until it sets the level again, never an error.
 */
import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import { MemoryAnswerCache } from '../../adapters/cache/memory.js';
import type { AnswerCache } from '../../ports/answer-cache.js';

export const logLevels: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

const rememberedMs = 24 * 3600_000;

/** Whether a message at `level` passes the threshold `min` (RFC 5424 order, as MCP uses it). */
export function passes(level: LoggingLevel, min: LoggingLevel | undefined): boolean {
  return min !== undefined && logLevels.indexOf(level) >= logLevels.indexOf(min);
}

export class McpLogLevels {
  private readonly store: Pick<AnswerCache, 'get' | 'set'>;

  constructor(store?: Pick<AnswerCache, 'get' | 'set'>) {
    this.store = store ?? new MemoryAnswerCache({ maxEntries: 10_000 });
  }

  async get(accountId: string): Promise<LoggingLevel | undefined> {
    const level = await this.store.get<string>(keyOf(accountId));
    return logLevels.find((known) => known === level);
  }

  set(accountId: string, level: LoggingLevel): Promise<void> {
    return this.store.set(keyOf(accountId), level, rememberedMs);
  }
}

function keyOf(accountId: string): string {
  return `mcp-log-level:${accountId}`;
}
