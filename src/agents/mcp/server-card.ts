/**
 * The MCP server card (SEP-1649 / SEP-2127, standards.md §5): served at
 * `/.well-known/mcp/server-card.json` and `{PUBLIC_URL}/api/mcp/server-card`
 * as `application/mcp-server-card+json`. Required: `$schema`, `name`
 * (`namespace/name`, the namespace being the reversed host of PUBLIC_URL),
 * `version`, `description` (≤ 100 characters). Everything it states is true
 * of the running server: the remote URL answers, the protocol version is the
 * one the transport speaks, authorization is required and discoverable.
 */
import { mcpProtocolVersion, mcpServerName, mcpServerVersion } from './names.js';

export const serverCardSchema = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
export const serverCardType = 'application/mcp-server-card+json';

/** `example.com` → `com.example`; IP literals and `localhost` stay as they are. */
export function namespaceOf(publicUrl: string): string {
  const host = new URL(publicUrl).hostname.replace(/^\[|\]$/g, '').replace(/:/g, '-');
  return /^[\d.]+$/.test(host) || !host.includes('.') ? host : host.split('.').reverse().join('.');
}

export function mcpServerCard(publicUrl: string): Record<string, unknown> {
  return {
    $schema: serverCardSchema,
    name: `${namespaceOf(publicUrl)}/${mcpServerName}`,
    title: 'Groundwork',
    version: mcpServerVersion,
    description: 'Grounded, cited answers from your own knowledge bases, plus developer utilities.',
    websiteUrl: publicUrl,
    remotes: [{ type: 'streamable-http', url: `${publicUrl}/api/mcp`, supportedProtocolVersions: [mcpProtocolVersion] }],
    // Open schema: the details agents ask for before connecting.
    authentication: {
      required: true,
      schemes: ['bearer', 'oauth2'],
      protectedResourceMetadata: `${publicUrl}/.well-known/oauth-protected-resource/api/mcp`,
    },
  };
}
