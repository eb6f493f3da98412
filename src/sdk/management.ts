/**
 * A typed client for the management API (product.md §4), used by the
 * dashboard and usable from scripts. It runs wherever `fetch` exists; the
 * upload with progress uses `XMLHttpRequest` when the environment has it
 * (browsers) and falls back to `fetch` (no progress events) otherwise.
 *
 * Authentication: a browser session cookie (pass the CSRF token, which is
 * sent as `X-CSRF-Token` on writes) or a bearer credential.
 */

// The wire types, derived from the schemas the server validates with (`import type`: no TypeBox in bundles).
import type {
  ApiKey,
  ApiKeyList,
  ConnectedAgents,
  CreatedKey,
  CreateKeyBody,
  CreateKnowledgeBaseBody,
  ImportReport,
  KnowledgeBase,
  KnowledgeBaseList,
  KnowledgeRecord,
  Page,
  PasteBody,
  PlaygroundAnswer,
  PlaygroundQueryBody,
  Session,
  SignInStarted,
  Source,
  UpdateKeyBody,
  UpdateKnowledgeBaseBody,
  UploadReport,
  UsageReport,
} from './api-schemas.js';
import { answerEvents, type StreamEvent } from './query-client.js';

export type { StreamEvent } from './query-client.js';

/**
 * The events of the owner's Playground stream: a visitor's (`StreamEvent`), whose `done` also
 * carries `unknownWords` beside a refusal, as `PlaygroundAnswer` does.
 */
export type PlaygroundStreamEvent = Exclude<StreamEvent, { type: 'done' }> | (Extract<StreamEvent, { type: 'done' }> & Pick<PlaygroundAnswer, 'unknownWords'>);

export type {
  AdoptedAgent,
  ApiKey,
  ApiKeyList,
  ConnectedAccountKey,
  ConnectedAgents,
  ConnectedClient,
  ConnectedGrant,
  CreatedKey,
  CreateKeyBody,
  CreateKnowledgeBaseBody,
  ImportBody,
  ImportReport,
  KnowledgeBase,
  KnowledgeBaseList,
  KnowledgeRecord,
  Page,
  PasteBody,
  PlaygroundAnswer,
  PlaygroundQueryBody,
  Problem,
  Quota,
  Session,
  SignInStarted,
  Source,
  SourceFormat,
  Theme,
  UpdateKeyBody,
  UpdateKnowledgeBaseBody,
  UploadReport,
  UsageReport,
} from './api-schemas.js';

/** An RFC 9457 problem document, thrown for every non-2xx answer. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface ClientOptions {
  /** Origin of the service; '' (default) means the page's own origin. */
  baseUrl?: string;
  /** Sent as `Authorization: Bearer` instead of relying on the session cookie. */
  bearer?: string;
  /** Returns the current CSRF token for cookie-authenticated writes. */
  csrfToken?: () => string | undefined;
  fetch?: typeof fetch;
}

/** The subset of XMLHttpRequest the upload needs (the SDK compiles without DOM types). */
interface XhrLike {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: unknown): void;
  abort(): void;
  withCredentials: boolean;
  status: number;
  responseText: string;
  upload: { onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
}

const kbPath = (ragId: string) => `/api/v1/knowledge-bases/${encodeURIComponent(ragId)}`;

/** The query of a usage dismissal: a follow-up is named with the questions it was asked after. */
const dismissal = (question: string, askedAfter?: string): string => new URLSearchParams({ question, ...(askedAfter === undefined ? {} : { askedAfter }) }).toString();

const connectedPath = '/api/v1/account/connected-agents';

function problemFrom(status: number, text: string): ApiError {
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON: keep the status only
  }
  const code = typeof body.code === 'string' ? body.code : `http_${status}`;
  const detail = typeof body.detail === 'string' ? body.detail : typeof body.title === 'string' ? body.title : `Request failed (${status}).`;
  return new ApiError(status, code, detail, body);
}

export class ManagementClient {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: ClientOptions = {}) {
    this.baseUrl = options.baseUrl ?? '';
    this.fetchImpl = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  }

  private headers(method: string, extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json', ...extra };
    if (this.options.bearer) headers.authorization = `Bearer ${this.options.bearer}`;
    else if (method !== 'GET' && method !== 'HEAD') {
      const token = this.options.csrfToken?.();
      if (token) headers['x-csrf-token'] = token;
    }
    return headers;
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const init: RequestInit = { method, credentials: 'same-origin', headers: this.headers(method, body === undefined ? {} : { 'content-type': 'application/json' }) };
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await this.fetchImpl(`${this.baseUrl}${path}`, init);
    const text = await response.text();
    if (!response.ok) throw problemFrom(response.status, text);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  // Sign-in
  startSignIn(email: string) {
    return this.request<SignInStarted>('POST', '/api/v1/auth/email/start', { email });
  }
  verifySignIn(email: string, code: string) {
    return this.request<Session>('POST', '/api/v1/auth/email/verify', { email, code });
  }
  session() {
    return this.request<Session>('GET', '/api/v1/auth/session');
  }
  signOut() {
    return this.request<void>('POST', '/api/v1/auth/sign-out');
  }

  // Knowledge bases
  listKnowledgeBases() {
    return this.request<KnowledgeBaseList>('GET', '/api/v1/knowledge-bases');
  }
  createKnowledgeBase(body: CreateKnowledgeBaseBody) {
    return this.request<KnowledgeBase>('POST', '/api/v1/knowledge-bases', body);
  }
  getKnowledgeBase(ragId: string) {
    return this.request<KnowledgeBase>('GET', kbPath(ragId));
  }
  updateKnowledgeBase(ragId: string, body: UpdateKnowledgeBaseBody) {
    return this.request<KnowledgeBase>('PATCH', kbPath(ragId), body);
  }
  deleteKnowledgeBase(ragId: string) {
    return this.request<void>('DELETE', kbPath(ragId));
  }

  // Sources
  listSources(ragId: string, cursor?: string) {
    return this.request<Page<Source>>('GET', `${kbPath(ragId)}/sources?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
  }
  paste(ragId: string, body: PasteBody) {
    return this.request<UploadReport>('POST', `${kbPath(ragId)}/sources`, body);
  }
  /** Imports one web page or a sitemap's pages (`POST …/sources/import`); resolves with the per-page report. */
  importUrl(ragId: string, url: string) {
    return this.request<ImportReport>('POST', `${kbPath(ragId)}/sources/import`, { url });
  }
  deleteSource(ragId: string, sourceId: string) {
    return this.request<void>('DELETE', `${kbPath(ragId)}/sources/${encodeURIComponent(sourceId)}`);
  }

  /**
   * Uploads one file (multipart field `file`). With XMLHttpRequest available,
   * `onProgress` receives the real upload progress events.
   */
  upload(ragId: string, file: Blob, fileName: string, onProgress?: (progress: UploadProgress) => void, signal?: AbortSignal): Promise<UploadReport> {
    const url = `${this.baseUrl}${kbPath(ragId)}/sources`;
    const form = new FormData();
    form.append('file', file, fileName);
    const headers = this.headers('POST');
    const Xhr = (globalThis as { XMLHttpRequest?: new () => XhrLike }).XMLHttpRequest;
    if (!Xhr) {
      return this.fetchImpl(url, { method: 'POST', body: form, headers, credentials: 'same-origin', signal: signal ?? null }).then(async (response) => {
        const text = await response.text();
        if (!response.ok) throw problemFrom(response.status, text);
        onProgress?.({ loaded: file.size, total: file.size });
        return JSON.parse(text) as UploadReport;
      });
    }
    return new Promise((resolve, reject) => {
      const xhr = new Xhr();
      xhr.open('POST', url);
      xhr.withCredentials = true;
      for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (event) => onProgress?.({ loaded: event.loaded, total: event.lengthComputable ? event.total : file.size });
      xhr.onload = () => {
        if (xhr.status >= 200 && xhr.status < 300) {
          try {
            resolve(JSON.parse(xhr.responseText) as UploadReport);
          } catch {
            reject(new ApiError(xhr.status, 'bad_response', 'The server sent an unreadable answer.'));
          }
        } else reject(problemFrom(xhr.status, xhr.responseText));
      };
      xhr.onerror = () => reject(new ApiError(0, 'network_error', 'The upload failed: the connection was lost.'));
      xhr.onabort = () => reject(new ApiError(0, 'aborted', 'The upload was cancelled.'));
      signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(form);
    });
  }

  // Records
  listRecords(ragId: string, options: { cursor?: string; sourceId?: string; limit?: number } = {}) {
    const query = new URLSearchParams({ limit: String(options.limit ?? 100) });
    if (options.cursor) query.set('cursor', options.cursor);
    if (options.sourceId) query.set('sourceId', options.sourceId);
    return this.request<Page<KnowledgeRecord>>('GET', `${kbPath(ragId)}/records?${query}`);
  }
  /** Every record, following cursors (a knowledge base holds few: the free plan allows 25). */
  async allRecords(ragId: string, max = 1000): Promise<KnowledgeRecord[]> {
    const all: KnowledgeRecord[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.listRecords(ragId, cursor ? { cursor } : {});
      all.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor && all.length < max);
    return all;
  }
  deleteRecord(ragId: string, recordId: string) {
    return this.request<void>('DELETE', `${kbPath(ragId)}/records/${encodeURIComponent(recordId)}`);
  }

  // Keys
  listKeys(ragId: string) {
    return this.request<ApiKeyList>('GET', `${kbPath(ragId)}/keys`);
  }
  createKey(ragId: string, body: CreateKeyBody) {
    return this.request<CreatedKey>('POST', `${kbPath(ragId)}/keys`, body);
  }
  updateKey(ragId: string, keyId: string, body: UpdateKeyBody) {
    return this.request<ApiKey>('PATCH', `${kbPath(ragId)}/keys/${encodeURIComponent(keyId)}`, body);
  }
  revokeKey(ragId: string, keyId: string) {
    return this.request<void>('DELETE', `${kbPath(ragId)}/keys/${encodeURIComponent(keyId)}`);
  }

  // Connected agents (the signed-in person only: session, not a bearer credential)
  connectedAgents() {
    return this.request<ConnectedAgents>('GET', connectedPath);
  }
  revokeConnectedClient(clientId: string) {
    return this.request<void>('DELETE', `${connectedPath}/clients/${encodeURIComponent(clientId)}`);
  }
  revokeConnectedGrant(grantId: string) {
    return this.request<void>('DELETE', `${connectedPath}/grants/${encodeURIComponent(grantId)}`);
  }
  revokeAccountKey(keyId: string) {
    return this.request<void>('DELETE', `${connectedPath}/account-keys/${encodeURIComponent(keyId)}`);
  }
  revokeAdoptedAgent(clientId: string) {
    return this.request<void>('DELETE', `${connectedPath}/adopted-agents/${encodeURIComponent(clientId)}`);
  }

  // Usage
  usage(ragId: string, days = 30) {
    return this.request<UsageReport>('GET', `${kbPath(ragId)}/usage?days=${days}`);
  }
  /** Takes an entry of the report's `unanswered` list off it: its `question`, and its `askedAfter` when it has one. */
  dismissUnanswered(ragId: string, question: string, askedAfter?: string) {
    return this.request<void>('DELETE', `${kbPath(ragId)}/usage/unanswered?${dismissal(question, askedAfter)}`);
  }
  /** Takes an entry of the report's `feedback` list off it: its `question`, and its `askedAfter` when it has one. */
  dismissFeedback(ragId: string, question: string, askedAfter?: string) {
    return this.request<void>('DELETE', `${kbPath(ragId)}/usage/feedback?${dismissal(question, askedAfter)}`);
  }

  // Playground: the owner asks their own knowledge base (no query key; the Playground's own limits)
  playgroundQuery(ragId: string, body: PlaygroundQueryBody) {
    return this.request<PlaygroundAnswer>('POST', `${kbPath(ragId)}/playground/query`, body);
  }

  /**
   * `POST …/playground/query/stream`: the events of `/api/v1/query/stream` (`meta`, `sources`,
   * `token`…, then `done` — whose `answer` is final, with `unknownWords` beside a refusal — or
   * `error`). A refusal before the stream starts throws an `ApiError`; so does a stream that ends
   * without `done` or `error`.
   */
  async *streamPlaygroundQuery(ragId: string, body: PlaygroundQueryBody, signal?: AbortSignal): AsyncGenerator<PlaygroundStreamEvent> {
    const response = await this.fetchImpl(`${this.baseUrl}${kbPath(ragId)}/playground/query/stream`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: this.headers('POST', { 'content-type': 'application/json', accept: 'text/event-stream' }),
      body: JSON.stringify(body),
      signal: signal ?? null,
    });
    if (!response.ok || !response.body) throw problemFrom(response.status, await response.text());
    if (yield* answerEvents(response.body)) return;
    throw new ApiError(0, 'stream_incomplete', 'The stream ended before the answer was complete.');
  }
}
