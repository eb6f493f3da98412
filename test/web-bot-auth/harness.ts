/**
 * A real Groundwork server (compose + buildApp + listen, as `start` does)
 * whose log lines are captured, and a test bot publishing its key directory
 * on a loopback HTTP server (signed, like a well-behaved agent's).
 * `startLoggedServer` can log at debug level, and can swap in a Web Bot Auth
 * whose key-directory fetch has an injected resolver, connector and policy.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { MemoryReplayStore } from '../../src/adapters/replay/memory.js';
import type { Store } from '../../src/ports/storage.js';
import { compose } from '../../src/compose.js';
import { loadConfig } from '../../src/config.js';
import { buildApp, loggerOptions } from '../../src/http/app.js';
import { DIRECTORY_MEDIA_TYPE, directoryBody, signDirectoryResponse } from '../../src/identity/web-bot-auth/directory.js';
import { WebBotAuth, type WebBotAuthOptions } from '../../src/identity/web-bot-auth/index.js';
import { DIRECTORY_PATH } from '../../src/identity/web-bot-auth/signature-agent.js';
import { freePort } from '../support/server.js';
import type { TestBot } from './fixtures.js';

export interface LoggedServer {
  baseUrl: string;
  store: Store;
  /** Every log line, raw, as the service wrote it. */
  lines: string[];
  logs(): Record<string, unknown>[];
  stop(): Promise<void>;
}

export interface LoggedServerOptions {
  /** Log level of the captured lines; default info. */
  logLevel?: 'debug' | 'info';
  /** When set, the service's Web Bot Auth fetches key directories with these overrides (resolver, connector, policy, time limit). */
  botFetch?: WebBotAuthOptions['fetch'];
}

export async function startLoggedServer(env: Record<string, string> = {}, options: LoggedServerOptions = {}): Promise<LoggedServer> {
  const port = await freePort();
  const config = loadConfig({
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'gw-wba-')),
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'info',
    IP_RATE_PER_SECOND: '0',
    // As test/support/server.ts: a fixed secret, so start-up logs no "SECRET_KEY is not set" warning.
    SECRET_KEY: 'test-secret-key-test-secret-key-0123456789',
    ...env,
  });
  const lines: string[] = [];
  const logger = pino(loggerOptions(options.logLevel ?? 'info') as pino.LoggerOptions, { write: (line: string) => void lines.push(line) });
  const composition = await compose(config, logger);
  if (options.botFetch) {
    composition.deps.webBotAuth = new WebBotAuth({
      publicUrl: config.publicUrl,
      devMode: config.devMode,
      signingKeys: composition.store.signingKeys,
      replay: new MemoryReplayStore(),
      log: logger,
      fetch: options.botFetch,
    });
  }
  const app = await buildApp(composition.deps);
  await app.listen({ port, host: '127.0.0.1' });
  return {
    baseUrl: config.publicUrl,
    store: composition.store,
    lines,
    logs: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    async stop() {
      await app.close();
      await composition.close();
    },
  };
}

export interface BotDirectoryServer {
  url: string;
  hits(): number;
  close(): Promise<void>;
}

/** Serves the bots' keys at the well-known path, signed by each key. */
export async function serveBotDirectory(bots: TestBot[]): Promise<BotDirectoryServer> {
  let hits = 0;
  let url = '';
  const server = http.createServer((req, res) => {
    hits++;
    if (req.url !== DIRECTORY_PATH) return void res.writeHead(404).end();
    const keys = bots.map((b) => ({ keyid: b.keyid, jwk: b.publicJwk, privateJwk: b.privateJwk }));
    const body = directoryBody(keys);
    const created = Math.floor(Date.now() / 1000);
    const signed = signDirectoryResponse({ body, keys, targetUri: `${url}${DIRECTORY_PATH}`, created, expires: created + 600 });
    res.writeHead(200, { 'content-type': DIRECTORY_MEDIA_TYPE, ...signed }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, hits: () => hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
