/**
 * "Discovery documents must be true: every URL they list answers" (product.md §7).
 * Reads every well-known document, follows every URL of ours it names (to any
 * depth of JSON), and checks each answers: no 404, no 5xx. Endpoints that only
 * take POST are tried with an empty POST, which must be refused as a bad
 * request, not as a missing route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';

const documents = [
  '/.well-known/oauth-authorization-server',
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/api/mcp',
  '/.well-known/oauth-protected-resource/api/v1',
  '/.well-known/agent-skills/index.json',
  '/.well-known/agent-card.json',
  '/.well-known/mcp/server-card.json',
  '/.well-known/api-catalog',
  '/.well-known/http-message-signatures-directory',
];

/** Every string in a JSON value that is a URL on our origin, or a path relative to the document. */
function urlsIn(value: unknown, base: string, documentUrl: string, out: Set<string>): void {
  if (typeof value === 'string') {
    if (value.startsWith(base)) out.add(value.split('#')[0] as string);
    else if (/^\.?\.?\/[\w.-]/.test(value) && /\.(md|json)$/.test(value)) out.add(new URL(value, documentUrl).href);
  } else if (Array.isArray(value)) {
    for (const item of value) urlsIn(item, base, documentUrl, out);
  } else if (value && typeof value === 'object') {
    for (const item of Object.values(value)) urlsIn(item, base, documentUrl, out);
  }
}

describe('discovery documents are true', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.stop());

  it('serves every discovery document as JSON', async () => {
    for (const path of documents) {
      const response = await fetch(`${server.baseUrl}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type') ?? '', path).toMatch(/json/);
    }
  });

  it('every URL a document lists answers (no 404, no 5xx)', async () => {
    const urls = new Set<string>();
    for (const path of documents) {
      const documentUrl = `${server.baseUrl}${path}`;
      urlsIn(await (await fetch(documentUrl)).json(), server.baseUrl, documentUrl, urls);
    }
    // The documents name at least the OAuth endpoints, both APIs, the MCP server and the skills.
    expect(urls.size).toBeGreaterThanOrEqual(10);
    const failures: string[] = [];
    for (const url of urls) {
      let response = await fetch(url);
      if (response.status === 404 || response.status === 405) {
        response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
      }
      if (response.status === 404 || response.status >= 500) failures.push(`${url} → ${response.status}`);
    }
    expect(failures).toEqual([]);
  });
});
