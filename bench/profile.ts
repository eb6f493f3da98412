/**
 * Where a request's time goes: starts Groundwork under `--cpu-prof`, loads one
 * scenario with autocannon, stops the server and prints the heaviest
 * functions (self time) and the share per source area. V8 samples wall time:
 * on a busy machine, time spent waiting for the CPU lands on whatever frame
 * was running (often `writev`), so profile on a quiet machine.
 *
 *   npx tsx bench/profile.ts cached|uncached|limits|stores|stream|stream-uncached|bare [seconds]
 *
 * `stores` is `limits` on PostgreSQL + Redis (DATABASE_URL and REDIS_URL; a schema of its own,
 * dropped afterwards), as the benchmark's `stores` scenario runs its second instance.
 * `stream` replays the FAQ's questions (answer cache on, mostly hits); `stream-uncached` sends a new
 * question per stream with the answer cache off, as the benchmark's "cache off, new questions" arm.
 *
 * The profile is kept in the OS temp directory (groundwork-profiles/; open it
 * in Chrome DevTools or VS Code to see the call tree), not in the repository.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { killAll, removeTempDirs, repoRoot, spawnServer, tempDir } from './children.js';
import { QUESTIONS, SAMPLE_QUESTION } from './faq.js';
import { uniqueQuestions } from './generated.js';
import { load } from './http-load.js';
import { prepareKnowledgeBase } from './setup.js';
import { withSchema } from './scale.js';
import { streamScenario } from './streams.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function area(url: string): string {
  if (!url) return '(native / idle / gc)';
  const rel = url.replace(/^file:\/\//, '').replace(`${repoRoot}/`, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(rel);
  if (pkg) return `npm:${pkg[1]}`;
  if (rel.startsWith('node:')) return rel.split('/')[0] as string;
  if (rel.startsWith('src/')) return rel.split('/').slice(0, 3).join('/');
  return rel;
}

export function summariseProfile(profile: CpuProfile, top = 25): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fn = new Map<string, number>();
  const areas = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || '(anonymous)'} ${url.replace(`file://${repoRoot}/`, '')}:${lineNumber + 1}`;
    fn.set(key, (fn.get(key) ?? 0) + us);
    const a = functionName === '(idle)' ? '(idle)' : functionName === '(garbage collector)' ? '(gc)' : area(url);
    areas.set(a, (areas.get(a) ?? 0) + us);
  }
  const lines = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`)
      .join('\n');
  return `By area (self time):\n${lines(areas, 20)}\n\nHeaviest functions (self time):\n${lines(fn, top)}`;
}

async function main(): Promise<void> {
  const scenario = process.argv[2] ?? 'cached';
  if (scenario !== 'stores') return profile(scenario, {});
  const databaseUrl = process.env.DATABASE_URL?.trim();
  const redisUrl = process.env.REDIS_URL?.trim();
  if (!databaseUrl || !redisUrl) throw new Error('the stores profile needs DATABASE_URL and REDIS_URL');
  await withSchema(databaseUrl, (url) => profile(scenario, { DATABASE_URL: url, REDIS_URL: redisUrl, RETRIEVAL_BACKEND: 'memory' }));
}

async function profile(scenario: string, storeEnv: Record<string, string>): Promise<void> {
  const seconds = Number(process.argv[3] ?? 8);
  const profileDir = path.join(os.tmpdir(), 'groundwork-profiles');
  fs.mkdirSync(profileDir, { recursive: true });
  const before = new Set(fs.readdirSync(profileDir));
  const env: Record<string, string> = {
    LOG_LEVEL: 'warn',
    DATA_DIR: tempDir('gw-bench-prof-'),
    IP_RATE_PER_SECOND: '0',
    QUERY_RATE_PER_MINUTE: '0',
    QUERY_QUOTA_PER_DAY: '0',
    // The load comes from one address, with up to 200 streams open at once.
    IP_MAX_CONNECTIONS: '0',
    QUERY_CACHE_TTL_SECONDS: scenario === 'uncached' || scenario === 'stream-uncached' ? '0' : '60',
  };
  if (scenario === 'limits' || scenario === 'stores') Object.assign(env, { IP_RATE_PER_SECOND: '100000000', QUERY_RATE_PER_MINUTE: '1000000000', QUERY_QUOTA_PER_DAY: '1000000000' });
  Object.assign(env, storeEnv);
  const server = await spawnServer(`${scenario} (profiled)`, {
    script: scenario === 'bare' ? 'server-bare.ts' : 'server-groundwork.mjs',
    env: scenario === 'bare' ? {} : env,
    nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
  });
  try {
    const kb = scenario === 'bare' ? { ragId: 'kb_bare', apiKey: 'none' } : await prepareKnowledgeBase(server.url);
    if (scenario === 'stream' || scenario === 'stream-uncached') {
      const target = { url: server.url, ragId: kb.ragId, apiKey: kb.apiKey, questions: scenario === 'stream' ? QUESTIONS : uniqueQuestions() };
      for (let i = 0; i < Math.max(1, Math.round(seconds)); i++) await streamScenario(target, 50, 20, 1);
    } else {
      // Uncached: every question new (bench/generated.ts), as in `npm run bench`; cycling the FAQ's
      // questions would profile the question memo's hits instead of a question's analysis.
      const fresh = uniqueQuestions();
      const result = await load({
        label: scenario,
        server,
        path: '/api/v1/query',
        bodies: [{ ragId: kb.ragId, query: SAMPLE_QUESTION }],
        ...(scenario === 'uncached' ? { nextBody: () => ({ ragId: kb.ragId, query: fresh() }) } : {}),
        headers: { 'x-api-key': kb.apiKey },
        connections: 50,
        durationSec: seconds,
        warmupSec: 0,
      });
      process.stdout.write(`${result.rps} req/s, server CPU ${result.serverCpuUsPerRequest} µs/request\n`);
    }
  } finally {
    await server.stop();
    removeTempDirs();
  }
  const written = fs.readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile') && !before.has(f));
  const file = written[0];
  if (!file) throw new Error('no profile was written');
  const named = path.join(profileDir, `${scenario}-${file}`);
  fs.renameSync(path.join(profileDir, file), named);
  process.stdout.write(`${summariseProfile(JSON.parse(fs.readFileSync(named, 'utf8')) as CpuProfile)}\n\nProfile: ${named}\n`);
}

// Run only when executed directly (summariseProfile can be imported).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    killAll();
    process.exit(1);
  });
}
