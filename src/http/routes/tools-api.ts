/**
 * The utilities' public JSON API (product.md §9): `GET /api/tools` lists the
 * catalogue, `POST /api/tools/{id}` runs a server-capable tool on a JSON body
 * that is the tool's input. No account needed; the per-IP limit applies like
 * everywhere; bodies up to 1 MB. Open CORS without credentials: the same tools
 * run in any page, so there is nothing to protect from other origins.
 */
import { isIPv6 } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { DomainError } from '../../errors.js';
import { findTool, toolCatalogue, toolWeight } from '../../tools/registry.js';
import { runTool } from '../../tools/runner.js';
import type { ToolMeta } from '../../tools/types.js';
import { isMultipartBody } from '../multipart-body.js';
import { errorResponses } from '../schemas.js';
import type { App } from '../types.js';

const tags = ['Utilities'];
/** The route's body limit: the largest tool's; each tool's own limit is checked from Content-Length first. */
export const toolBodyLimit = Math.max(...toolCatalogue.map((meta) => meta.limits.maxInputBytes)) + 1024;

const ToolParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

export function toolSummary(meta: ToolMeta) {
  return {
    ...meta,
    page: `/tools/${meta.id}`,
    endpoint: meta.api ? `/api/tools/${meta.id}` : null,
    // Which server lane runs it (docs/utilities.md, "Fair use of the worker pool").
    weight: toolWeight(findTool(meta.id) ?? { meta }),
  };
}

/**
 * Whose share of the utility queue a run uses: a verified signed bot's key, else the client's
 * address (X-Forwarded-For only from a TRUST_PROXY proxy, as Fastify's `request.ip`). IPv6
 * addresses count per /64, the block one subscriber usually holds, so rotating addresses within
 * it does not multiply the share.
 */
export function toolClient(request: Pick<FastifyRequest, 'ip'> & { botKey?: string }): string {
  if (request.botKey) return `bot:${request.botKey}`;
  const ip = request.ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  if (!isIPv6(ip)) return `ip:${ip}`;
  const [head = '', tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `ip:${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

function cors(reply: FastifyReply): FastifyReply {
  return reply.header('access-control-allow-origin', '*');
}

export interface ToolsApiOptions {
  /** TOOL_TIME_LIMIT_MS */
  timeLimitMs?: number;
}

export function toolsApiRoutes(app: App, options: ToolsApiOptions = {}): void {
  const catalogue = { tools: toolCatalogue.map(toolSummary) };

  app.get(
    '/api/tools',
    {
      schema: {
        tags,
        summary: 'List the utilities',
        description: 'Every utility with its input schema and examples; `endpoint` is null for tools that run only in the browser.',
      },
    },
    async (_request, reply) => cors(reply).header('cache-control', 'public, max-age=300').send(catalogue),
  );

  app.options('/api/tools/:id', { schema: { hide: true } }, async (_request, reply) =>
    cors(reply)
      .header('access-control-allow-methods', 'POST')
      .header('access-control-allow-headers', 'content-type')
      .header('access-control-max-age', '86400')
      .code(204)
      .send(),
  );

  app.post(
    '/api/tools/:id',
    {
      bodyLimit: toolBodyLimit,
      // On the request, so refusals (validation, 413, 429 from later hooks) carry it too.
      onRequest: async (request, reply) => {
        cors(reply);
        // Refuse a body over this tool's own limit before reading it.
        const limit = findTool((request.params as { id?: string }).id ?? '')?.meta.limits.maxInputBytes;
        const length = Number(request.headers['content-length']);
        if (limit !== undefined && Number.isFinite(length) && length > limit + 1024) {
          throw new DomainError('payload_too_large', `The input of this utility may be at most ${limit} bytes.`, { limitBytes: limit });
        }
      },
      schema: {
        tags,
        summary: 'Run a utility',
        description:
          "The body is the tool's input as JSON (see its `inputSchema` in `GET /api/tools`; no body means `{}`); the answer is its output. " +
          'The input is validated against the tool schema exactly: 422 with `errors[].location` under `/body`.',
        params: ToolParams,
        response: errorResponses(400, 404, 413, 415, 422, 429, 503),
      },
    },
    async (request, reply) => {
      const type = request.headers['content-type'];
      // A multipart body is never read here (its parser leaves `body` undefined), so it is refused by its type.
      if ((request.body !== undefined || isMultipartBody(request)) && type !== undefined && !/^application\/json\s*(;|$)/i.test(type)) {
        throw new DomainError('unsupported_media_type', 'Send the input as application/json.');
      }
      const output = await runTool(request.params.id, request.body, {
        location: '/body',
        client: toolClient(request),
        ...(options.timeLimitMs ? { timeLimitMs: options.timeLimitMs } : {}),
      });
      return reply.header('cache-control', 'no-store').send(output);
    },
  );
}
