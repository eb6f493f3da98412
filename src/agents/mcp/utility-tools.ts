/**
 * The utilities as MCP tools: the same registry and runner as `GET /api/tools` and `POST /api/tools/{id}`,
 * and the same fair share of the worker pool per client (runner.ts `options.client`).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { toolCatalogue } from '../../tools/registry.js';
import { runTool } from '../../tools/runner.js';
import { guarded, type McpCaller, ok } from './context.js';

/**
 * The pool bucket of an MCP caller (docs/utilities.md, "Fair use of the worker pool"): the account
 * its bearer token acts for (every MCP request has one: routes/mcp.ts refuses requests without),
 * never one bucket shared by every agent, so one agent's flood cannot fill another's share.
 */
export function utilityClient(caller: Pick<McpCaller, 'accountId'>): string {
  return `account:${caller.accountId}`;
}

export function registerUtilityTools(server: McpServer, caller: McpCaller, timeLimitMs?: number): void {
  const runnable = toolCatalogue.filter((meta) => meta.api);

  server.registerTool(
    'list_utilities',
    {
      title: 'List utilities',
      description: 'The developer, PDF, image and AI utilities run_utility can run on the server, with the input schema and examples of each. Files go in and come out as Base64.',
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      guarded(caller, undefined, async () =>
        ok({
          utilities: runnable.map(({ id, name, group, description, inputSchema, examples }) => ({ id, name, group, description, inputSchema, examples })),
        }),
      ),
  );

  server.registerTool(
    'run_utility',
    {
      title: 'Run a utility',
      description: `Run a utility on an input that matches its input schema (see list_utilities). Ids: ${runnable.map((m) => m.id).join(', ')}.`,
      inputSchema: {
        id: z.string().min(1).max(64).describe('The utility id, e.g. "json-format".'),
        input: z.record(z.string(), z.unknown()).default({}).describe("The utility's input object."),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(caller, 'tools:run', async () => {
        const output = await runTool(args.id, args.input, { location: '/input', client: utilityClient(caller), ...(timeLimitMs ? { timeLimitMs } : {}) });
        return ok({ id: args.id, output });
      }),
  );
}
