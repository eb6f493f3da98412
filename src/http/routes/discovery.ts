/**
 * Discovery documents (product.md §7, standards.md §1 and §5): OAuth
 * authorization-server metadata (RFC 8414, `issuer` = PUBLIC_URL exactly),
 * protected-resource metadata (RFC 9728) at the root and path-suffixed for
 * each protected API (each `resource` equal to the identifier its URL is built
 * from), the API catalog (RFC 9727) and the agent-skills index with its
 * SKILL.md files. Public, CORS `*`, cacheable for an hour. The MCP server
 * card, A2A agent card and Web Bot Auth directory are served elsewhere; other
 * features add their APIs to the catalog through `catalogEntries`.
 */
import type { FastifyReply } from 'fastify';
import type { Skill } from '../../agents/skills/index.js';
import { supportedAuthMethods, supportedGrantTypes } from '../../identity/oauth/client-metadata.js';
import { idJagTokenType } from '../../identity/oauth/id-jag.js';
import { credentialTypes } from '../../identity/oauth/registration-service.js';
import type { Resources } from '../../identity/oauth/scopes.js';
import type { App } from '../types.js';

export interface LinksetEntry {
  anchor: string;
  [relation: string]: string | { href: string; type?: string; title?: string }[];
}

export interface DiscoveryOptions {
  publicUrl: string;
  resources: Resources;
  skills: Skill[];
  /** More APIs for the catalog (e.g. the MCP server, the A2A endpoint), added by their features. */
  catalogEntries?: LinksetEntry[];
}

export const apiCatalogType = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';
const skillsSchema = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';
const apiScopes = ['kb:read', 'kb:write', 'tools:run'];

function publicDocument(reply: FastifyReply, type = 'application/json; charset=utf-8'): FastifyReply {
  return reply.header('content-type', type).header('access-control-allow-origin', '*').header('cache-control', 'public, max-age=3600');
}

export function authorizationServerMetadata(o: string): Record<string, unknown> {
  return {
    issuer: o,
    authorization_endpoint: `${o}/oauth/authorize`,
    token_endpoint: `${o}/oauth/token`,
    registration_endpoint: `${o}/oauth/register`,
    revocation_endpoint: `${o}/oauth/revoke`,
    introspection_endpoint: `${o}/oauth/introspect`,
    jwks_uri: `${o}/oauth/jwks`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: supportedGrantTypes,
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: supportedAuthMethods,
    revocation_endpoint_auth_methods_supported: supportedAuthMethods,
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: [...apiScopes, 'mcp'],
    authorization_response_iss_parameter_supported: true,
    // A client_id may be the https URL of the client's metadata document (identity/oauth/client-id-documents.ts).
    client_id_metadata_document_supported: true,
    authorization_grant_profiles_supported: ['urn:ietf:params:oauth:grant-profile:id-jag'],
    service_documentation: `${o}/docs`,
    agent_auth: {
      register_uri: `${o}/oauth/register`,
      claim_uri: `${o}/oauth/claim`,
      identity_types_supported: ['anonymous', 'identity_assertion'],
      identity_assertion: { assertion_types_supported: [idJagTokenType, 'verified_email'] },
      credential_types_supported: [...credentialTypes],
    },
  };
}

export function discoveryRoutes(app: App, options: DiscoveryOptions): void {
  const { publicUrl: o, resources, skills } = options;
  const protectedResource = (resource: string, name: string, scopes: string[]) => ({
    resource,
    authorization_servers: [o],
    scopes_supported: scopes,
    bearer_methods_supported: ['header'],
    resource_name: name,
    resource_documentation: `${o}/docs`,
  });
  const documents: Record<string, unknown> = {
    '/.well-known/oauth-authorization-server': authorizationServerMetadata(o),
    // The root document describes the service as a whole: a token for it serves every API below.
    '/.well-known/oauth-protected-resource': protectedResource(o, 'Groundwork', [...apiScopes, 'mcp']),
    '/.well-known/oauth-protected-resource/api/v1': protectedResource(resources.rest, 'Groundwork management API', apiScopes),
    '/.well-known/oauth-protected-resource/api/mcp': protectedResource(resources.mcp, 'Groundwork MCP server', ['mcp', ...apiScopes]),
  };
  for (const [path, document] of Object.entries(documents)) {
    app.get(path, { schema: { hide: true } }, async (_request, reply) => publicDocument(reply).send(document));
  }

  const catalog = {
    linkset: [
      {
        anchor: resources.rest,
        'service-desc': [{ href: `${o}/openapi.json`, type: 'application/json' }],
        'service-doc': [{ href: `${o}/docs`, type: 'text/html' }],
        status: [{ href: `${o}/healthz`, type: 'application/json' }],
      },
      ...(options.catalogEntries ?? []),
    ],
  };
  const catalogBytes = Buffer.from(JSON.stringify(catalog));
  app.get('/.well-known/api-catalog', { schema: { hide: true } }, async (_request, reply) =>
    // A Buffer, so the media type goes out exactly as RFC 9727 names it (no charset appended).
    publicDocument(reply, apiCatalogType).header('link', '</.well-known/api-catalog>; rel="api-catalog"').send(catalogBytes),
  );

  const index = {
    $schema: skillsSchema,
    skills: skills.map((s) => ({
      name: s.name,
      type: 'skill-md',
      description: s.description,
      url: `/.well-known/agent-skills/${s.name}/SKILL.md`,
      digest: s.digest,
    })),
  };
  app.get('/.well-known/agent-skills/index.json', { schema: { hide: true } }, async (_request, reply) => publicDocument(reply).send(index));
  for (const skill of skills) {
    app.get(`/.well-known/agent-skills/${skill.name}/SKILL.md`, { schema: { hide: true } }, async (_request, reply) =>
      publicDocument(reply, 'text/markdown; charset=utf-8').send(skill.bytes),
    );
  }
}
