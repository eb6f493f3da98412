/**
 * The agent-facing cards (standards.md §5): the A2A agent card at
 * `/.well-known/agent-card.json` and the MCP server card at
 * `/.well-known/mcp/server-card.json` and `/api/mcp/server-card`. Public:
 * CORS `*`, `Cache-Control: public, max-age=3600`, a strong ETag with 304 on
 * `If-None-Match`; HEAD is answered too. The agent card comes in the form the
 * caller's `A2A-Version` asks for (1.0, or 0.3 when absent: agentCardVersion),
 * so it varies on that header; a browser's preflight for that header is answered.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { agentCardJson, agentCardJsonV03, agentCardPath, agentCardVersion } from '../../agents/a2a/card.js';
import { mcpServerCard, serverCardType } from '../../agents/mcp/server-card.js';
import type { App } from '../types.js';

interface Document {
  bytes: Buffer;
  type: string;
  etag: string;
}

function document(body: unknown, type: string): Document {
  const bytes = Buffer.from(JSON.stringify(body));
  return { bytes, type, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"` };
}

/** RFC 9110 §13.1.2: weak comparison, a list, or `*`. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

function serve(pick: (request: FastifyRequest) => Document, vary = 'accept-encoding') {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const doc = pick(request);
    reply.header('access-control-allow-origin', '*').header('cache-control', 'public, max-age=3600').header('etag', doc.etag).header('vary', vary);
    if (etagMatches(request.headers['if-none-match'], doc.etag)) return reply.code(304).send();
    // A Buffer, so the media type goes out exactly as named (no charset appended).
    return reply.header('content-type', doc.type).send(doc.bytes);
  };
}

export function agentCardRoutes(app: App, publicUrl: string): void {
  // The 1.0 card is already in the A2A SDK's JSON form (test/a2a/card-versions.test.ts), so
  // serving it needs no SDK at start-up.
  const a2a = {
    '1.0': document(agentCardJson(publicUrl), 'application/json'),
    '0.3': document(agentCardJsonV03(publicUrl), 'application/json'),
  };
  const mcp = document(mcpServerCard(publicUrl), serverCardType);
  app.get(agentCardPath, { schema: { hide: true } }, serve((request) => a2a[agentCardVersion(request.headers['a2a-version'])], 'A2A-Version, Accept-Encoding'));
  app.options(agentCardPath, { schema: { hide: true } }, async (_request, reply) =>
    reply
      .code(204)
      .header('access-control-allow-origin', '*')
      .header('access-control-allow-methods', 'GET, HEAD, OPTIONS')
      .header('access-control-allow-headers', 'A2A-Version, A2A-Extensions')
      .header('access-control-max-age', '86400')
      .send(),
  );
  app.get('/.well-known/mcp/server-card.json', { schema: { hide: true } }, serve(() => mcp));
  app.get('/api/mcp/server-card', { schema: { hide: true } }, serve(() => mcp));
}
