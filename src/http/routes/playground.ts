/**
 * The owner's Playground (docs/playground.md): `POST /api/v1/knowledge-bases/{ragId}/playground/query`
 * (JSON, the `Answer` of /api/v1/query) and `…/playground/query/stream` (the SSE events of
 * /api/v1/query/stream). Management authentication (session + CSRF, or bearer) instead of a query
 * key: no key, no whitelist, the knowledge base must be the caller's. The answer is the widget's —
 * same answerer, same cache — written by the same functions as the public routes; only the limits
 * (the account's Playground limits, not the visitors' quota), the usage statistics and a refusal's
 * `unknownWords` differ, and all three are OwnerQueries' business.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { OwnerQueries } from '../../knowledge/query/owner-query.js';
import { rateLimitHeaders } from '../../limits/headers.js';
import { combineDecisions } from '../../limits/rules.js';
import type { Metrics } from '../../ops/metrics.js';
import type { LimitDecision } from '../../ports/rate-limiter.js';
import { accountOf } from '../plugins/auth.js';
import { accountSecurity, errorResponses, PlaygroundAnswer, PlaygroundQueryBody, RagIdParams } from '../schemas.js';
import type { App } from '../types.js';
import { type AnswerStreams, sendAnswer } from './query.js';
import { streamAnswer } from './query-stream.js';

const tags = ['Playground'];
const security = accountSecurity;

const about =
  "Asked as the knowledge base's owner: no query key and no domain whitelist; the knowledge base must be the caller's (404 otherwise). " +
  'The answer is exactly what the website widget would get (the same answerer and answer cache; `sources[].title` is the record title to show); ' +
  'a refusal also comes with `unknownWords`, the words of the question no record uses, which a visitor never gets. ' +
  "It counts toward the account's own Playground limits (PLAYGROUND_QUERIES_PER_MINUTE, PLAYGROUND_QUERIES_PER_DAY; 429 `rate_limited` with `limit` " +
  '`playground_minute` or `playground_day`), never toward the knowledge base\'s visitor quota, and is not recorded in the usage statistics. ' +
  'With the session cookie, send X-CSRF-Token.';

/** RateLimit headers for the whole-service limit and the Playground's (no CORS: the Playground is the dashboard's own origin). */
function limitHeaders(request: FastifyRequest, decision: LimitDecision): Record<string, string> {
  const decisions = [request.ipLimit, decision].filter((d): d is LimitDecision => d !== undefined);
  return rateLimitHeaders(combineDecisions(...decisions));
}

export interface PlaygroundRouteDeps {
  owners: OwnerQueries;
  metrics: Metrics;
  heartbeatMs: number;
  streams: AnswerStreams;
}

export function playgroundRoutes(app: App, deps: PlaygroundRouteDeps): void {
  const { owners, metrics } = deps;

  app.post(
    '/api/v1/knowledge-bases/:ragId/playground/query',
    {
      onRequest: app.requireAccount('kb:read'),
      schema: {
        tags,
        security,
        summary: 'Ask your own knowledge base a question, as the Playground does; get the answer with citations',
        description: about,
        params: RagIdParams,
        body: PlaygroundQueryBody,
        response: { 200: PlaygroundAnswer, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      const admitted = await owners.admitPlayground(accountOf(request), request.params.ragId, request.body);
      return sendAnswer(owners.queries, metrics, admitted, request, reply as unknown as FastifyReply, {
        endpoint: 'playground',
        headers: limitHeaders(request, admitted.limits),
      });
    },
  );

  app.post(
    '/api/v1/knowledge-bases/:ragId/playground/query/stream',
    {
      onRequest: app.requireAccount('kb:read'),
      schema: {
        tags,
        security,
        summary: 'Ask your own knowledge base a question, as the Playground does; get the answer as Server-Sent Events',
        description:
          `${about} The events are those of POST /api/v1/query/stream: \`meta\` {requestId, cached}; \`sources\` {sources}; \`token\` {text} repeated; ` +
          '`done` {answer, sources, grounded, cached, fallback?, smallTalk?, suggestions?, unknownWords?} (its `answer` is final; `suggestions` and `unknownWords` as in the JSON answer); `error` {code, message}. ' +
          'Errors before the stream starts (auth, CSRF, ownership, limits, validation) are ordinary problem documents.',
        params: RagIdParams,
        body: PlaygroundQueryBody,
        produces: ['text/event-stream'],
        response: { 200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: Type.String() } } }, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      const admitted = await owners.admitPlayground(accountOf(request), request.params.ragId, request.body);
      await streamAnswer(request, reply, owners.queries, admitted, {
        heartbeatMs: deps.heartbeatMs,
        headers: limitHeaders(request, admitted.limits),
        metrics,
        active: deps.streams.active,
        turns: deps.streams.turns,
        endpoint: 'playground_stream',
      });
    },
  );
}
