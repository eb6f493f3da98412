/**
 * Groundwork as the benchmark runs it: `start(loadConfig(env))`, the same
 * composition `npm start` uses, in its own process. The environment comes
 * from the runner (LOG_LEVEL=warn, a temporary DATA_DIR, the limits of the
 * scenario); PORT and PUBLIC_URL are filled in here when missing.
 */
import net from 'node:net';
import { loadConfig } from '../src/config.js';
import { start } from '../src/main.js';
import { serveParent } from './children.js';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const env: Record<string, string | undefined> = { ...process.env };
if (!env.PORT) env.PORT = String(await freePort());
env.HOST ??= '127.0.0.1';
env.PUBLIC_URL ??= `http://127.0.0.1:${env.PORT}`;
const config = loadConfig(env);
const running = await start(config);
serveParent(config.publicUrl, () => running.stop(), {
  store: running.store.kind,
  redis: config.redisUrl !== undefined,
  queryCacheTtlSeconds: config.queryCacheTtlSeconds,
  queryRatePerMinute: config.queryRatePerMinute,
  queryQuotaPerDay: config.queryQuotaPerDay,
  ipRatePerSecond: config.ipRatePerSecond,
});
