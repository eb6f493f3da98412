/**
 * Discovery (standards.md §1, §5): authorization-server metadata with the
 * exact issuer, protected-resource metadata whose `resource` equals the
 * identifier each URL is built from (checked by oauth4webapi), the API
 * catalog (GET linkset + HEAD Link), the agent-skills index with digests of
 * the exact SKILL.md bytes, and the JWKS — all public, CORS `*`, cacheable.
 */
import { createHash } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.js';
import { discover, idpKey, insecure, startOAuthServer } from './helpers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startOAuthServer(await idpKey());
});
afterAll(() => server?.stop());

const publicHeaders = (response: Response) => {
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
};

describe('happy path', () => {
  it('serves authorization-server metadata whose issuer is PUBLIC_URL exactly', async () => {
    const as = await discover(server.baseUrl);
    expect(as.issuer).toBe(server.baseUrl);
    expect(as).toMatchObject({
      authorization_endpoint: `${server.baseUrl}/oauth/authorize`,
      token_endpoint: `${server.baseUrl}/oauth/token`,
      registration_endpoint: `${server.baseUrl}/oauth/register`,
      revocation_endpoint: `${server.baseUrl}/oauth/revoke`,
      introspection_endpoint: `${server.baseUrl}/oauth/introspect`,
      jwks_uri: `${server.baseUrl}/oauth/jwks`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      authorization_grant_profiles_supported: ['urn:ietf:params:oauth:grant-profile:id-jag'],
    });
    expect(as.grant_types_supported).toEqual(['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:jwt-bearer']);
    expect(as.scopes_supported).toEqual(['kb:read', 'kb:write', 'tools:run', 'mcp']);
    expect((as as Record<string, unknown>).agent_auth).toEqual({
      register_uri: `${server.baseUrl}/oauth/register`,
      claim_uri: `${server.baseUrl}/oauth/claim`,
      identity_types_supported: ['anonymous', 'identity_assertion'],
      identity_assertion: { assertion_types_supported: ['urn:ietf:params:oauth:token-type:id-jag', 'verified_email'] },
      credential_types_supported: ['bearer_token', 'api_key'],
    });
    publicHeaders(await fetch(`${server.baseUrl}/.well-known/oauth-authorization-server`));
  });

  it.each([
    ['', 'Groundwork'],
    ['/api/v1', 'Groundwork management API'],
    ['/api/mcp', 'Groundwork MCP server'],
  ])('serves protected-resource metadata for %s with resource equal to its identifier', async (suffix, name) => {
    const identifier = new URL(`${server.baseUrl}${suffix}`);
    const response = await oauth.resourceDiscoveryRequest(identifier, insecure);
    expect(response.url).toBe(`${server.baseUrl}/.well-known/oauth-protected-resource${suffix}`);
    const metadata = await oauth.processResourceDiscoveryResponse(identifier, response);
    expect(metadata.resource).toBe(`${server.baseUrl}${suffix}`);
    expect(metadata).toMatchObject({ authorization_servers: [server.baseUrl], bearer_methods_supported: ['header'], resource_name: name });
    expect(metadata.scopes_supported).not.toContain('offline_access');
    publicHeaders(await fetch(`${server.baseUrl}/.well-known/oauth-protected-resource${suffix}`));
  });

  it('serves the API catalog as a linkset, and its Link on HEAD', async () => {
    const response = await fetch(`${server.baseUrl}/.well-known/api-catalog`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
    publicHeaders(response);
    const { linkset } = (await response.json()) as { linkset: { anchor: string; 'service-desc': { href: string }[] }[] };
    expect(linkset[0]).toMatchObject({
      anchor: `${server.baseUrl}/api/v1`,
      'service-desc': [{ href: `${server.baseUrl}/openapi.json`, type: 'application/json' }],
    });
    for (const entry of linkset) {
      for (const [relation, links] of Object.entries(entry)) {
        if (relation === 'anchor') continue;
        for (const link of links as { href: string }[]) expect((await fetch(link.href)).status, link.href).toBe(200);
      }
    }
    const head = await fetch(`${server.baseUrl}/.well-known/api-catalog`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('link')).toBe('</.well-known/api-catalog>; rel="api-catalog"');
  });

  it('lists agent skills whose digests match the bytes served as text/markdown, on GET and HEAD', async () => {
    const response = await fetch(`${server.baseUrl}/.well-known/agent-skills/index.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    publicHeaders(response);
    const index = (await response.json()) as { $schema: string; skills: { name: string; type: string; description: string; url: string; digest: string }[] };
    expect(index.$schema).toBe('https://schemas.agentskills.io/discovery/0.2.0/schema.json');
    expect(index.skills.map((s) => s.name)).toEqual(['kb-query', 'kb-manage']);
    for (const skill of index.skills) {
      expect(skill.name).toMatch(/^[a-z0-9-]{1,64}$/);
      expect(skill.type).toBe('skill-md');
      expect(skill.description.length).toBeGreaterThan(20);
      expect(skill.description.length).toBeLessThanOrEqual(1024);
      const url = new URL(skill.url, `${server.baseUrl}/.well-known/agent-skills/index.json`);
      const file = await fetch(url);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      publicHeaders(file);
      const bytes = Buffer.from(await file.arrayBuffer());
      expect(skill.digest).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
      expect(bytes.toString('utf8')).toMatch(new RegExp(`^---\\nname: ${skill.name}\\ndescription: .+\\n---\\n`));
      const head = await fetch(url, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    }
  });

  it('publishes the token-signing keys as a JWKS with RFC 7638 thumbprints as kid', async () => {
    const response = await fetch(`${server.baseUrl}/oauth/jwks`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/jwk-set\+json/);
    const { keys } = (await response.json()) as { keys: Record<string, string>[] };
    expect(keys).toHaveLength(1);
    const { calculateJwkThumbprint } = await import('jose');
    for (const key of keys) {
      expect(key).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
      expect(key.d).toBeUndefined();
      expect(key.kid).toBe(await calculateJwkThumbprint(key, 'sha256'));
    }
  });
});

describe('errors', () => {
  it('does not serve OpenID configuration (MCP clients must not mistake us for an OP)', async () => {
    expect((await fetch(`${server.baseUrl}/.well-known/openid-configuration`)).status).toBe(404);
  });

  it('serves no protected-resource metadata for paths that are not protected resources', async () => {
    expect((await fetch(`${server.baseUrl}/.well-known/oauth-protected-resource/api/other`)).status).toBe(404);
  });
});
