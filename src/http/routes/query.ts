/**
 * `POST /api/v1/query` (JSON answer), `POST /api/v1/search` (ranked records)
 * and `POST /api/v1/query/stream` (SSE), authenticated by `X-API-Key`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { rateLimitHeaders } from '../../limits/headers.js';
import type { LimitDecision } from '../../ports/rate-limiter.js';
import { combineDecisions } from '../../limits/rules.js';
import type { Metrics } from '../../ops/metrics.js';
import type { AdmittedQuery, DoneEvent, QueryService } from '../../knowledge/query/query-service.js';
import { andThen, isPromise, type MaybePromise } from '../../maybe-promise.js';
import { corsHeadersFor, queryPaths } from '../plugins/query-cors.js';
import { Answer as AnswerSchema, errorResponses, type PlaygroundAnswer, QueryBody, SearchBody, SearchResults } from '../schemas.js';
import type { App } from '../types.js';
import { TurnQueue } from '../turn-queue.js';
import { ActiveStreams } from '../active-streams.js';
import { streamAnswer } from './query-stream.js';
import { abortOnClose } from '../abort-on-close.js';

const tags = ['Query'];
const security = [{ apiKey: [] }];

declare module 'fastify' {
  interface FastifyRequest {
    /** The whole-service limit's decision for this request, when it was checked. */
    ipLimit?: LimitDecision;
  }
}

export function admitFrom(queries: QueryService, request: FastifyRequest, body: QueryBody): MaybePromise<AdmittedQuery> {
  const apiKey = request.headers['x-api-key'];
  return queries.admit({
    apiKey: typeof apiKey === 'string' ? apiKey : undefined,
    ragId: body.ragId,
    query: body.query,
    conversation: body.conversation,
    origin: request.headers.origin,
    referer: request.headers.referer,
    client: request.clientLimit,
  });
}

/** CORS and RateLimit headers for a query response (success or not). */
export function queryHeaders(request: FastifyRequest, decision?: LimitDecision): Record<string, string> {
  const headers = corsHeadersFor(request);
  const ip = request.ipLimit;
  // A single decision gives the fields it would give combined with nothing.
  const combined = ip === undefined ? decision : decision === undefined ? ip : combineDecisions(ip, decision);
  return combined === undefined ? headers : Object.assign(headers, rateLimitHeaders(combined));
}

/** The answer streams of every answering route: one set to drain at shutdown, one queue for their turns. */
export interface AnswerStreams {
  active: ActiveStreams;
  turns: TurnQueue;
}

interface SendOptions {
  endpoint: string;
  headers: Record<string, string>;
}

/**
 * Answers an admitted query as JSON (the `Answer` schema): from the cache, or collected from the
 * answerer. `/api/v1/query` and the owner's Playground answer through this one function. A cached
 * answer from memory is sent before it returns (src/maybe-promise.ts).
 */
export function sendAnswer(queries: QueryService, metrics: Metrics, admitted: AdmittedQuery, request: FastifyRequest, reply: FastifyReply, options: SendOptions): MaybePromise<FastifyReply> {
  return andThen(queries.cachedAnswer(admitted), (cached) => {
    if (cached.type === 'done') return sendDone(metrics, cached, request, reply, options, cached.unknownWords ? undefined : cachedBody(cached, request.id, reply));
    return queries.answerWhole(admitted, cached, request.id, () => abortOnClose(reply)).then((done) =>
      // The client left before the answer was ready: nothing to send, and no server error.
      done ? sendDone(metrics, done, request, reply, options, undefined) : reply.code(499).send(),
    );
  });
}

/** Sends the answer: `body` when the cache already holds its serialised form, otherwise serialised here. */
function sendDone(metrics: Metrics, done: DoneEvent, request: FastifyRequest, reply: FastifyReply, options: SendOptions, body: string | undefined): FastifyReply {
  metrics.queries.inc({ endpoint: options.endpoint, cached: String(done.cached), grounded: String(done.grounded) });
  if (body !== undefined) return reply.headers(options.headers).type(JSON_TYPE).send(body);
  // The Playground's schema is the public one plus `unknownWords`, which only its queries carry.
  const result: Static<typeof PlaygroundAnswer> = {
    answer: done.answer,
    sources: done.sources,
    grounded: done.grounded,
    cached: done.cached,
    ...(done.fallback ? { fallback: true } : {}),
    ...(done.smallTalk ? { smallTalk: true } : {}),
    ...(done.suggestions ? { suggestions: done.suggestions } : {}),
    ...(done.unknownWords ? { unknownWords: done.unknownWords } : {}),
    requestId: request.id,
  };
  return reply.headers(options.headers).send(result);
}

const JSON_TYPE = 'application/json; charset=utf-8';
/** What the route's serializer writes last for an empty request id: the id is the schema's last field. */
const REQUEST_ID_TAIL = '"requestId":""}';

/**
 * The body of a cached answer from the in-process cache, which hands out one frozen entry for every
 * hit: the route's own serializer runs once per entry (its output up to the request id is kept,
 * keyed by the entry's frozen `sources`), and each hit adds its request id. Undefined for anything
 * else (a Redis hit is a fresh copy each time); the caller then serializes as usual.
 */
function cachedBody(done: Pick<DoneEvent, 'answer' | 'sources' | 'grounded' | 'fallback' | 'suggestions'>, requestId: string, reply: FastifyReply): string | undefined {
  const { sources } = done;
  if (done.fallback || !Object.isFrozen(sources)) return undefined;
  const serialize = reply.getSerializationFunction('200');
  if (serialize === undefined) return undefined;
  let kept = cachedPrefixes.get(sources);
  // Another route (its own schema, so its own serializer) may serve the same entry: one prefix each.
  if (kept?.serialize !== serialize) {
    const whole = serialize({ answer: done.answer, sources, grounded: done.grounded, cached: true, ...(done.suggestions ? { suggestions: done.suggestions } : {}), requestId: '' });
    if (!whole.endsWith(REQUEST_ID_TAIL)) return undefined;
    kept = { serialize, prefix: whole.slice(0, -'""}'.length) };
    cachedPrefixes.set(sources, kept);
  }
  return `${kept.prefix}${JSON.stringify(requestId)}}`;
}

const cachedPrefixes = new WeakMap<readonly unknown[], { serialize: (value: { [key: string]: unknown }) => string; prefix: string }>();

export function queryRoutes(app: App, queries: QueryService, metrics: Metrics, heartbeatMs: number): AnswerStreams {
  const active = new ActiveStreams();
  const turns = new TurnQueue();
  // Hijacked streams are invisible to Fastify's close: end them ourselves (product.md §10).
  app.addHook('preClose', async () => active.drain(5000));

  // Error responses of these routes need CORS too, so the widget can read why it was refused.
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload, done) => {
    if (reply.statusCode >= 400 && request.method === 'POST' && queryPaths.includes(request.routeOptions.url ?? '')) {
      reply.headers(corsHeadersFor(request));
    }
    done(null, payload);
  });

  // With Redis the query takes the client's whole-service limit in its one admission round trip.
  const config = { clientLimitInHandler: true };
  app.post(
    '/api/v1/query',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Ask a question; get a grounded answer with citations',
        body: QueryBody,
        response: { 200: AnswerSchema, ...errorResponses(401, 403, 422, 429) },
      },
    },
    // Not async: a query answered from memory is sent before the handler returns, with no promise
    // to settle (src/maybe-promise.ts); otherwise Fastify waits on the promise returned.
    (request, reply) => {
      const sent = andThen(admitFrom(queries, request, request.body), (admitted) =>
        sendAnswer(queries, metrics, admitted, request, reply as unknown as FastifyReply, { endpoint: 'query', headers: queryHeaders(request, admitted.limits) }),
      );
      return isPromise(sent) ? sent.then(() => undefined) : undefined;
    },
  );

  app.post(
    '/api/v1/search',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Ranked records for a query, without an answer',
        body: SearchBody,
        response: { 200: SearchResults, ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request, reply) => {
      const admitted = await admitFrom(queries, request, request.body);
      const results = await queries.search(admitted, request.body.limit ?? 10);
      metrics.queries.inc({ endpoint: 'search', cached: 'false', grounded: String(results.length > 0) });
      return reply.headers(queryHeaders(request, admitted.limits)).send({ results, requestId: request.id });
    },
  );

  app.post(
    '/api/v1/query/stream',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Ask a question; get the answer as Server-Sent Events',
        description:
          'Events (each with an `id:`): `meta` {requestId, cached} at once; `sources` {sources} after retrieval; `token` {text} repeated; ' +
          '`done` {answer, sources, grounded, cached, fallback?, smallTalk?, suggestions?} — its `answer` is final and replaces the streamed tokens; `error` {code, message} if something fails mid-stream. Comment heartbeats every 15 s. ' +
          'Errors before the stream starts (auth, whitelist, limits, validation) are ordinary problem documents.',
        body: QueryBody,
        produces: ['text/event-stream'],
        response: { 200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: Type.String() } } }, ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request, reply) => {
      const admitted = await admitFrom(queries, request, request.body);
      await streamAnswer(request, reply, queries, admitted, { heartbeatMs, headers: queryHeaders(request, admitted.limits), metrics, active, turns });
    },
  );
  return { active, turns };
}
