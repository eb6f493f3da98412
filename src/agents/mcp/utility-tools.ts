/**
 * The utilities as MCP tools: the same registry and runner as `GET /api/tools` and `POST /api/tools/{id}`,
 * and the same fair share of the worker pool per client (runner.ts `options.client`).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { toolCatalogue } from '../../tools/registry.js';
import { runTool } from '../../tools/runner.js';
import type { CallNotices } from './call-notices.js';
import { guarded, type McpCaller, ok } from './context.js';

/** How often a running utility reports progress to a client that asked for it. */
export const progressIntervalMs = 1000;

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
  const ids = runnable.map((meta) => meta.id);

  server.registerTool(
    'list_utilities',
    {
      title: 'List utilities',
      description: 'The developer, PDF, image and AI utilities run_utility can run on the server, with the input schema and examples of each. Files go in and come out as Base64.',
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (extra) =>
      guarded(
        caller,
        undefined,
        async () =>
          ok({
            utilities: runnable.map(({ id, name, group, description, inputSchema, examples }) => ({ id, name, group, description, inputSchema, examples })),
          }),
        { tool: 'list_utilities', extra },
      ),
  );

  server.registerTool(
    'run_utility',
    {
      title: 'Run a utility',
      description:
        'Run a utility on an input that matches its input schema (list_utilities gives each schema with examples). ' +
        'Long runs report progress when the request carries a progressToken.',
      // `input` is checked exactly against the utility's own JSON Schema when the call runs (runner.ts), with errors
      // naming the field (/input/…). The schemas are not inlined here as a oneOf: ~22 KB, three times the rest of
      // tools/list, which every client would load into its model's context (docs/agent-surfaces.md).
      inputSchema: {
        // Advertised as an enum; checked by the runner, so an unknown id gets the catalogue's not_found with the way out.
        id: z.string().min(1).max(64).meta({ enum: ids }).describe('The utility id, e.g. "json-format".'),
        input: z
          .record(z.string(), z.unknown())
          .default({})
          .describe("The utility's input: an object matching the inputSchema that list_utilities gives for this id (files as Base64 strings)."),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded(
        caller,
        'tools:run',
        async (notices) => {
          const progress = reportProgress(notices, args.id);
          try {
            const output = await runTool(args.id, args.input, {
              location: '/input',
              client: utilityClient(caller),
              ...(timeLimitMs ? { timeLimitMs } : {}),
              onStarted: progress.started,
            });
            notices.log('info', 'utility run done', { utility: args.id });
            return ok({ id: args.id, output });
          } finally {
            progress.stop();
          }
        },
        { tool: 'run_utility', extra },
      ),
  );
}

/**
 * MCP progress for one run (only when the client sent a progressToken): "queued" at once, "running"
 * when a worker thread starts it, then every second while it runs. `progress` is the milliseconds
 * since the call came in; once running, `total` is where it ends at the latest (its time limit).
 */
function reportProgress(notices: CallNotices, id: string): { started: (limitMs: number) => void; stop: () => void } {
  if (!notices.wantsProgress) return { started: () => undefined, stop: () => undefined };
  const since = performance.now();
  const elapsed = () => Math.max(1, Math.round(performance.now() - since));
  let timer: NodeJS.Timeout | undefined;
  notices.progress(0, undefined, `${id}: waiting for a worker thread`);
  return {
    started(limitMs) {
      const startedAt = elapsed();
      const total = startedAt + limitMs;
      const tick = () => notices.progress(elapsed(), total, `${id}: running (stopped after ${limitMs / 1000} s at most)`);
      tick();
      timer = setInterval(tick, progressIntervalMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
