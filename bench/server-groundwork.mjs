// Groundwork as the benchmark runs it: the production build (`dist/`, what `npm start` runs; the
// runner builds it first when stale, bench/children.ts `ensureBuilt`), `start(loadConfig(env))` in
// its own process under plain `node`. Not under tsx: its transform keeps function names by calling a
// helper on every named function and class as it is created, which costs CPU on every request
// and a few hundred bytes per long-lived closure that the build does not (docs/performance.md,
// Method). The environment comes from the runner (LOG_LEVEL=warn, a temporary DATA_DIR, the limits
// of the scenario); PORT and PUBLIC_URL are filled in here when missing.
import { loadConfig } from '../dist/config.js';
import { start } from '../dist/main.js';
import { freePort } from './free-port.mjs';
import { serveParent } from './serve-parent.mjs';

const env = { ...process.env };
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
