/**
 * Where a query's time goes, without sockets: Groundwork composed in process
 * as `start()` composes it (SQLite in a temporary directory, memory cache and
 * limiter), requests injected through Fastify (light-my-request) next to the
 * same request on the bare app and on an app holding only the query routes,
 * and the steps of the query path called one by one.
 *
 * Figures are CPU time (process.cpuUsage) per call over batches, the lowest
 * batch of several: CPU time does not count waiting for a CPU, so other work
 * on the machine distorts these far less than the HTTP runs' wall times.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import pino from 'pino';
import { answerCacheKey } from '../src/knowledge/query/answer-cache-key.js';
import { sameQuestion } from '../src/knowledge/query/same-question.js';
import { compose } from '../src/compose.js';
import { prepareQuestionPath } from '../src/knowledge/query/warm-up.js';
import { loadConfig } from '../src/config.js';
import { buildApp } from '../src/http/app.js';
import { registerErrorHandling } from '../src/http/plugins/errors.js';
import { queryRoutes } from '../src/http/routes/query.js';
import { Problem } from '../src/http/schemas.js';
import type { App } from '../src/http/types.js';
import { newId } from '../src/ids.js';
import { buildBareApp } from './bare-app.js';
import { FAQ, faqJson, SAMPLE_QUESTION } from './faq.js';
import { uniqueQuestion } from './generated.js';
import { round } from './stats.js';

export interface BreakdownStep {
  step: string;
  /** CPU microseconds per call: the lowest batch. */
  cpuUs: number;
  /** CPU microseconds per call: the median batch. */
  medianCpuUs: number;
}

export interface Breakdown {
  callsPerBatch: number;
  batches: number;
  steps: BreakdownStep[];
}

async function cpuPerCall(step: string, calls: number, batches: number, fn: (i: number) => unknown): Promise<BreakdownStep> {
  let i = 0;
  // Enough calls for the JIT to settle before anything is timed.
  for (let w = 0; w < Math.max(calls, 1000); w++) await fn(i++);
  const perCall: number[] = [];
  for (let b = 0; b < batches; b++) {
    const t0 = process.cpuUsage();
    for (let c = 0; c < calls; c++) await fn(i++);
    const d = process.cpuUsage(t0);
    perCall.push((d.user + d.system) / calls);
  }
  perCall.sort((a, b) => a - b);
  return { step, cpuUs: round(perCall[0] as number, 1), medianCpuUs: round(perCall[Math.floor(perCall.length / 2)] as number, 1) };
}

export async function queryBreakdown(callsPerBatch: number, batches: number): Promise<Breakdown> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-bench-breakdown-'));
  const settings = (env: Record<string, string>) =>
    loadConfig({
      DATA_DIR: dir,
      PORT: '3999',
      PUBLIC_URL: 'http://127.0.0.1:3999',
      LOG_LEVEL: 'warn',
      IP_RATE_PER_SECOND: '0',
      QUERY_RATE_PER_MINUTE: '0',
      QUERY_QUOTA_PER_DAY: '0',
      QUERY_CACHE_TTL_SECONDS: '60',
      ...env,
    });
  const config = settings({});
  const logger = pino({ level: 'warn' });
  const composition = await compose(config, logger);
  const { deps, store } = composition;
  // As the server starts (src/main.ts): without it, the misspelling index is still being made and
  // the uncached steps measure its fallback, a scan of the language's common words.
  prepareQuestionPath();
  const app = await buildApp(deps);
  // The same database and settings with every limit on, set so high that nothing is refused.
  const limitedComposition = await compose(settings({ IP_RATE_PER_SECOND: '100000000', QUERY_RATE_PER_MINUTE: '1000000000', QUERY_QUOTA_PER_DAY: '1000000000' }), logger, { store });
  const limitedApp = await buildApp(limitedComposition.deps);
  // Only the query routes and the error handler, with the same logger and validator settings.
  const routesOnly = Fastify({
    loggerInstance: logger,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  routesOnly.addSchema(Problem);
  registerErrorHandling(routesOnly as unknown as App, config.publicUrl, config.uploadMaxBytes);
  queryRoutes(routesOnly as unknown as App, deps.queries, deps.metrics, config.sseHeartbeatSeconds * 1000);
  const bare = buildBareApp();
  try {
    const account = await store.accounts.accountForEmail(`breakdown.${process.pid}@example.test`, newId('acc'));
    const kb = await deps.knowledge.create(account.accountId, { botName: 'Bench Shop' });
    await deps.knowledge.ingest(account.accountId, kb.ragId, { name: 'faq.json', format: 'json', bytes: Buffer.from(faqJson(FAQ)) });
    const { secret } = await deps.keys.create(account.accountId, kb.ragId, { allowedDomains: [] });
    await Promise.all([app.ready(), limitedApp.ready(), routesOnly.ready(), bare.ready()]);

    const question = SAMPLE_QUESTION;
    const payload = JSON.stringify({ ragId: kb.ragId, query: question });
    const headers = { 'content-type': 'application/json', 'x-api-key': secret };
    const inject = async (target: { inject: typeof bare.inject }, body: string) => {
      const response = await target.inject({ method: 'POST', url: '/api/v1/query', headers, payload: body });
      if (response.statusCode !== 200) throw new Error(`breakdown: query failed with HTTP ${response.statusCode} ${response.body.slice(0, 300)}`);
    };
    // New questions as the HTTP scenarios ask them (bench/generated.ts), not a running number the records also hold.
    const fresh = (i: number) => uniqueQuestion(i);
    const found = await store.knowledge.findKnowledgeBase(kb.ragId);
    if (!found) throw new Error('breakdown: knowledge base missing');
    const request = { apiKey: secret, ragId: kb.ragId, query: question, origin: undefined, referer: undefined };
    const admitted = await deps.queries.admit(request);
    const signal = new AbortController().signal;
    const drain = async (query: string, i: number) => {
      for await (const _event of deps.queries.answer({ ...admitted, query }, `req_${i}`, signal)) {
        // only the work counts
      }
    };
    const n = callsPerBatch;
    const steps: BreakdownStep[] = [];
    const add = async (step: string, fn: (i: number) => unknown, calls = n) => steps.push(await cpuPerCall(step, calls, batches, fn));
    await add('inject: bare Fastify route', () => inject(bare, payload));
    await add('inject: /api/v1/query cached, whole app', () => inject(app, payload));
    await add('inject: /api/v1/query cached, query routes only', () => inject(routesOnly, payload));
    await add('inject: /api/v1/query cached, whole app, limits on (memory)', () => inject(limitedApp, payload));
    await add('inject: /api/v1/query uncached, whole app', (i) => inject(app, JSON.stringify({ ragId: kb.ragId, query: fresh(i + 1_000_000) })), Math.ceil(n / 4));
    await add('QueryService.admit', () => deps.queries.admit(request));
    await add('  KnowledgeStore.findKnowledgeBase (SQLite)', () => store.knowledge.findKnowledgeBase(kb.ragId));
    await add('  ApiKeyService.verify (key cached)', () => deps.keys.verify(secret, found));
    await add('QueryService.answer, cache hit', () => drain(question, 0));
    await add('  answerCacheKey(sameQuestion())', () => answerCacheKey(kb.ragId, found.contentVersion, sameQuestion(question), 'answer'));
    await add('QueryService.answer, cache miss (retrieve, answer, cache set)', (i) => drain(fresh(i + 2_000_000), i), Math.ceil(n / 4));
    await add('randomBytes(12) (request id)', () => randomBytes(12).toString('base64url'));
    return { callsPerBatch: n, batches, steps };
  } finally {
    await app.close();
    await limitedApp.close();
    await limitedComposition.close();
    await routesOnly.close();
    await bare.close();
    await composition.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
