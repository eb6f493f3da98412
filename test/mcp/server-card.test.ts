/**
 * The MCP server card (standards.md §5) at both addresses, and the API
 * catalog entries of the agent surfaces: shapes, media types, caching, and
 * that what they list answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namespaceOf } from '../../src/agents/mcp/server-card.js';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.stop());

describe('MCP server card', () => {
  it.each(['/.well-known/mcp/server-card.json', '/api/mcp/server-card'])('is served at %s with the required fields', async (path) => {
    const response = await fetch(`${server.baseUrl}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/mcp-server-card+json');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    const card = (await response.json()) as Record<string, unknown>;
    expect(card.$schema).toBe('https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json');
    expect(card.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(card.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(typeof card.description).toBe('string');
    expect((card.description as string).length).toBeLessThanOrEqual(100);
    expect(card.remotes).toEqual([{ type: 'streamable-http', url: `${server.baseUrl}/api/mcp`, supportedProtocolVersions: ['2025-11-25'] }]);
  });

  it('is the same document at both addresses, with a strong ETag and 304', async () => {
    const a = await fetch(`${server.baseUrl}/.well-known/mcp/server-card.json`);
    const b = await fetch(`${server.baseUrl}/api/mcp/server-card`);
    expect(await a.text()).toBe(await b.text());
    const etag = a.headers.get('etag') as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(b.headers.get('etag')).toBe(etag);
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const cached = await fetch(`${server.baseUrl}/api/mcp/server-card`, { headers: { 'if-none-match': header } });
      expect(cached.status, header).toBe(304);
      expect(await cached.text()).toBe('');
    }
    expect((await fetch(`${server.baseUrl}/api/mcp/server-card`, { headers: { 'if-none-match': '"stale"' } })).status).toBe(200);
    const head = await fetch(`${server.baseUrl}/.well-known/mcp/server-card.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(etag);
  });

  it('tells the truth: the remote answers with the challenge its authentication block describes', async () => {
    const card = (await (await fetch(`${server.baseUrl}/api/mcp/server-card`)).json()) as {
      remotes: { url: string }[];
      authentication: { required: boolean; protectedResourceMetadata: string };
    };
    const remote = await fetch(card.remotes[0]?.url as string, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(remote.status).toBe(401);
    expect(card.authentication.required).toBe(true);
    expect(remote.headers.get('www-authenticate')).toContain(`resource_metadata="${card.authentication.protectedResourceMetadata}"`);
    expect((await fetch(card.authentication.protectedResourceMetadata)).status).toBe(200);
  });

  it('names its namespace after the host of PUBLIC_URL', () => {
    expect(namespaceOf('https://groundwork.example.com')).toBe('com.example.groundwork');
    expect(namespaceOf('http://localhost:3000')).toBe('localhost');
    expect(namespaceOf('http://127.0.0.1:3000')).toBe('127.0.0.1');
  });
});

describe('API catalog', () => {
  it('lists the MCP server, the A2A endpoint and the utilities, each with a description that answers', async () => {
    const catalog = (await (await fetch(`${server.baseUrl}/.well-known/api-catalog`)).json()) as {
      linkset: { anchor: string; 'service-desc': { href: string; type: string }[] }[];
    };
    const byAnchor = Object.fromEntries(catalog.linkset.map((entry) => [entry.anchor, entry]));
    for (const anchor of [`${server.baseUrl}/api/mcp`, `${server.baseUrl}/api/v1/a2a`, `${server.baseUrl}/api/tools`]) {
      const entry = byAnchor[anchor];
      expect(entry, anchor).toBeDefined();
      const desc = entry?.['service-desc'][0];
      const response = await fetch(desc?.href as string);
      expect(response.status, desc?.href).toBe(200);
      expect(response.headers.get('content-type')).toContain(desc?.type as string);
    }
  });
});
