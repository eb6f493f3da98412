/**
 * `/api/mcp`: the MCP Streamable HTTP endpoint (protocol 2025-11-25).
 * Stateless: every POST carries one JSON-RPC message and its own bearer
 * token, and gets a fresh McpServer + transport bound to that token's account
 * (no session id, no standalone server stream; GET and DELETE answer 405 as
 * the transport allows). Answers are JSON, except a `tools/call` that may
 * send notifications of its own — progress (the request has a progressToken)
 * or log messages (the account set a level) — which is answered as an SSE
 * stream carrying them and then the result. Order of checks: Origin (403), bearer
 * token for the MCP resource (401 with the RFC 9728 challenge), content type
 * and JSON (415, 400), tool scope (403 insufficient_scope, so clients can
 * step up), then the SDK transport (Accept 406, protocol version 400, …).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { missingToolScope, originAllowed } from '../../agents/mcp/auth.js';
import { asksForProgress } from '../../agents/mcp/call-notices.js';
import type { McpCaller, McpServices } from '../../agents/mcp/context.js';
import type { BearerAuthenticator } from '../../identity/oauth/bearer.js';
import { bearerAuth, insufficientScope, principalOf, sendRefusal } from '../bearer-auth.js';
import { sendProblem } from '../problem.js';
import type { App } from '../types.js';
import { lazily } from '../../lazily.js';

export interface McpRouteOptions {
  publicUrl: string;
  devMode: boolean;
  /** The MCP resource identifier, `${PUBLIC_URL}/api/mcp`: tokens must name it in `aud`. */
  resource: string;
  bearer: BearerAuthenticator;
  services: McpServices;
  /** Largest JSON-RPC body (add_records carries content): the upload limit, JSON-escaped. */
  bodyLimit: number;
}

const path = '/api/mcp';
/** `/api/mcp/` answers as `/api/mcp` (clients that append a slash to the URL they were given); the resource stays `/api/mcp`. */
const paths = [path, `${path}/`];

/** The MCP SDK (server and Streamable HTTP transport) and our tools on it, loaded by the first MCP request rather than at start-up. */
const mcpRuntime = lazily(async () => {
  const [{ StreamableHTTPServerTransport }, { createMcpServer }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('../../agents/mcp/server.js'),
  ]);
  return { StreamableHTTPServerTransport, createMcpServer };
});

function rpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply.code(status).type('application/json').send({ jsonrpc: '2.0', error: { code, message }, id: null });
}

export async function mcpRoutes(app: App, options: McpRouteOptions): Promise<void> {
  const { publicUrl, resource, bearer } = options;

  async function checkOrigin(request: FastifyRequest, reply: FastifyReply) {
    if (originAllowed(request.headers.origin, publicUrl, options.devMode)) return undefined;
    return sendProblem(reply, publicUrl, 'forbidden', `Requests from the origin ${String(request.headers.origin).slice(0, 200)} are not accepted by the MCP endpoint.`);
  }
  // Any valid token for this resource gets in; each tool's scope is checked per message below.
  const authenticate = [
    checkOrigin,
    bearerAuth({
      publicUrl,
      resource,
      authenticator: bearer,
      challengeScope: 'mcp',
      missingDescription: 'Send Authorization: Bearer <access token for this MCP server>.',
    }),
  ];

  await app.register(async (scope) => {
    // The body is read as text and parsed here, so a non-JSON body gets the transport's own answers (415, -32700).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: options.bodyLimit }, (_request, body, done) => done(null, body));

    const handle = async (request: FastifyRequest, reply: FastifyReply) => {
      const principal = principalOf(request);
      const caller: McpCaller = { accountId: principal.accountId, scopes: principal.scopes, requestId: request.id, log: request.log };
      const contentType = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
      if (contentType !== 'application/json') return rpcError(reply, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
      let message: unknown;
      try {
        message = JSON.parse(String(request.body ?? ''));
      } catch {
        return rpcError(reply, 400, -32700, 'Parse error: the body is not valid JSON.');
      }
      const missing = missingToolScope(message, caller.scopes);
      if (missing) {
        return sendRefusal(reply, publicUrl, insufficientScope(resource, missing, `This tool needs the ${missing} scope, which the access token does not carry.`));
      }

      const toolCall = (message as { method?: unknown } | null)?.method === 'tools/call';
      if (toolCall) caller.logLevel = await options.services.logLevels.get(caller.accountId);
      const streamed = toolCall && (caller.logLevel !== undefined || asksForProgress(message));
      const { StreamableHTTPServerTransport, createMcpServer } = await mcpRuntime();
      const server = createMcpServer(caller, options.services);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !streamed });
      transport.onerror = (err) => request.log.debug({ err: { message: err.message } }, 'mcp transport refused a request');
      await server.connect(transport);
      // From here the SDK writes the response; Fastify's reply headers are not sent, so copy ours.
      reply.hijack();
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value as string);
      reply.raw.setHeader('cache-control', 'no-store');
      reply.raw.once('close', () => {
        void server.close();
      });
      try {
        await transport.handleRequest(request.raw, reply.raw, message);
      } catch (err) {
        request.log.error({ err }, 'mcp request failed');
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(500, { 'content-type': 'application/json' });
          reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
        }
      }
    };
    for (const url of paths) scope.post(url, { onRequest: authenticate, bodyLimit: options.bodyLimit, schema: { hide: true } }, handle);

    // No sessions: nothing to stream to (GET) or end (DELETE). 405 is the transport spec's answer for both.
    const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
      rpcError(reply.header('allow', 'POST'), 405, -32000, 'Method not allowed: this MCP server is stateless; send each JSON-RPC message as a POST.');
    for (const url of paths) {
      scope.get(url, { onRequest: authenticate, schema: { hide: true } }, notAllowed);
      scope.delete(url, { onRequest: authenticate, schema: { hide: true } }, notAllowed);
    }
  });
}
