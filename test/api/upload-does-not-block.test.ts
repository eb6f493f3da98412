/**
 * Issue 11, item 1: a hostile upload must not stall other tenants. A freshly signed-in account
 * uploads files built to be expensive (8.8 MB of Markdown with 500 000 headings, 10 MB of `Q:`/`A:`
 * pairs, a file of one heading repeated a million times) while another account's knowledge base is
 * queried over real sockets. The queries' p99 during the uploads must stay within a generous
 * multiple of their p99 before plus half a second (CI shares two busy cores), and every upload gets
 * its refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, signedInClient, type TestServer } from '../support/server.js';
import { ask, createKb, faqKnowledgeBase } from '../query/helpers.js';
import { expectProblem, startTestServer } from './helpers.js';

let server: TestServer | undefined;
let victim: { ragId: string; apiKey: string };
let attacker: Client;

beforeAll(async () => {
  // Uncached, unlimited queries: every query does the full retrieval and answering work.
  server = await startTestServer({ QUERY_RATE_PER_MINUTE: '0', QUERY_QUOTA_PER_DAY: '0', QUERY_CACHE_TTL_SECONDS: '0', MAX_KNOWLEDGE_BASES: '10' });
  const owner = await signedInClient(server.baseUrl);
  victim = await faqKnowledgeBase(owner);
  attacker = await signedInClient(server.baseUrl);
});
afterAll(() => server?.stop());

const questions = ['How long do I have to return a bike?', 'Where do orders ship from?', 'Is there a warranty on frames?', 'Do you sell gift cards?'];

/** One query's wall time in milliseconds, after checking it was answered. */
async function timedQuery(k: number): Promise<number> {
  const started = performance.now();
  const response = await ask((server as TestServer).baseUrl, victim.apiKey, victim.ragId, questions[k % questions.length] as string);
  const elapsed = performance.now() - started;
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return elapsed;
}

function p99(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] as number;
}

function markdownHeadings(count: number): string {
  return Array.from({ length: count }, (_, k) => `# Heading ${k}\n`).join('');
}

function qaPairs(bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let k = 0; size < bytes; k++) {
    const pair = `Q: What is question ${k}?\nA: Answer ${k}.\n\n`;
    parts.push(pair);
    size += pair.length;
  }
  return parts.join('');
}

describe('uploads do not block queries', () => {
  it('keeps another knowledge base’s query latency while hostile uploads are processed and refused', { timeout: 180_000 }, async () => {
    const ragIds = await Promise.all([1, 2, 3].map(() => createKb(attacker, 'Attacker')));
    const [headingsKb, pairsKb, sameKb] = ragIds as [string, string, string];
    // Built before measuring: the test shares its event loop with the server.
    const files = { headings: markdownHeadings(500_000), pairs: qaPairs(10_000_000), same: '# Same\n'.repeat(1_200_000) };

    for (let k = 0; k < 10; k++) await timedQuery(k); // warm the index and the connection pool
    const before: number[] = [];
    for (let k = 0; k < 60; k++) before.push(await timedQuery(k));

    let settled = false;
    const uploads = Promise.all([
      attacker.upload(headingsKb, 'headings.md', files.headings),
      attacker.upload(pairsKb, 'pairs.txt', files.pairs),
      attacker.upload(sameKb, 'same.md', files.same),
    ]).finally(() => {
      settled = true;
    });
    const during: number[] = [];
    // Query until every upload is answered (and at least a batch's worth, should they be quick).
    while (!settled || during.length < 30) during.push(await timedQuery(during.length));
    const [headings, pairs, same] = await uploads;

    const figures = { beforeP99: Math.round(p99(before)), duringP99: Math.round(p99(during)), duringMax: Math.round(Math.max(...during)), queriesDuring: during.length };
    console.info(`upload-does-not-block: ${JSON.stringify(figures)}`);

    expect(expectProblem(headings, 409, 'quota_exceeded')).toMatchObject({ needed: 26, available: 25, limit: 25 });
    expect(expectProblem(pairs, 409, 'quota_exceeded')).toMatchObject({ needed: 26, available: 25, limit: 25 });
    expect(expectProblem(same, 413, 'too_many_records')).toMatchObject({ maxRecords: 10_000 });
    // Nothing of the refused uploads was stored.
    for (const ragId of ragIds) expect((await attacker.get(`/api/v1/knowledge-bases/${ragId}`)).body).toMatchObject({ recordCount: 0 });
    // Generous because the "before" window can be quiet and the "during" one share the two cores with
    // the other test worker, three upload threads and this process (p99 before 8–287 ms and during
    // 32–396 ms across runs that passed the rest). What it must catch is an upload read on the HTTP
    // thread: reading these files synchronously takes 1.3–2.7 s each, and every query waits it out.
    expect(p99(during)).toBeLessThanOrEqual(10 * p99(before) + 500);
  });
});
