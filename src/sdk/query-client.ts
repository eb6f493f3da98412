/**
 * A typed client for the public query API (docs/widget.md, product.md §5),
 * shared by the chat widget and the dashboard's Playground. Plain functions
 * rather than a class so a bundler keeps only what a caller imports; no
 * dependencies and no DOM, so it runs in browsers and in Node 20.
 */
// The wire types, derived from the schemas the server validates with (`import type`: no TypeBox in the widget).
import type { Answer, Citation, FeedbackBody, QueryBody, SearchBody, SearchHit, SearchResults, Suggestion, Turn, WidgetConfig } from './api-schemas.js';
import { readSse } from './sse.js';

export { maxConversationTurns, maxTurnChars, recentTurns, type Turn } from './conversation.js';
export type { Answer, Citation, FeedbackBody, QueryBody, SearchBody, SearchHit, SearchResults, Suggestion, WidgetConfig } from './api-schemas.js';
/** The widget's look, as `WidgetConfig.theme` carries it (the management API's `Theme`). */
export type { Theme as WidgetTheme } from './api-schemas.js';

export interface QueryTarget {
  /** The service's origin, e.g. `https://groundwork.example` (no trailing slash needed). */
  baseUrl: string;
  ragId: string;
  /** The knowledge base's query key (`gw_live_…`). */
  apiKey: string;
  /** Another `fetch` (tests, instrumentation); the global one by default. */
  fetch?: typeof fetch;
}

export interface QueryOptions {
  /**
   * The earlier turns of this chat, oldest first, so a follow-up ("And how much is that?") is
   * understood in context: at most 10, each 1 to 2,000 characters after trimming (`recentTurns`
   * makes a session's turns fit). Not the new question itself. The assistant turns are the answers as
   * they came back: a follow-up about a product is taken to be about the product the last one named.
   */
  conversation?: readonly Turn[];
}

/**
 * The events of `POST /api/v1/query/stream`, by their SSE event name (the OpenAPI document
 * describes them in prose only; test/sdk/types.test.ts pins `done` to `Answer` and the rest to the
 * server's events).
 */
export type StreamEvent =
  | { type: 'meta'; requestId: string; cached: boolean; id: string }
  | { type: 'sources'; sources: Citation[]; id: string }
  | { type: 'token'; text: string; id: string }
  | { type: 'done'; answer: string; sources: Citation[]; grounded: boolean; cached: boolean; fallback?: boolean; smallTalk?: boolean; suggestions?: Suggestion[]; id: string }
  | { type: 'error'; code: string; message: string; id: string };

/**
 * A refused or failed call. `status` is the HTTP status, or 0 when no
 * response could be read (network failure, CORS refusal, an aborted request
 * has `code` `aborted`). For 429, `retryAfterMs` comes from the body or the
 * `Retry-After` header and `limit` names the limit (`minute`, `day`, `ip`).
 */
export class QueryError extends Error {
  override readonly name = 'QueryError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: { limit?: string; retryAfterMs?: number; requestId?: string } = {},
  ) {
    super(message);
  }
}

const base = (t: QueryTarget) => t.baseUrl.replace(/\/+$/, '');

async function call(target: QueryTarget, path: string, init: RequestInit): Promise<Response> {
  const doFetch = target.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(base(target) + path, { credentials: 'omit', ...init });
  } catch (error) {
    const aborted = (error as { name?: string } | null)?.name === 'AbortError';
    throw new QueryError(0, aborted ? 'aborted' : 'network_error', aborted ? 'The request was cancelled.' : 'The service could not be reached.');
  }
  if (!response.ok) throw await errorFrom(response);
  return response;
}

/** A QueryError from an error response (an RFC 9457 problem document when the service sent one). */
export async function errorFrom(response: Response): Promise<QueryError> {
  let problem: Record<string, unknown> = {};
  try {
    problem = ((await response.json()) as Record<string, unknown> | null) ?? {};
  } catch {
    // not JSON: keep the status alone
  }
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const details: QueryError['details'] = {};
  const limit = str(problem.limit);
  if (limit) details.limit = limit;
  const requestId = str(problem.requestId) ?? response.headers.get('x-request-id') ?? undefined;
  if (requestId) details.requestId = requestId;
  const retryHeader = Number(response.headers.get('retry-after'));
  const retryAfterMs = typeof problem.retryAfterMs === 'number' ? problem.retryAfterMs : retryHeader > 0 ? retryHeader * 1000 : undefined;
  if (retryAfterMs !== undefined) details.retryAfterMs = retryAfterMs;
  return new QueryError(response.status, str(problem.code) ?? `http_${response.status}`, str(problem.detail) ?? (response.statusText || `HTTP ${response.status}`), details);
}

function jsonPost(target: QueryTarget, body: unknown, signal: AbortSignal | undefined, accept = 'application/json'): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept, 'x-api-key': target.apiKey },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  };
}

/** The body of a query: `conversation` only when there is one, so a first question is sent as before. */
function queryBody(target: QueryTarget, question: string, options: QueryOptions): QueryBody {
  const { conversation } = options;
  return { ragId: target.ragId, query: question, ...(conversation?.length ? { conversation: [...conversation] } : {}) };
}

/** `POST /api/v1/query`: the whole answer at once. */
export async function query(target: QueryTarget, question: string, signal?: AbortSignal, options: QueryOptions = {}): Promise<Answer> {
  const response = await call(target, '/api/v1/query', jsonPost(target, queryBody(target, question, options), signal));
  return (await response.json()) as Answer;
}

/** `POST /api/v1/search`: ranked records, no answer. */
export async function search(target: QueryTarget, question: string, limit = 10, signal?: AbortSignal): Promise<SearchHit[]> {
  const body: SearchBody = { ragId: target.ragId, query: question, limit };
  const response = await call(target, '/api/v1/search', jsonPost(target, body, signal));
  return ((await response.json()) as SearchResults).results;
}

/**
 * `POST /api/v1/query/stream`: yields `meta`, `sources`, `token`… and ends
 * with `done` (whose `answer` is authoritative: replace the streamed tokens
 * with it) or `error`. Refusals before the stream starts throw a QueryError;
 * so does a stream that ends without `done` or `error`. Abort with `signal`.
 */
export async function* streamQuery(target: QueryTarget, question: string, signal?: AbortSignal, options: QueryOptions = {}): AsyncGenerator<StreamEvent> {
  const response = await call(target, '/api/v1/query/stream', jsonPost(target, queryBody(target, question, options), signal, 'text/event-stream'));
  if (!response.body) throw new QueryError(0, 'stream_failed', 'The response had no body.');
  try {
    if (yield* answerEvents(response.body)) return;
  } catch (error) {
    if (signal?.aborted) throw new QueryError(0, 'aborted', 'The request was cancelled.');
    throw new QueryError(0, 'stream_failed', error instanceof Error ? error.message : 'The stream failed.');
  }
  if (signal?.aborted) throw new QueryError(0, 'aborted', 'The request was cancelled.');
  throw new QueryError(0, 'stream_incomplete', 'The stream ended before the answer was complete.');
}

/**
 * The events of an answer stream's body (the public query stream and the owner's Playground stream
 * alike), up to `done` or `error`; returns whether one of those ended it (false: the body ended first).
 * Events whose data is not JSON are skipped.
 */
export async function* answerEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamEvent, boolean> {
  for await (const message of readSse(body)) {
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(message.data) as Record<string, unknown>;
    } catch {
      continue;
    }
    const event = { ...payload, type: message.event, id: message.id } as StreamEvent;
    yield event;
    if (event.type === 'done' || event.type === 'error') return true;
  }
  return false;
}

/**
 * `POST /api/v1/feedback`: whether the answer to `question` helped, naming the records it cited
 * (its `sources`), so the owner's usage report can show which answers to improve. Counts as no query.
 * `options.conversation`: the turns the question was asked with, so feedback on a follow-up is
 * listed with the questions it leaned on.
 */
export async function sendFeedback(
  target: QueryTarget,
  question: string,
  helpful: boolean,
  sources: readonly Pick<Citation, 'recordId'>[] = [],
  signal?: AbortSignal,
  options: QueryOptions = {},
): Promise<void> {
  const body: FeedbackBody = { ...queryBody(target, question, options), helpful, sources: sources.slice(0, 10).map((s) => s.recordId) };
  await call(target, '/api/v1/feedback', jsonPost(target, body, signal));
}

/**
 * `GET /api/v1/widget/config`: the bot's name, greeting, starter questions and theme, after the
 * same key and whitelist checks as a query (no query is counted). The key
 * travels in the query string so the browser needs no preflight and can read
 * a refusal from any origin.
 */
export async function fetchWidgetConfig(target: QueryTarget, signal?: AbortSignal): Promise<WidgetConfig> {
  const params = new URLSearchParams({ ragId: target.ragId, key: target.apiKey });
  const response = await call(target, `/api/v1/widget/config?${params}`, signal ? { signal } : {});
  return (await response.json()) as WidgetConfig;
}
