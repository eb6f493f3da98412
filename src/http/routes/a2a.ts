/**
 * `POST /api/v1/a2a`: the A2A JSON-RPC endpoint (A2A 1.0: `SendMessage`,
 * `SendStreamingMessage` as SSE, `GetTask`, `CancelTask`, `ListTasks`; and
 * the same for 0.3 clients — `message/send`, `message/stream` — when the
 * request has no `A2A-Version` header or says 0.3). Built on the SDK's
 * DefaultRequestHandler and JSON-RPC transport handlers; authenticated by a
 * bearer token for the management API resource with scope `kb:read` (the
 * agent card says so). The endpoint lives under `/api/v1` because that is the
 * resource its tokens are for.
 */
import { Type } from 'typebox';
import { a2aPath } from '../../agents/a2a/card.js';
import type { A2aRpc } from '../../agents/a2a/rpc.js';
import type { BearerAuthenticator } from '../../identity/oauth/bearer.js';
import type { OwnerQueries } from '../../knowledge/query/owner-query.js';
import type { Metrics } from '../../ops/metrics.js';
import { bearerAuth, principalOf } from '../bearer-auth.js';
import { openSseStream } from '../sse-writer.js';
import { errorResponses } from '../schemas.js';
import type { App } from '../types.js';
import { lazily } from '../../lazily.js';

export interface A2aRouteOptions {
  publicUrl: string;
  /** The resource A2A tokens are for: `${PUBLIC_URL}/api/v1`. */
  resource: string;
  bearer: BearerAuthenticator;
  queries: OwnerQueries;
  metrics?: Metrics | undefined;
  /** A `: ping` comment this often on a quiet stream (the query stream's setting). */
  heartbeatMs?: number;
}

const isStream = (value: unknown): value is AsyncGenerator<unknown, void, undefined> =>
  typeof (value as AsyncGenerator<unknown> | null)?.[Symbol.asyncIterator] === 'function';

const a2aSchema = {
  tags: ['Agents'],
  summary: 'A2A JSON-RPC endpoint (agent card: /.well-known/agent-card.json)',
  description:
    'A2A 1.0 JSON-RPC (`SendMessage`, `SendStreamingMessage` → text/event-stream, `GetTask`, `CancelTask`, `ListTasks`) with `A2A-Version: 1.0`; ' +
    'A2A 0.3 (`message/send`, `message/stream`) without it. Name the knowledge base with a data part `{"ragId": …}`, metadata `ragId`, ' +
    'or a first text line `ragId: …`. Bearer token for this API with scope kb:read. Protocol errors are JSON-RPC errors with status 200.',
  security: [{ bearer: [] }],
  headers: Type.Object({ 'a2a-version': Type.Optional(Type.String({ description: '1.0, or absent for 0.3' })) }),
  body: Type.Object({}, { additionalProperties: true, description: 'One JSON-RPC 2.0 request' }),
  response: errorResponses(401, 403),
};

export async function a2aRoutes(app: App, options: A2aRouteOptions): Promise<void> {
  const { publicUrl, resource } = options;
  // The SDK and its request handler are loaded by the first A2A request, not at start-up.
  const rpc: () => Promise<A2aRpc> = lazily(async () =>
    (await import('../../agents/a2a/rpc.js')).createA2aRpc({ publicUrl, queries: options.queries, log: app.log, metrics: options.metrics }),
  );
  const streams = new Set<AbortController>();
  app.addHook('preClose', async () => {
    for (const controller of streams) controller.abort();
  });

  const authenticate = bearerAuth({ publicUrl, resource, authenticator: options.bearer, scopes: ['kb:read'] });

  await app.register(async (scope) => {
    // The A2A media type is JSON too.
    scope.addContentTypeParser('application/a2a+json', { parseAs: 'string' }, scope.getDefaultJsonParser('error', 'error'));

    scope.post(a2aPath, { onRequest: authenticate, schema: a2aSchema }, async (request, reply) => {
      const header = request.headers['a2a-version'];
      const version = (Array.isArray(header) ? header[0] : header)?.trim() || '0.3';
      const id = ((request.body as Record<string, unknown> | undefined)?.id as string | number | undefined) ?? null;
      const controller = new AbortController();
      const a2a = await rpc();
      const result = await a2a.handle({ version, body: request.body, accountId: principalOf(request).accountId, requestId: request.id, signal: controller.signal });
      if (!isStream(result)) return reply.header('cache-control', 'no-store').send(result);

      // SSE: one JSON-RPC response per event; the client leaving (or shutdown) cancels the answer.
      const stream = result;
      const sse = openSseStream(reply, { heartbeatMs: options.heartbeatMs });
      streams.add(controller);
      sse.signal.addEventListener('abort', () => {
        controller.abort();
        void stream.return(undefined);
      });
      try {
        for await (const event of stream) {
          if (sse.closed) break;
          await sse.write(a2a.event(event));
        }
      } catch (error) {
        request.log.warn({ err: error }, 'a2a stream failed');
        await sse.write(a2a.errorEvent(version, id, error));
      } finally {
        streams.delete(controller);
        sse.finish();
      }
    });
  });
}
