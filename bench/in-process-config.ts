/**
 * The configuration of Groundwork composed inside a benchmark script (bench/kb-cliff.ts,
 * bench/kb-memory.ts): the store in `dataDir`, nothing logged, no port, a fixed secret (the seeded
 * store is reused across runs), the per-address limit off (every call comes from this process);
 * `env` adds the script's own settings.
 */
import { type Config, loadConfig } from '../src/config.js';

export function inProcessConfig(dataDir: string, env: Record<string, string>): Config {
  return loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PORT: '0',
    PUBLIC_URL: 'http://127.0.0.1:3999',
    SECRET_KEY: 'bench-secret-key-bench-secret-key-0123456789',
    IP_RATE_PER_SECOND: '0',
    ...env,
  });
}
