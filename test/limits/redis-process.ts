/**
 * A throwaway redis-server on a free loopback port, for outage tests: no
 * persistence, so a restart comes back empty (the worst case for limits).
 * Every test that starts one stops it in afterAll/finally.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from '../support/server.js';

export interface RedisProcess {
  port: number;
  url: string;
  /** SIGKILL, as a crash would. */
  kill(): Promise<void>;
  /** Starts again on the same port (empty). */
  restart(): Promise<void>;
  stop(): Promise<void>;
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
      throw new Error(`redis-server on port ${port} did not start`);
    } finally {
      probe.disconnect();
    }
  };
  const kill = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };
  await launch();
  return { port, url: `redis://127.0.0.1:${port}`, kill, restart: launch, stop: kill };
}
