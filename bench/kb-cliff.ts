/**
 * Issue 14's "no throughput cliff at 10,000 active knowledge bases", in process: CPU per query of a
 * round robin of new questions over N 25-record knowledge bases, through the real application
 * (`app.inject`, a `POST /api/v1/query` with the knowledge base's key, answer cache off), after a
 * restart on the seeded store as the scale benchmark does (bench/scale.ts).
 *
 *   npx tsx bench/kb-cliff.ts [--kbs 2000] [--rounds 3] [--synthetic [--records 24]] [--data DIR] [--profile FILE]
 *
 * - `--kbs N`: N knowledge bases of the shop FAQ (25 records), asked `uniqueQuestions()` as the
 *   scale benchmark's "N knowledge bases" rows are; after one untimed pass that touched each (their
 *   indexes load) and at least 10,000 queries (warm code), `--rounds R` timed passes, at least
 *   2,000 queries: process CPU per query (threads included) and the collector's pauses per query.
 * - `--synthetic`: the scale benchmark's "25 records" row instead: one knowledge base of 24
 *   generated catalogue records asked `scaleQuestions(24)` (N is then 1); with `--records R`, R of
 *   them asked `scaleQuestions(R)`, as the scale benchmark's "R records" rows are.
 * - `--data DIR`: keeps the seeded store in DIR and reuses it when it is there (seeding 10,000
 *   knowledge bases takes minutes).
 * - `--profile FILE`: a V8 CPU profile of the timed passes only (node:inspector), written to FILE,
 *   and its heaviest functions printed (bench/profile.ts's summary).
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import pino from 'pino';
import { SqliteStore } from '../src/adapters/storage/sqlite/dialect.js';
import { compose } from '../src/compose.js';
import { prepareQuestionPath } from '../src/knowledge/query/warm-up.js';
import { buildApp } from '../src/http/app.js';
import { newId } from '../src/ids.js';
import { FAQ, faqJson } from './faq.js';
import { inProcessConfig } from './in-process-config.js';
import { scaleQuestions, syntheticFaq, uniqueQuestions } from './generated.js';
import { summariseProfile } from './profile.js';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
function count(name: string, fallback: number): number {
  const value = Number(option(name) ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a whole number above 0`);
  return value;
}

interface Tenant {
  ragId: string;
  apiKey: string;
}

async function main(): Promise<void> {
  const synthetic = process.argv.includes('--synthetic');
  const kbs = synthetic ? 1 : count('kbs', 2000);
  const records = synthetic ? count('records', 24) : FAQ.length;
  const rounds = count('rounds', 3);
  const kept = option('data');
  const dataDir = kept ?? fs.mkdtempSync(path.join(os.tmpdir(), 'gw-kb-cliff-'));
  fs.mkdirSync(dataDir, { recursive: true });
  const config = inProcessConfig(dataDir, {
    QUERY_RATE_PER_MINUTE: '0',
    QUERY_QUOTA_PER_DAY: '0',
    QUERY_CACHE_TTL_SECONDS: '0',
    MAX_KNOWLEDGE_BASES: '100000',
    MAX_RECORDS_PER_KB: String(Math.max(records, FAQ.length)),
    UPLOAD_MAX_BYTES: String(Math.max(10, Math.ceil(records / 1000)) * 1024 * 1024),
  });
  const logger = pino({ level: 'silent' });
  const store = new SqliteStore(path.join(dataDir, 'groundwork.db'));
  await store.migrate();
  // A store seeded with more knowledge bases serves any smaller N (the first N, and its last to warm up).
  const tenantsFile = path.join(dataDir, `tenants${synthetic ? `-synthetic-${records}` : ''}.json`);
  const tenants: Tenant[] = fs.existsSync(tenantsFile) ? (JSON.parse(fs.readFileSync(tenantsFile, 'utf8')) as Tenant[]) : [];
  if (tenants.length < kbs + 1) {
    const seeding = await compose(config, logger, { store });
    const owner = (await store.accounts.accountForEmail(`kb-cliff.${process.pid}.${Date.now()}@example.test`, newId('acc'))).accountId;
    const file = new TextEncoder().encode(faqJson(synthetic ? syntheticFaq(records) : FAQ));
    if (tenants.length > 0) throw new Error(`${dataDir} holds ${tenants.length - 1} knowledge bases, fewer than ${kbs}`);
    // One more than measured: it warms the restarted process.
    for (let i = 0; i < kbs + 1; i++) {
      const kb = await seeding.deps.knowledge.create(owner, { botName: `Shop ${i}`, description: null, greeting: null });
      await seeding.deps.knowledge.ingest(owner, kb.ragId, { name: 'faq.json', format: 'json', bytes: synthetic && i === kbs ? new TextEncoder().encode(faqJson(FAQ)) : file });
      const { secret } = await seeding.deps.keys.create(owner, kb.ragId, { allowedDomains: [] });
      tenants.push({ ragId: kb.ragId, apiKey: secret });
    }
    await seeding.close();
    fs.writeFileSync(tenantsFile, JSON.stringify(tenants));
  }

  // --- a restarted process ---------------------------------------------------------------------
  const composition = await compose(config, logger, { store });
  const app = await buildApp(composition.deps);
  prepareQuestionPath(); // as the server starts (src/main.ts)
  const query = async (tenant: Tenant, text: string) => {
    const response = await app.inject({ method: 'POST', url: '/api/v1/query', headers: { 'x-api-key': tenant.apiKey, 'content-type': 'application/json' }, payload: JSON.stringify({ ragId: tenant.ragId, query: text }) });
    if (response.statusCode !== 200) throw new Error(`query: HTTP ${response.statusCode} ${response.body.slice(0, 200)}`);
  };
  const measured = tenants.slice(0, kbs);
  const warm = tenants[tenants.length - 1] as Tenant;
  const warmQuestions = uniqueQuestions(900_000);
  for (let i = 0; i < 200; i++) await query(warm, warmQuestions());
  const questions = synthetic ? scaleQuestions(records) : uniqueQuestions(0);
  // Touch every knowledge base once (their indexes load), untimed; at least 10,000 queries, so the
  // code is as warm (JIT) with one knowledge base as with 10,000.
  const pass = Math.max(1, Math.ceil(10_000 / measured.length));
  for (let p = 0; p < pass; p++) for (const tenant of measured) await query(tenant, questions());

  const profileFile = option('profile');
  const session = profileFile ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
  }
  // At least 2,000 timed queries, so one knowledge base's figure is not a handful.
  const passes = Math.max(rounds, Math.ceil(2000 / measured.length));
  // Collector pauses during the timed passes (main thread), beside the CPU time.
  let gcMs = 0;
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let r = 0; r < passes; r++) for (const tenant of measured) await query(tenant, questions());
  const c = process.cpuUsage(c0);
  const wallMs = performance.now() - t0;
  const n = passes * measured.length;
  await new Promise((resolve) => setImmediate(resolve));
  gcObserver.disconnect();
  if (session && profileFile) {
    const { profile } = await session.post('Profiler.stop');
    fs.writeFileSync(profileFile, JSON.stringify(profile));
    session.disconnect();
  }
  const load = os.loadavg().map((x) => x.toFixed(2)).join(' ');
  console.log(`${synthetic ? `1 synthetic ${records}-record knowledge base (scaleQuestions)` : `${kbs} knowledge bases of the shop FAQ`}: ${n} queries, CPU ${((c.user + c.system) / n).toFixed(0)} µs/query (user ${(c.user / n).toFixed(0)}), wall ${((wallMs * 1000) / n).toFixed(0)} µs/query, collector ${((gcMs * 1000) / n).toFixed(0)} µs/query; load ${load}`);
  if (profileFile) console.log(summariseProfile(JSON.parse(fs.readFileSync(profileFile, 'utf8')), 40));
  await app.close();
  await composition.close();
  await store.close();
  if (!kept) fs.rmSync(dataDir, { recursive: true, force: true });
}

await main();
