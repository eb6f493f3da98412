/**
 * Assertions and helpers shared by the API tests: problem documents, the
 * development outbox, a read-only look into a test server's database, and
 * the real service started as a child process (for logs and start-up).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { compiledService } from '../support/compiled-service.js';
import { type ApiResponse, freePort, startServer, type TestServer } from '../support/server.js';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

/**
 * A test server as `startServer` makes it, with the whole-service IP limit off
 * (every test request comes from 127.0.0.1) unless the test sets it.
 */
export function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  return startServer({ IP_RATE_PER_SECOND: '0', ...env });
}

/** Asserts an RFC 9457 problem document with the given status and code, and returns its body. */
export function expectProblem(response: ApiResponse<unknown>, status: number, code: string, baseUrl?: string): Record<string, unknown> {
  expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  const body = response.body as Record<string, unknown>;
  expect(body).toMatchObject({ status, code });
  expect(response.status).toBe(status);
  expect(typeof body.title).toBe('string');
  expect((body.title as string).length).toBeGreaterThan(0);
  expect(typeof body.detail).toBe('string');
  expect((body.detail as string).length).toBeGreaterThan(0);
  const requestId = response.headers.get('x-request-id');
  expect(requestId).toBeTruthy();
  expect(body.requestId).toBe(requestId);
  if (baseUrl) expect(body.type).toBe(`${baseUrl}/docs/errors/${code}`);
  else expect(String(body.type)).toMatch(new RegExp(`^https?://[^/]+/docs/errors/${code}$`));
  expectNoInternals(JSON.stringify(body));
  return body;
}

/** No stack frames, source paths or internal error names in what a client sees. */
export function expectNoInternals(text: string): void {
  expect(text).not.toMatch(/\n\s+at |node_modules|\.ts:\d+|\/src\/|\bstack\b|TypeError|ReferenceError|SqliteError/);
}

export interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
  sentAt: string;
}

export async function outbox(baseUrl: string): Promise<OutboxMessage[]> {
  const response = await fetch(`${baseUrl}/dev/outbox`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { messages: OutboxMessage[] }).messages;
}

/** Every code the outbox holds for an address, newest first, as shown (`ABC-DEF`). */
export async function codesFor(baseUrl: string, email: string): Promise<string[]> {
  return (await outbox(baseUrl))
    .filter((m) => m.to === email)
    .map((m) => /code is ([A-Z0-9]{3}-[A-Z0-9]{3})/.exec(m.text)?.[1])
    .filter((c): c is string => c !== undefined);
}

let emails = 0;
/** A unique address per call, so tests never share sign-in state. */
export function uniqueEmail(label = 'person'): string {
  return `${label}.${++emails}.${process.pid}.${Date.now()}@example.test`;
}

/** Every row of every table of a test server's embedded database, read-only. */
export function databaseDump(server: TestServer): Record<string, unknown[]> {
  const db = new Database(path.join(server.config.dataDir, 'groundwork.db'), { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[];
    return Object.fromEntries(tables.map(({ name }) => [name, db.prepare(`SELECT * FROM "${name}"`).all()]));
  } finally {
    db.close();
  }
}

/** Rows of one table of a test server's database that mention `ragId`. */
export function rowsForKnowledgeBase(server: TestServer, table: string, ragId: string): unknown[] {
  return (databaseDump(server)[table] ?? []).filter((row) => (row as { rag_id?: string }).rag_id === ragId);
}

export interface ServiceProcess {
  baseUrl: string;
  child: ChildProcess;
  /** Everything written to stdout so far. */
  stdout(): string;
  stderr(): string;
  /** Stops the process (SIGTERM) and waits for it to exit. */
  stop(): Promise<number | null>;
}

/** `node main.js` of the service compiled to JavaScript, as `npm start` runs it (test/support/compiled-service.ts). */
async function serviceCommand(): Promise<string[]> {
  return [path.join(await compiledService(), 'main.js')];
}

/**
 * How long a child service may take to start (or to exit on a bad configuration): on a busy
 * 2-core CI machine, beside other test files loading the whole service too, a start has taken
 * more than 15 s when it still went through tsx. Generous, since a hang still fails; hooks and
 * tests that start one allow `PROCESS_TEST_TIMEOUT_MS`.
 */
export const PROCESS_START_TIMEOUT_MS = 120_000;
/** The vitest timeout for a hook or test that starts a child service: its start-up, and the rest. */
export const PROCESS_TEST_TIMEOUT_MS = PROCESS_START_TIMEOUT_MS + 30_000;

/** Runs the service until it exits; for configurations that must not start. */
export async function runServiceToExit(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const command = await serviceCommand();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, command, { cwd: repoRoot, env: serviceEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the service did not exit; stdout: ${stdout} stderr: ${stderr}`));
    }, PROCESS_START_TIMEOUT_MS);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The environment of a child service: this process's PATH and the like, none of its Groundwork settings. */
function serviceEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'SystemRoot']) if (process.env[name] !== undefined) base[name] = process.env[name];
  return { ...base, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'gw-proc-')), ...env };
}

/** Starts the real service as `npm start` would (compiled JavaScript), on a free loopback port, and waits until it listens. */
export async function startServiceProcess(env: Record<string, string> = {}): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, await serviceCommand(), {
    cwd: repoRoot,
    env: serviceEnv({ PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'info', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not start; stdout: ${stdout} stderr: ${stderr}`)), PROCESS_START_TIMEOUT_MS);
    const check = () => {
      if (stdout.includes('"Groundwork is running"')) {
        clearTimeout(timer);
        child.stdout?.off('data', check);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the service exited with ${code}; stderr: ${stderr}`));
    });
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** The JSON lines a service wrote to stdout (non-JSON lines fail the test: logs are structured). */
export function logLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`a log line is not JSON: ${line}`);
      }
    });
}
