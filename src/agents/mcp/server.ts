/**
 * The MCP server (official SDK, protocol 2025-11-25): one McpServer per HTTP
 * request, bound to the request's authenticated account. See
 * src/http/routes/mcp.ts for the transport and docs/agents.md for why the
 * server is stateless.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SetLevelRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpCaller, McpServices } from './context.js';
import { registerKnowledgeTools } from './kb-tools.js';
import { mcpServerName, mcpServerVersion } from './names.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { registerUsageTools } from './usage-tools.js';
import { registerUtilityTools } from './utility-tools.js';


const instructions =
  'Groundwork answers questions from knowledge bases you fill, and only from them, with citations. ' +
  'Typical flow: list_knowledge_bases (or create_knowledge_base), add_records, then query_knowledge_base or search_knowledge_base. ' +
  'create_api_key makes a key for the public query API and the website chat widget. ' +
  "get_usage lists visitors' questions the records did not answer, with the words of each no record uses (add a record, or a synonym with update_knowledge_base), " +
  'and the questions whose answers visitors marked not helpful, with the records cited; dismiss_usage_question takes one off once dealt with. ' +
  'list_utilities and run_utility give small developer utilities. ' +
  'Knowledge bases and their records are also resources (groundwork://kb/{ragId}, groundwork://kb/{ragId}/records/{recordId}).';

/**
 * Capabilities: tools, resources, prompts, completions and logging. Nothing is advertised as
 * `listChanged` or `subscribe`: each request gets its own server with a fixed tool, prompt and
 * template list, and a stateless server has no stream to announce a change on.
 */
export function createMcpServer(caller: McpCaller, services: McpServices): McpServer {
  const server = new McpServer(
    { name: mcpServerName, title: 'Groundwork', version: mcpServerVersion, websiteUrl: services.publicUrl },
    { capabilities: { tools: {}, logging: {} }, instructions },
  );
  registerKnowledgeTools(server, caller, services);
  registerUsageTools(server, caller, services);
  registerUtilityTools(server, caller, services.toolTimeLimitMs);
  // McpServer advertises tools.listChanged on the first registerTool; this server never sends it.
  server.server.registerCapabilities({ tools: { listChanged: false } });
  registerResources(server, caller, services);
  registerPrompts(server, caller, services);
  // The level outlives this per-request server: it is kept for the account (log-levels.ts).
  server.server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    await services.logLevels.set(caller.accountId, request.params.level);
    return {};
  });
  return server;
}
