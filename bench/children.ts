/**
 * Server child processes for the benchmark. Every server is started the same
 * way — the references as `node --import tsx bench/server-bare*.ts`, Groundwork
 * from its production build as `node bench/server-groundwork.mjs` — optionally
 * pinned to one CPU with taskset, with a clean
 * environment (none of the runner's settings leak in), reporting its address
 * and its CPU time over the IPC channel. A child exits when the runner's
 * channel closes, so a crashed runner leaves no servers behind.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const benchDir = import.meta.dirname;
export const repoRoot = path.resolve(benchDir, '..');

/** Messages a child sends. */
export type ChildMessage =
  | { type: 'ready'; url: string; info?: Record<string, unknown> }
  | { type: 'cpu'; id: number; userUs: number; systemUs: number; rssBytes: number; maxRssBytes: number }
  | { type: 'memory'; id: number; collected: boolean; rssBytes: number; heapUsedBytes: number; heapTotalBytes: number; arrayBuffersBytes: number };

/** Messages a child receives. */
export type ParentMessage = { type: 'cpu'; id: number } | { type: 'memory'; id: number } | { type: 'stop' };

/**
 * What a child holds once it is idle: after full collections (`global.gc`, which the child has when
 * started with `nodeFlags: ['--expose-gc']`; without it, `collected` is false and the figures are
 * as they happen to be). Live bytes are `heapUsed + arrayBuffers` (typed arrays' contents live
 * outside the heap); RSS also holds the heap's free pages and the allocator's, which live bytes do not.
 */
export interface IdleMemory {
  collected: boolean;
  rssBytes: number;
  liveBytes: number;
  /** The JavaScript heap's size, free space in its pages included (`heapTotal`): what of RSS − live is the heap's. */
  heapTotalBytes: number;
}

/** What a child reports about itself (process.cpuUsage, process.memoryUsage, process.resourceUsage). */
export interface ChildStats {
  /** CPU time so far (user + system), microseconds. */
  cpuUs: number;
  rssBytes: number;
  /** The largest resident set size the process has had so far. */
  maxRssBytes: number;
}

export interface ServerChild {
  name: string;
  url: string;
  pid: number;
  info: Record<string, unknown>;
  /** Milliseconds from spawning until the child said it was ready. */
  startupMs: number;
  /** The child's CPU time so far (user + system), in microseconds. */
  cpuMicros(): Promise<number>;
  stats(): Promise<ChildStats>;
  /** Memory after full collections (see `IdleMemory`); the child must be idle (no requests in flight) for it to mean that. */
  idleMemory(): Promise<IdleMemory>;
  stop(): Promise<void>;
}

/**
 * The start-up timeout: a base (30 s, or BENCH_STARTUP_TIMEOUT_SECONDS / --startup-timeout) plus an
 * allowance for the work a server may do before it is ready (records and knowledge bases to load),
 * so a server holding 100,000 records is not cut off by a limit chosen for an empty one.
 */
let startupBaseMs = 30_000;
export function setStartupTimeoutBase(ms: number): void {
  if (!Number.isFinite(ms) || ms <= 0) throw new Error(`invalid start-up timeout: ${ms} ms`);
  startupBaseMs = ms;
}
export function startupTimeoutMs(work: { records?: number; knowledgeBases?: number } = {}): number {
  // 1 ms per record and 5 ms per knowledge base: about 10× what a full rebuild took before issue 14.
  return Math.round(startupBaseMs + (work.records ?? 0) * 1 + (work.knowledgeBases ?? 0) * 5);
}

const live = new Set<ChildProcess>();

/** Kills every child still running (SIGKILL); for error paths and exit. */
export function killAll(): void {
  for (const child of live) {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  live.clear();
}

let tasksetAvailable: boolean | undefined;
function hasTaskset(): boolean {
  if (tasksetAvailable === undefined) {
    try {
      execFileSync('taskset', ['-V'], { stdio: 'ignore' });
      tasksetAvailable = true;
    } catch {
      tasksetAvailable = false;
    }
  }
  return tasksetAvailable;
}

/** Pins every thread of this process to `cpus` (e.g. "0"); false when taskset is missing or refuses. */
export function pinSelf(cpus: string): boolean {
  if (!hasTaskset()) return false;
  try {
    execFileSync('taskset', ['-a', '-cp', cpus, String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface SpawnOptions {
  /** Script under bench/, e.g. `server-bare.ts` (run under tsx) or `server-groundwork.mjs` (plain node, the build). */
  script: string;
  env: Record<string, string>;
  /** CPU list for taskset (e.g. "1"); undefined runs unpinned. */
  cpus?: string | undefined;
  /** Extra node flags (e.g. --cpu-prof), placed before the script (and --import tsx). */
  nodeFlags?: string[];
  /** A production server (`.mjs`) without npm start's node flags: only to measure what the flags change (bench/idle-state.ts). */
  withoutStartFlags?: boolean;
  /** Defaults to `startupTimeoutMs()` (the base alone). */
  timeoutMs?: number;
}

/** The environment of a child: PATH and the like from this process, nothing else. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG']) if (process.env[name] !== undefined) base[name] = process.env[name];
  return { ...base, ...env };
}

/**
 * The node flags of `npm start` (package.json's `start` script, `node <flags> dist/main.js`), so a
 * benchmark server runs Groundwork as the service runs, V8 flags included (docs/decisions.md,
 * "V8's memory reducer").
 */
export function startScriptNodeFlags(startScript = packageStartScript()): string[] {
  const match = /^node((?:\s+--?[\w-]+(?:=\S+)?)*)\s+dist\/main\.js$/.exec(startScript.trim());
  if (!match) throw new Error(`package.json's start script is not "node [flags] dist/main.js": ${startScript}`);
  return (match[1] ?? '').split(/\s+/).filter(Boolean);
}

let startScript: string | undefined;
/** package.json's `start` script, read once per run. */
function packageStartScript(): string {
  if (startScript === undefined) {
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts?: { start?: string } };
    startScript = pkg.scripts?.start ?? '';
  }
  return startScript;
}

export async function spawnServer(name: string, options: SpawnOptions): Promise<ServerChild> {
  const timeoutMs = options.timeoutMs ?? startupTimeoutMs();
  // A plain JavaScript server (server-groundwork.mjs) runs the production build, under node alone, with npm start's flags.
  const production = options.script.endsWith('.mjs');
  if (production) ensureBuilt();
  const spawnedAt = performance.now();
  const loader = production ? [] : ['--import', 'tsx'];
  const nodeArgs = [...(production && !options.withoutStartFlags ? startScriptNodeFlags() : []), ...(options.nodeFlags ?? []), ...loader, path.join(benchDir, options.script)];
  const pinned = options.cpus !== undefined && hasTaskset();
  const [command, args] = pinned ? ['taskset', ['-c', options.cpus as string, process.execPath, ...nodeArgs]] : [process.execPath, nodeArgs];
  const child = spawn(command as string, args as string[], {
    cwd: repoRoot,
    env: childEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  live.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', () => live.delete(child));

  const ready = await new Promise<{ url: string; info: Record<string, unknown> }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start within ${timeoutMs} ms (raise it with --startup-timeout <seconds>); output: ${output}`)),
      timeoutMs,
    );
    const onMessage = (message: ChildMessage) => {
      if (message.type !== 'ready') return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve({ url: message.url, info: message.info ?? {} });
    };
    child.on('message', onMessage);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited during start-up (code ${code}, signal ${signal}); output: ${output}`));
    });
  });

  const startupMs = performance.now() - spawnedAt;
  let nextId = 0;
  const stats = () => {
    const id = ++nextId;
    return new Promise<ChildStats>((resolve, reject) => {
      // Generous: a child busy loading a large index answers late, but it answers.
      const timer = setTimeout(() => reject(new Error(`${name} did not report its CPU time`)), 60_000);
      const onMessage = (message: ChildMessage) => {
        if (message.type !== 'cpu' || message.id !== id) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve({ cpuUs: message.userUs + message.systemUs, rssBytes: message.rssBytes, maxRssBytes: message.maxRssBytes });
      };
      child.on('message', onMessage);
      child.send({ type: 'cpu', id } satisfies ParentMessage);
    });
  };
  const idleMemory = () => {
    const id = ++nextId;
    return new Promise<IdleMemory>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} did not report its memory`)), 60_000);
      const onMessage = (message: ChildMessage) => {
        if (message.type !== 'memory' || message.id !== id) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve({ collected: message.collected, rssBytes: message.rssBytes, liveBytes: message.heapUsedBytes + message.arrayBuffersBytes, heapTotalBytes: message.heapTotalBytes });
      };
      child.on('message', onMessage);
      child.send({ type: 'memory', id } satisfies ParentMessage);
    });
  };
  return {
    name,
    url: ready.url,
    pid: child.pid ?? 0,
    info: ready.info,
    startupMs,
    stats,
    idleMemory,
    cpuMicros: () => stats().then((s) => s.cpuUs),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
      try {
        child.send({ type: 'stop' } satisfies ParentMessage);
      } catch {
        child.kill('SIGTERM');
      }
      await exited;
      clearTimeout(force);
    },
  };
}

export { serveParent } from './serve-parent.mjs';

/**
 * Builds the production server (`dist/`) when its inputs changed since the last build
 * (scripts/build-if-stale.mjs, as `npm start` does), once per run: Groundwork's benchmark server
 * runs the build (bench/server-groundwork.mjs), not the sources under tsx.
 */
let built = false;
export function ensureBuilt(log: (message: string) => void = () => {}): void {
  if (built) return;
  log('building dist/ when stale (scripts/build-if-stale.mjs)');
  execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'build-if-stale.mjs')], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  built = true;
}

const tempDirs: string[] = [];

/** Makes a fresh directory under the OS temp dir, removed by `removeTempDirs`. */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}
