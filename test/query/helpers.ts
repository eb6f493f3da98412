/**
 * Shared by the query-API suites: set up a knowledge base with records and a
 * key, call the query endpoints over real HTTP, and read an answer stream as
 * Server-Sent Events with `eventsource-parser`.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createParser } from 'eventsource-parser';
import { expect } from 'vitest';
import type { Answer, Citation } from '../../src/sdk/query-client.js';
import { type ApiResponse, type Client, signedInClient, startServer, type TestServer } from '../support/server.js';

export const faqMarkdown = `# Returns

You can return any bike within 30 days of delivery for a full refund.

# Shipping

Orders ship from our warehouse in Bremen within 2 business days.

# Warranty

Every frame carries a lifetime warranty against manufacturing defects.
`;

export const faqJson = JSON.stringify([
  { question: 'What are your opening hours?', answer: 'The showroom is open Monday to Saturday from 9:00 to 18:00.' },
  { question: 'Do you sell gift cards?', answer: 'Gift cards are available in amounts from 25 to 500 euros.' },
]);

export interface Kb {
  ragId: string;
  contentVersion: number;
}

export interface UploadReport {
  source: { sourceId: string; sourceName: string };
  added: number;
  items: { recordId?: string; title: string | null; status: string }[];
}

// The answer shapes are the SDK's: the tests hold the API to what clients are told.
export type { Answer, Citation };

export interface CreatedKey {
  key: { keyId: string; name: string | null; prefix: string; allowedDomains: string[]; createdAt: string };
  apiKey: string;
}

export async function createKb(client: Client, botName = 'Query tests'): Promise<string> {
  const created = await client.post<Kb>('/api/v1/knowledge-bases', { botName });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.ragId;
}

export async function uploadFile(client: Client, ragId: string, name: string, content: string): Promise<UploadReport> {
  const uploaded = await client.upload<UploadReport>(ragId, name, content);
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
  return uploaded.body;
}

export async function createKey(client: Client, ragId: string, allowedDomains: string[] = [], name?: string): Promise<CreatedKey> {
  const created = await client.post<CreatedKey>(`/api/v1/knowledge-bases/${ragId}/keys`, { allowedDomains, ...(name ? { name } : {}) });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

/** A knowledge base holding the FAQ (markdown + JSON) and a key with the given whitelist. */
export async function faqKnowledgeBase(client: Client, allowedDomains: string[] = []): Promise<{ ragId: string; apiKey: string; keyId: string }> {
  const ragId = await createKb(client, 'Nordlicht Bikes');
  await uploadFile(client, ragId, 'faq.md', faqMarkdown);
  await uploadFile(client, ragId, 'faq.json', faqJson);
  const { apiKey, key } = await createKey(client, ragId, allowedDomains);
  return { ragId, apiKey, keyId: key.keyId };
}

/** POSTs JSON (or a raw string body) to a query endpoint with an optional key and extra headers. */
export async function post<T = Record<string, unknown>>(
  baseUrl: string,
  path: string,
  body: unknown,
  apiKey?: string,
  headers: Record<string, string> = {},
): Promise<ApiResponse<T>> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(apiKey ? { 'x-api-key': apiKey } : {}), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  const parsed: unknown = /json/.test(response.headers.get('content-type') ?? '') && text ? JSON.parse(text) : text;
  return { status: response.status, headers: response.headers, body: parsed as T };
}

export function ask(baseUrl: string, apiKey: string | undefined, ragId: string, query: string, headers: Record<string, string> = {}): Promise<ApiResponse<Answer>> {
  return post<Answer>(baseUrl, '/api/v1/query', { ragId, query }, apiKey, headers);
}

export interface SseEvent {
  id: string | undefined;
  event: string | undefined;
  data: Record<string, unknown>;
}

export interface StreamResult {
  status: number;
  headers: Headers;
  /** The raw body text (for comments such as `: ping`). */
  raw: string;
  events: SseEvent[];
  comments: string[];
  /** For non-SSE responses (problem documents): the parsed JSON body. */
  body: unknown;
}

/** Parses a complete SSE body. */
export function parseSse(raw: string): { events: SseEvent[]; comments: string[] } {
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const parser = createParser({
    onEvent: (e) => events.push({ id: e.id, event: e.event, data: JSON.parse(e.data) as Record<string, unknown> }),
    onComment: (c) => comments.push(c),
  });
  parser.feed(raw);
  return { events, comments };
}

/** POSTs to the stream endpoint and reads the whole response. */
export async function askStream(
  baseUrl: string,
  apiKey: string | undefined,
  ragId: string,
  query: string,
  headers: Record<string, string> = {},
): Promise<StreamResult> {
  const response = await fetch(`${baseUrl}/api/v1/query/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(apiKey ? { 'x-api-key': apiKey } : {}), ...headers },
    body: JSON.stringify({ ragId, query }),
  });
  const raw = await response.text();
  const isSse = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
  const { events, comments } = isSse ? parseSse(raw) : { events: [], comments: [] };
  const body = !isSse && /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(raw) : undefined;
  return { status: response.status, headers: response.headers, raw, events, comments, body };
}

/** Every `[n]` in an answer. */
export function citationNumbers(answer: string): number[] {
  return [...answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
}

/** Citation markers all resolve, and every source is cited. */
export function expectCitationsResolve(answer: Answer | { answer: string; sources: unknown[] }): void {
  const cited = citationNumbers(answer.answer);
  expect(cited.length, answer.answer).toBeGreaterThan(0);
  for (const n of cited) {
    expect(n).toBeGreaterThanOrEqual(1);
    expect(n).toBeLessThanOrEqual(answer.sources.length);
  }
  expect([...new Set(cited)].sort((a, b) => a - b)).toEqual(answer.sources.map((_, i) => i + 1));
}

/** A test-only HTTP server on 127.0.0.1 with a replaceable handler. */
export interface LocalServer {
  url: string;
  port: number;
  handler: http.RequestListener;
  close(): Promise<void>;
}

export async function startLocalServer(handler: http.RequestListener): Promise<LocalServer> {
  const sockets = new Set<Socket>();
  const local: LocalServer = {
    url: '',
    port: 0,
    handler,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => local.handler(req, res));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  local.port = (server.address() as AddressInfo).port;
  local.url = `http://127.0.0.1:${local.port}`;
  return local;
}

export function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
    });
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A unique suffix, so Redis keys shared between runs never collide. */
export function unique(): string {
  return `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** One request the fake model server received. */
export interface LlmRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: {
    model?: string;
    stream?: boolean;
    messages?: { role: string; content: string }[];
    [field: string]: unknown;
  };
  /** Resolves when the exchange ends: `aborted` is true when the caller went away before the response finished. */
  closed: Promise<{ aborted: boolean }>;
}

export type LlmBehaviour = (req: http.IncomingMessage, res: http.ServerResponse, request: LlmRequest) => void | Promise<void>;

/**
 * A local server speaking the OpenAI chat-completions streaming wire format.
 * Tests set `behaviour` before each call; every request is recorded.
 */
export interface FakeLlm extends LocalServer {
  /** `LLM_BASE_URL` for the server under test. */
  baseUrl: string;
  requests: LlmRequest[];
  behaviour: LlmBehaviour;
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const requests: LlmRequest[] = [];
  // Assigned once the server exists; the request handler, created first, reads it later.
  // eslint-disable-next-line prefer-const
  let fake: FakeLlm | undefined;
  const local = await startLocalServer(async (req, res) => {
    const closed = new Promise<{ aborted: boolean }>((resolve) => res.once('close', () => resolve({ aborted: !res.writableFinished })));
    const text = await readBody(req);
    let body: LlmRequest['body'] = {};
    try {
      body = JSON.parse(text) as LlmRequest['body'];
    } catch {
      // recorded as empty
    }
    const request: LlmRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, closed };
    requests.push(request);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    await fake?.behaviour(req, res, request);
  });
  fake = Object.assign(local, { baseUrl: `${local.url}/v1`, requests, behaviour: answerWith(['Orders ship from Bremen [1].']) });
  return fake;
}

let chunkCounter = 0;

/** One `data:` line of a streamed completion. */
export function completionChunk(content: string | undefined, finishReason: string | null = null): string {
  const delta = content === undefined ? {} : { content };
  const chunk = { id: `chatcmpl-${++chunkCounter}`, object: 'chat.completion.chunk', created: 1_700_000_000, model: 'fake', choices: [{ index: 0, delta, finish_reason: finishReason }] };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

export function startCompletion(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(`data: ${JSON.stringify({ id: 'chatcmpl-0', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })}\n\n`);
}

export function finishCompletion(res: http.ServerResponse): void {
  res.write(completionChunk(undefined, 'stop'));
  res.end('data: [DONE]\n\n');
}

/** A behaviour that streams `tokens` (one chunk each), optionally after a delay, then stops. */
export function answerWith(tokens: string[], options: { delayMs?: number; gapMs?: number } = {}): LlmBehaviour {
  return async (_req, res) => {
    let gone = false;
    res.once('close', () => {
      gone = true;
    });
    if (options.delayMs) await sleep(options.delayMs);
    if (gone) return;
    startCompletion(res);
    for (const token of tokens) {
      if (gone) return;
      res.write(completionChunk(token));
      if (options.gapMs) await sleep(options.gapMs);
    }
    if (!gone) finishCompletion(res);
  };
}

/** Reads an SSE response incrementally, calling `onEvent` as each event arrives. */
export async function readSse(response: Response, onEvent: (event: SseEvent) => void = () => {}): Promise<{ raw: string; events: SseEvent[] }> {
  const events: SseEvent[] = [];
  let raw = '';
  const parser = createParser({
    onEvent: (e) => {
      const event = { id: e.id, event: e.event, data: JSON.parse(e.data) as Record<string, unknown> };
      events.push(event);
      onEvent(event);
    },
  });
  const decoder = new TextDecoder();
  try {
    for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
      const text = decoder.decode(bytes, { stream: true });
      raw += text;
      parser.feed(text);
    }
  } catch (error) {
    if (!(error instanceof Error && error.name === 'AbortError')) throw error;
  }
  return { raw, events };
}

/** Rejects with `message` if `promise` has not settled within `ms` (a hang guard, not a timing assertion). */
export function within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * POSTs JSON with node:http on a connection of its own and hands back the
 * request, for tests that hang up mid-answer. (fetch's pool would open a
 * spare connection when one is aborted, which delays the server's close.)
 */
export function rawPost(
  baseUrl: string,
  path: string,
  body: unknown,
  headers: Record<string, string>,
  onEvent: (event: SseEvent, request: http.ClientRequest) => void = () => {},
): { request: http.ClientRequest; events: SseEvent[]; response: Promise<http.IncomingMessage> } {
  const events: SseEvent[] = [];
  const request = http.request(`${baseUrl}${path}`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', ...headers } });
  const response = new Promise<http.IncomingMessage>((resolve, reject) => {
    request.once('error', (error) => {
      if (!request.destroyed) reject(error);
    });
    request.once('response', (res) => {
      const parser = createParser({
        onEvent: (e) => {
          const event = { id: e.id, event: e.event, data: JSON.parse(e.data) as Record<string, unknown> };
          events.push(event);
          onEvent(event, request);
        },
      });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => parser.feed(chunk));
      res.on('error', () => undefined);
      resolve(res);
    });
  });
  response.catch(() => undefined);
  request.end(JSON.stringify(body));
  return { request, events, response };
}

/**
 * A server whose answers a fake model writes (`tokens`, unlimited queries), with the FAQ knowledge
 * base on it. `stop()` ends the server and the model, whichever of them started.
 */
export async function faqOnFakeLlm(tokens: string[]): Promise<{ llm: FakeLlm; server: TestServer; faq: { ragId: string; apiKey: string }; stop(): Promise<void> }> {
  const llm = await startFakeLlm();
  llm.behaviour = answerWith(tokens);
  let server: TestServer | undefined;
  const stop = async () => {
    await server?.stop();
    await llm.close();
  };
  try {
    server = await startServer({ LLM_BASE_URL: llm.baseUrl, LLM_TIMEOUT_SECONDS: '2', QUERY_RATE_PER_MINUTE: '0', QUERY_QUOTA_PER_DAY: '0' });
    const faq = await faqKnowledgeBase(await signedInClient(server.baseUrl));
    return { llm, server, faq, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
