/**
 * The real server as a child process (`node main.js` of the compiled service,
 * test/support/compiled-service.ts), for tests that kill it. Unlike test/support/server.ts, which runs the app inside
 * the test process, SIGKILL here ends the server with no clean-up of its own:
 * no `finally`, no store close, no SQLite checkpoint, no ROLLBACK sent.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { compiledService } from '../support/compiled-service.js';
import { type Client, freePort } from '../support/server.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const alive = new Set<ChildProcess>();

export interface ChildServer {
  baseUrl: string;
  pid: number;
  /** The end of what the server wrote to stdout/stderr. */
  output(): string;
  /** SIGKILL, then waits until the process is gone. */
  kill(): Promise<void>;
}

/**
 * Starts the server and waits for `/healthz`. The child sees only PATH, HOME
 * and the given variables, so a DATABASE_URL (or any other setting) of the
 * test run itself does not leak into it.
 */
export async function startChildServer(env: Record<string, string>, readyWithinMs = 30_000): Promise<ChildServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const service = await compiledService();
  const child = spawn(process.execPath, [path.join(service, 'main.js')], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), PORT: String(port), PUBLIC_URL: baseUrl, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  alive.add(child);
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  child.once('error', (error) => collect(Buffer.from(`spawn failed: ${error.message}\n`)));
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      alive.delete(child);
      resolve();
    });
  });
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const kill = async () => {
    if (!gone()) child.kill('SIGKILL');
    await exited;
  };

  const deadline = Date.now() + readyWithinMs;
  for (;;) {
    if (gone()) throw new Error(`the server exited during start-up (code ${child.exitCode}, signal ${child.signalCode}):\n${output}`);
    try {
      const response = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(1000) });
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await kill();
      throw new Error(`the server did not answer /healthz within ${readyWithinMs} ms:\n${output}`);
    }
    await sleep(50);
  }
  return { baseUrl, pid: child.pid ?? -1, output: () => output, kill };
}

/** SIGKILLs every child server still running (for afterAll). */
export async function killAllChildServers(): Promise<void> {
  const waits = [...alive].map((child) => {
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    child.kill('SIGKILL');
    return exited;
  });
  await Promise.all(waits);
}

export type UploadOutcome = { status: number; body: string } | { error: string };

export interface UploadAttempt {
  /** Size of the whole multipart body. */
  totalBytes: number;
  /** Bytes of the body handed to the socket so far. */
  bytesSent(): number;
  /**
   * Settles once the bytes meant to be sent (`stopAfter`, or the whole body)
   * are flushed to the socket, or when the connection ends first.
   */
  sent: Promise<void>;
  /** The server's answer, or how the connection failed (a kill cuts it). */
  outcome: Promise<UploadOutcome>;
}

/**
 * Uploads `content` as the multipart field `file` over a raw HTTP request, so
 * the test controls how much of the body goes out: `stopAfter` bytes leave the
 * request open with the rest of the body never sent.
 */
export function sendUpload(
  client: Client,
  ragId: string,
  file: { name: string; type: string; content: Uint8Array },
  options: { stopAfter?: number } = {},
): UploadAttempt {
  const boundary = `gw-crash-${randomBytes(12).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`),
    file.content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const request = http.request(new URL(`/api/v1/knowledge-bases/${ragId}/sources`, client.baseUrl), {
    method: 'POST',
    agent: false,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(body.length),
      cookie: client.cookie,
      'x-csrf-token': client.csrfToken,
    },
  });
  let closed = false;
  const whenClosed = new Promise<void>((resolve) => {
    request.once('close', () => {
      closed = true;
      resolve();
    });
  });
  const outcome = new Promise<UploadOutcome>((resolve) => {
    request.once('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.once('error', (error) => resolve({ error: error.message }));
      response.once('close', () => resolve({ error: 'connection closed before the end of the response' }));
    });
  });

  const limit = Math.min(options.stopAfter ?? body.length, body.length);
  let written = 0;
  const chunkSize = 64 * 1024;
  const sent = (async () => {
    while (written < limit && !closed) {
      const chunk = body.subarray(written, Math.min(written + chunkSize, limit));
      written += chunk.length;
      const last = written === limit;
      if (last) {
        // The callback runs once this chunk (hence every earlier one) is flushed to the socket.
        await Promise.race([
          new Promise<void>((resolve) => (limit === body.length ? request.end(chunk, () => resolve()) : request.write(chunk, () => resolve()))),
          whenClosed,
        ]);
      } else if (!request.write(chunk)) {
        await Promise.race([new Promise<void>((resolve) => request.once('drain', () => resolve())), whenClosed]);
      }
    }
  })();
  return { totalBytes: body.length, bytesSent: () => written, sent, outcome };
}
