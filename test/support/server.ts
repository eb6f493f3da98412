/**
 * Starts a real Groundwork server on a loopback port with its own data
 * directory, as `npm start` would, and a small client that signs in through
 * the development outbox and carries the session cookie and CSRF token.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../bench/free-port.mjs';
import { type Config, loadConfig } from '../../src/config.js';
import { type Running, start } from '../../src/main.js';

export interface TestServer extends Running {
  baseUrl: string;
  config: Config;
}

/** `env` uses the variable names of product.md §2, e.g. `{ MAX_RECORDS_PER_KB: '5' }`. */
export async function startServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-server-'));
  // PUBLIC_URL must name the real port, which is only known after listening: reserve one first.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'silent',
    // Tests send bursts from one address; suites that test the IP limit set it themselves.
    IP_RATE_PER_SECOND: '0',
    // One secret for every test server, so instances sharing a database (and NODE_ENV=production runs) start.
    SECRET_KEY: 'test-secret-key-test-secret-key-0123456789',
    // Likewise for anonymous agent registrations (test/oauth/anonymous-limit.test.ts sets them).
    ANON_REGISTRATIONS_PER_MINUTE: '0',
    ANON_REGISTRATIONS_PER_HOUR: '0',
    ...env,
  });
  const running = await start(config);
  return { ...running, baseUrl: config.publicUrl, config };
}

export { freePort };

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** A signed-in person's HTTP client. */
export class Client {
  cookie = '';
  csrfToken = '';

  /** `extraHeaders` are added to every request (e.g. a new X-Forwarded-For each time, so setup spends no client's limit). */
  constructor(
    readonly baseUrl: string,
    readonly extraHeaders: () => Record<string, string> = () => ({}),
  ) {}

  async request<T = Record<string, unknown>>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const init: RequestInit = { method, headers: { ...this.extraHeaders(), ...headers } };
    const h = init.headers as Record<string, string>;
    if (this.cookie) h.cookie = this.cookie;
    if (this.csrfToken && !['GET', 'HEAD'].includes(method)) h['x-csrf-token'] ??= this.csrfToken;
    if (body instanceof FormData) init.body = body;
    else if (typeof body === 'string') init.body = body;
    else if (body !== undefined) {
      h['content-type'] ??= 'application/json';
      init.body = JSON.stringify(body);
    }
    const response = await fetch(`${this.baseUrl}${url}`, init);
    const text = await response.text();
    let parsed: unknown = text;
    if (/json/.test(response.headers.get('content-type') ?? '') && text) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T };
  }

  get<T = Record<string, unknown>>(url: string, headers?: Record<string, string>) {
    return this.request<T>('GET', url, undefined, headers);
  }
  post<T = Record<string, unknown>>(url: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', url, body, headers);
  }
  patch<T = Record<string, unknown>>(url: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PATCH', url, body, headers);
  }
  delete<T = Record<string, unknown>>(url: string, headers?: Record<string, string>) {
    return this.request<T>('DELETE', url, undefined, headers);
  }

  /** Uploads a file as multipart form data in the field `file`. */
  upload<T = Record<string, unknown>>(ragId: string, fileName: string, content: string | Uint8Array, type = 'application/octet-stream') {
    const form = new FormData();
    form.append('file', new Blob([content], { type }), fileName);
    return this.request<T>('POST', `/api/v1/knowledge-bases/${ragId}/sources`, form);
  }
}

/** The newest code the development outbox holds for an address. */
export async function codeFromOutbox(baseUrl: string, email: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${baseUrl}/dev/outbox`, { headers });
  const { messages } = (await response.json()) as { messages: { to: string; text: string }[] };
  const message = messages.find((m) => m.to === email);
  const code = message && /code is ([A-Z0-9]{3}-[A-Z0-9]{3})/.exec(message.text)?.[1];
  if (!code) throw new Error(`no code for ${email} in the outbox`);
  return code;
}

let counter = 0;

/** Signs a new person in through the e-mail code flow and returns their client. */
export async function signedInClient(
  baseUrl: string,
  email = `person${++counter}.${Date.now()}@example.test`,
  extraHeaders: () => Record<string, string> = () => ({}),
): Promise<Client> {
  const client = new Client(baseUrl, extraHeaders);
  const started = await client.post('/api/v1/auth/email/start', { email });
  if (started.status !== 202) throw new Error(`sign-in start failed: ${started.status}`);
  const code = await codeFromOutbox(baseUrl, email, extraHeaders());
  const verified = await fetch(`${baseUrl}/api/v1/auth/email/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...extraHeaders() },
    body: JSON.stringify({ email, code }),
  });
  if (verified.status !== 200) throw new Error(`sign-in verify failed: ${verified.status}`);
  client.cookie = verified.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  client.csrfToken = ((await verified.json()) as { csrfToken: string }).csrfToken;
  return client;
}
