/**
 * The A2A SDK's half of the endpoint: the request handler over this service's executor and task
 * store, the 1.0 and 0.3 JSON-RPC transports, and the SSE and error formats. The route loads this
 * module on the first A2A request (`lazily`), so the SDK costs nothing at start-up; the agent card
 * it holds is the one `/.well-known/agent-card.json` serves (`agentCardJson`).
 */
import { AgentCard, formatSSEErrorEvent, formatSSEEvent } from '@a2a-js/sdk';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { DefaultRequestHandler, JsonRpcTransportHandler, ServerCallContext, type User, validateVersion } from '@a2a-js/sdk/server';
import type { FastifyBaseLogger } from 'fastify';
import type { OwnerQueries } from '../../knowledge/query/owner-query.js';
import type { Metrics } from '../../ops/metrics.js';
import { agentCardJson } from './card.js';
import { KnowledgeAgentExecutor, stateKeys } from './executor.js';
import { RecentTaskStore } from './task-store.js';

class AccountUser implements User {
  constructor(private readonly accountId: string) {}
  get isAuthenticated(): boolean {
    return true;
  }
  get userName(): string {
    return this.accountId;
  }
}

export type RpcResult = unknown | AsyncGenerator<unknown, void, undefined>;

export interface RpcCall {
  /** The caller's `A2A-Version`: `0.3` (or absent) selects the legacy transport. */
  version: string;
  body: unknown;
  accountId: string;
  requestId: string;
  /** Cancels the answer (client gone, shutdown). */
  signal: AbortSignal;
}

export interface A2aRpc {
  /** A JSON-RPC response, or a stream of them; a protocol error comes back as a JSON-RPC error response. */
  handle(call: RpcCall): Promise<RpcResult>;
  /** One streamed response as an SSE frame. */
  event(response: unknown): string;
  /** A failure in the middle of a stream, as the SSE frame of a JSON-RPC error for request `id`. */
  errorEvent(version: string, id: string | number | null, error: unknown): string;
}

export interface A2aRpcOptions {
  publicUrl: string;
  queries: OwnerQueries;
  log: FastifyBaseLogger;
  metrics?: Metrics | undefined;
}

const legacy = (version: string) => version === '0.3';
const mapError = (version: string, error: unknown) =>
  legacy(version) ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(error) : JsonRpcTransportHandler.mapToJSONRPCError(error);

export function createA2aRpc(options: A2aRpcOptions): A2aRpc {
  const card = AgentCard.fromJSON(agentCardJson(options.publicUrl));
  const handler = new DefaultRequestHandler(card, new RecentTaskStore(), new KnowledgeAgentExecutor(options.queries, options.log, options.metrics));
  const v1 = new JsonRpcTransportHandler(handler);
  const v03 = new LegacyJsonRpcTransportHandler(handler);
  return {
    async handle(call) {
      const body = call.body as Record<string, unknown> | undefined;
      const id = (body?.id as string | number | undefined) ?? null;
      const context = new ServerCallContext({
        user: new AccountUser(call.accountId),
        requestedVersion: call.version,
        state: new Map<string, unknown>([
          [stateKeys.signal, call.signal],
          [stateKeys.requestId, call.requestId],
        ]),
      });
      try {
        validateVersion(call.version, card, 'JSONRPC');
        return await (legacy(call.version) ? v03 : v1).handle(body ?? '', context);
      } catch (error) {
        return { jsonrpc: '2.0', id, error: mapError(call.version, error) };
      }
    },
    event: (response) => formatSSEEvent(response),
    errorEvent: (version, id, error) => formatSSEErrorEvent({ jsonrpc: '2.0', id, error: mapError(version, error) }),
  };
}
