/**
 * A throwaway redis-server on a free loopback port, for outage tests and the
 * benchmark's outage scenario (bench/redis-outage.ts): no persistence, so a
 * restart comes back empty (the worst case for limits). Every test that
 * starts one stops it in afterAll/finally; the benchmark also calls
 * `killRedisServers()` from its exit and signal handlers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from './server.js';

export interface RedisProcess {
  port: number;
  url: string;
  /** SIGKILL, as a crash would. */
  kill(): Promise<void>;
  /** Starts again on the same port (empty). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Every redis-server started here and still running, including one still starting up. */
const live = new Set<ChildProcess>();

/** SIGKILLs every redis-server started here, without waiting: for exit and signal handlers, which cannot await. */
export function killRedisServers(): void {
  for (const child of live) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  live.clear();
}

export const redisServerAvailable = await (async () => {
  const { spawnSync } = await import('node:child_process');
  return { available: spawnSync('redis-server', ['--version']).status === 0, reason: 'redis-server on PATH' };
})();

export async function startRedis(): Promise<RedisProcess> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const launch = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    // A missing binary is reported by the probe's failure below, not as an unhandled 'error' event.
    child.on('error', () => {});
    const started = child;
    live.add(started);
    started.once('exit', () => live.delete(started));
    const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => {});
    try {
      for (let i = 0; i < 100; i++) {
        try {
          if (probe.status !== 'ready') await probe.connect();
          if ((await probe.ping()) === 'PONG') return;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      await kill();
      throw new Error(`redis-server on port ${port} did not start`);
    } finally {
      probe.disconnect();
    }
  };
  const kill = async () => {
    const running = child;
    child = undefined;
    // Never started (no binary) or already gone: no 'exit' event to wait for.
    if (!running || running.pid === undefined || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };
  await launch();
  return { port, url: `redis://127.0.0.1:${port}`, kill, restart: launch, stop: kill };
}
