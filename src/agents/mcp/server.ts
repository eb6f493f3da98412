/**
 * The MCP server (official SDK, protocol 2025-11-25): one McpServer per HTTP
 * request, bound to the request's authenticated account. See
 * src/http/routes/mcp.ts for the transport and docs/agents.md for why the
 * server is stateless.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpCaller, McpServices } from './context.js';
import { registerKnowledgeTools } from './kb-tools.js';
import { registerUtilityTools } from './utility-tools.js';

export const mcpServerName = 'groundwork';
export const mcpServerVersion = '1.0.0';
export const mcpProtocolVersion = '2025-11-25';

const instructions =
  'Groundwork answers questions from knowledge bases you fill, and only from them, with citations. ' +
  'Typical flow: list_knowledge_bases (or create_knowledge_base), add_records, then query_knowledge_base or search_knowledge_base. ' +
  'create_api_key makes a key for the public query API and the website chat widget. list_utilities and run_utility give small developer utilities.';

export function createMcpServer(caller: McpCaller, services: McpServices): McpServer {
  const server = new McpServer(
    { name: mcpServerName, title: 'Groundwork', version: mcpServerVersion, websiteUrl: services.publicUrl },
    { capabilities: { tools: { listChanged: false } }, instructions },
  );
  registerKnowledgeTools(server, caller, services);
  registerUtilityTools(server, caller, services.toolTimeLimitMs);
  return server;
}
