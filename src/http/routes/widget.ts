/**
 * The embeddable widget (docs/widget.md): `GET /widget.js`, the bundle Vite
 * builds into `dist/widget/widget.js` (`npm run build:widget`), and
 * `GET /api/v1/widget/config`, the bot's name, greeting, starter questions and theme after the
 * same key and whitelist checks as a query, without counting as one.
 *
 * The config endpoint takes the key in the query string as well as in
 * `X-API-Key`: a GET without custom headers is a CORS "simple" request, so
 * the browser sends it without a preflight from any origin, and the answer —
 * success or refusal — carries CORS headers for the caller. A page that is
 * not on the whitelist therefore learns that it is refused (403
 * `origin_not_allowed`) and the widget can say so, where a preflighted
 * request would only fail as an unreadable network error. The key is public
 * anyway (it is in the page's HTML); the whitelist is what protects it, and
 * the request log drops query strings.
 */
import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { QueryService } from '../../knowledge/query/query-service.js';
import { type CompressedFile, compressFile, sendCompressed } from '../compressed.js';
import { sendProblem } from '../problem.js';
import { corsHeadersFor } from '../plugins/query-cors.js';
import { errorResponses, WidgetConfig } from '../schemas.js';
import type { App } from '../types.js';

/** From `src/http/routes` (tsx) and `dist/http/routes` (built) alike: `<project>/dist/widget/widget.js`. */
export const widgetBundlePath = fileURLToPath(new URL('../../../dist/widget/widget.js', import.meta.url));

interface Bundle {
  mtimeMs: number;
  /** The bundle with its brotli and gzip forms, made once per build (never per request). */
  file: Promise<CompressedFile>;
}

export interface WidgetRouteOptions {
  publicUrl: string;
  /** Where the built bundle is; `widgetBundlePath` by default. */
  bundlePath?: string;
}

export function widgetRoutes(app: App, queries: QueryService, options: WidgetRouteOptions): void {
  const bundlePath = options.bundlePath ?? widgetBundlePath;
  let cached: Bundle | undefined;

  /**
   * The bundle, re-read and re-compressed only when the file changes (a rebuild while the service
   * runs is picked up); concurrent first requests share one read and one compression.
   */
  async function bundle(): Promise<CompressedFile | undefined> {
    const stat = await fs.stat(bundlePath).catch(() => undefined);
    if (!stat) return undefined;
    if (cached?.mtimeMs !== stat.mtimeMs) {
      const file = fs.readFile(bundlePath).then(compressFile);
      cached = { mtimeMs: stat.mtimeMs, file };
      file.catch(() => {
        if (cached?.file === file) cached = undefined;
      });
    }
    return cached.file.catch(() => undefined);
  }

  app.get('/widget.js', { schema: { hide: true } }, async (request: FastifyRequest, reply: FastifyReply) => {
    const found = await bundle();
    if (!found) {
      request.log.warn({ bundlePath }, 'widget bundle missing: run npm run build:widget');
      return sendProblem(reply, options.publicUrl, 'not_found', 'The widget has not been built on this server (npm run build:widget).');
    }
    reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('access-control-allow-origin', '*')
      .header('cross-origin-resource-policy', 'cross-origin');
    return sendCompressed(request, reply, found);
  });

  app.get(
    '/api/v1/widget/config',
    {
      schema: {
        tags: ['Widget'],
        summary: "The widget's bot name, greeting, starter questions, fallback message and theme",
        description:
          'Checks the key and the caller\'s Origin/Referer against the key\'s whitelist exactly as a query does, but counts as no query. ' +
          'Pass the key as `key` in the query string (a simple CORS request: no preflight, so refused pages can read why) or in `X-API-Key`. ' +
          'Success and error responses carry CORS headers for the calling origin.',
        querystring: Type.Object(
          {
            ragId: Type.String({ minLength: 1, maxLength: 64 }),
            key: Type.Optional(Type.String({ maxLength: 200, description: 'The knowledge base key; or send X-API-Key' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: WidgetConfig, ...errorResponses(401, 403, 422, 429) },
      },
      // Refusals carry CORS too, so the widget can tell "not allowed here" from a network failure.
      onSend: async (request: FastifyRequest, reply: FastifyReply) => {
        reply.headers(corsHeadersFor(request));
        if (reply.statusCode >= 400) reply.header('cache-control', 'no-store');
      },
    },
    async (request, reply) => {
      const header = request.headers['x-api-key'];
      const { kb } = await queries.authorise({
        apiKey: request.query.key ?? (typeof header === 'string' ? header : undefined),
        ragId: request.query.ragId,
        origin: request.headers.origin,
        referer: request.headers.referer,
      });
      reply.header('cache-control', 'private, max-age=60');
      return { botName: kb.botName, greeting: kb.greeting, starterQuestions: kb.starterQuestions, fallbackMessage: kb.fallbackMessage, theme: kb.theme, allowed: true as const };
    },
  );
}
