/**
 * Does a Groundwork process answer as fast after it has sat idle as before? Starts servers in
 * pairs (npm start's node flags, and the same without them), gives each the 25-record FAQ (an
 * upload: ingestion allocates, then the process goes quiet), lets all of them idle for
 * `--idle` seconds, then measures each one's server CPU per cached query over interleaved
 * windows. This is how V8's memory reducer was found to leave an idle process about a third slower
 * per cached query (docs/decisions.md, Performance; docs/indexing.md, session 13).
 *
 *   npx tsx bench/idle-state.ts [--pairs 3] [--idle 70] [--windows 2] [--seconds 3]
 *
 * Servers pinned to CPU 1 and this process to CPU 0 when taskset is there, as in `npm run bench`.
 * Loopback only; bounded by pairs × windows × seconds.
 */
import { parseArgs } from 'node:util';
import { killAll, pinSelf, removeTempDirs, type ServerChild, spawnServer, startScriptNodeFlags, tempDir } from './children.js';
import { SAMPLE_QUESTION } from './faq.js';
import { load } from './http-load.js';
import { prepareKnowledgeBase } from './setup.js';
import { spread } from './stats.js';

const { values } = parseArgs({
  options: { pairs: { type: 'string', default: '3' }, idle: { type: 'string', default: '70' }, windows: { type: 'string', default: '2' }, seconds: { type: 'string', default: '3' } },
});
const pairs = Math.max(1, Number(values.pairs));
const idleSec = Math.max(0, Number(values.idle));
const windows = Math.max(1, Number(values.windows));
const seconds = Math.max(1, Number(values.seconds));

async function main(): Promise<void> {
  const pinned = pinSelf('0');
  const flags = startScriptNodeFlags().join(' ') || '(none)';
  const servers: { server: ServerChild; ragId: string; apiKey: string; cpu: number[] }[] = [];
  try {
    for (let i = 0; i < pairs; i++) {
      for (const without of [false, true]) {
        const env = { LOG_LEVEL: 'warn', DATA_DIR: tempDir('gw-idle-state-'), IP_RATE_PER_SECOND: '0', QUERY_RATE_PER_MINUTE: '0', QUERY_QUOTA_PER_DAY: '0', IP_MAX_CONNECTIONS: '0', QUERY_CACHE_TTL_SECONDS: '600' };
        const name = `${without ? 'without' : 'with'} ${flags} #${i + 1}`;
        const server = await spawnServer(name, { script: 'server-groundwork.mjs', env, withoutStartFlags: without, cpus: pinned ? '1' : undefined });
        const kb = await prepareKnowledgeBase(server.url);
        servers.push({ server, ragId: kb.ragId, apiKey: kb.apiKey, cpu: [] });
      }
    }
    process.stderr.write(`${servers.length} servers ready; idle for ${idleSec} s\n`);
    await new Promise((resolve) => setTimeout(resolve, idleSec * 1000));
    for (let w = 0; w < windows; w++) {
      for (const s of servers) {
        const result = await load({
          label: s.server.name,
          server: s.server,
          path: '/api/v1/query',
          bodies: [{ ragId: s.ragId, query: SAMPLE_QUESTION }],
          headers: { 'x-api-key': s.apiKey },
          connections: 50,
          durationSec: seconds,
          warmupSec: w === 0 ? 1 : 0,
        });
        s.cpu.push(result.serverCpuUsPerRequest);
      }
    }
    process.stdout.write(`server CPU µs per cached query after ${idleSec} s idle (median of ${windows} windows of ${seconds} s)\n`);
    for (const s of servers) process.stdout.write(`${s.server.name.padEnd(40)} ${spread(s.cpu).median.toFixed(1).padStart(6)}   [${s.cpu.map((c) => c.toFixed(1)).join(' ')}]\n`);
  } finally {
    await Promise.all(servers.map((s) => s.server.stop()));
    removeTempDirs();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  killAll();
  process.exit(1);
});
