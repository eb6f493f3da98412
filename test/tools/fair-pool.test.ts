/**
 * Fair use of the utility worker pool (docs/utilities.md, "Fair use of the worker pool"), over
 * real HTTP against a real server. Clients are told apart by X-Forwarded-For, which the server
 * trusts only from TRUST_PROXY (here the loopback the test connects from). TOOL_TIME_LIMIT_MS keeps
 * each heavy run of the flood short, so the flood drains in seconds, not minutes.
 *
 * The flood: text-diff in word mode on two 20,000-word texts runs far past the time limit, so every
 * run of it holds a heavy thread for the whole limit and is then ended (422 time_limit_exceeded).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meta as pdfTextExtract } from '../../src/tools/pdf-text-extract/meta.js';
import { laneSettings } from '../../src/tools/runner.js';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;
const limitMs = 1500;

beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: '127.0.0.1', TOOL_TIME_LIMIT_MS: String(limitMs) });
});
afterAll(() => server?.stop());

interface Answer {
  status: number;
  at: number;
  retryAfter: string | null;
  body: Record<string, unknown>;
}

async function post(id: string, body: unknown, ip: string, on: TestServer = server): Promise<Answer> {
  const response = await fetch(`${on.baseUrl}/api/tools/${id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, at: performance.now(), retryAfter: response.headers.get('retry-after'), body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

const words = (step: number) => Array.from({ length: 20_000 }, (_, i) => `w${(i * step) % 9973}`).join(' ');
const slowDiff = { before: words(7), after: words(13), mode: 'word' };
/** The first worked example of pdf-text-extract (a 3-page PDF), as Base64. */
const pdfExample = () => pdfTextExtract.examples[0]?.input.file as string;

describe('fair use of the worker pool', () => {
  it('a light run from one IP answers while another IP floods the heavy lane, which keeps to its share', { timeout: 120_000 }, async () => {
    const heavy = laneSettings.heavy;
    const ownRunning = heavy.maxRunningPerClient ?? 1;
    const ownQueued = heavy.maxQueuedPerClient ?? 8;
    const flooder = '203.0.113.7';
    // More runs than the flooder's share (on threads + waiting), all sent at once.
    const flood = Array.from({ length: ownRunning + ownQueued + 4 }, () => post('text-diff', slowDiff, flooder));
    // Let the flood reach the server before the others ask.
    await new Promise((resolve) => setTimeout(resolve, 300));

    const light = post('json-format', { text: '{"b":1,"a":[1,2]}', sortKeys: true }, '198.51.100.20');
    const otherHeavy = post('pdf-text-extract', { file: pdfExample() }, '198.51.100.30');

    const lightAnswer = await light;
    const sent = performance.now();
    expect(lightAnswer.status).toBe(200);
    expect(lightAnswer.body).toEqual({ result: '{\n  "a": [\n    1,\n    2\n  ],\n  "b": 1\n}' });

    const answers = await Promise.all(flood);
    const lastFlood = Math.max(...answers.map((a) => a.at));
    // The light run did not wait for the heavy lane: it was answered before the flood drained.
    expect(lightAnswer.at).toBeLessThan(lastFlood);
    expect(sent).toBeLessThan(lastFlood);

    // Another client's heavy run took its turn (round-robin), rather than waiting behind the whole flood.
    // It ran (on a busy machine the short TOOL_TIME_LIMIT_MS may end even this small PDF: that
    // is still a run on a heavy thread, not a refusal or a wait behind the flood).
    const otherAnswer = await otherHeavy;
    if (otherAnswer.status !== 200) expect({ status: otherAnswer.status, code: otherAnswer.body.code }).toEqual({ status: 422, code: 'time_limit_exceeded' });
    expect(otherAnswer.at).toBeLessThan(lastFlood);

    // Beyond its share, the flooder is refused with a clear 429 and Retry-After.
    const refused = answers.filter((a) => a.status === 429);
    const accepted = answers.filter((a) => a.status !== 429);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(accepted.length).toBeLessThanOrEqual(ownRunning + ownQueued);
    for (const answer of refused) {
      expect(answer.body).toMatchObject({ status: 429, limit: 'tool_queue' });
      expect(String(answer.body.type)).toMatch(/\/docs\/errors\/rate_limited$/);
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    // The accepted runs were each ended at the time limit, and their threads replaced.
    for (const answer of accepted) expect(answer.body).toMatchObject({ status: 422, limitMs });

    // The heavy lane recovered: a normal run succeeds on its replaced threads. A small text-diff
    // (heavy lane, nothing to load): a PDF's first run on a fresh thread loads pdf.js inside the
    // test's short limit, and on a slow host every such run was ended by the limit, which replaced
    // the thread, so the next run was cold again (CI, session 21). Tries until one succeeds, each
    // of which must either succeed or be ended by the limit (never refused).
    const smallDiff = { before: 'the kettle is red', after: 'the kettle is blue', mode: 'word' };
    let after = await post('text-diff', smallDiff, flooder);
    for (let attempt = 1; attempt < 10 && after.status !== 200; attempt += 1) {
      expect({ status: after.status, code: after.body.code }).toEqual({ status: 422, code: 'time_limit_exceeded' });
      after = await post('text-diff', smallDiff, flooder);
    }
    expect(after.status).toBe(200);
  });

  describe('memory and output budgets', () => {
    // Their own server with the tools' own time limits: on a busy machine, filling a heap or
    // building 36 MB can take longer than the flood's short TOOL_TIME_LIMIT_MS, which would end
    // the run first (422) and hide the budget under test.
    let uncapped: TestServer;
    beforeAll(async () => {
      uncapped = await startServer({ TRUST_PROXY: '127.0.0.1' });
    });
    afterAll(() => uncapped?.stop());

    it('a run past the memory limit is refused with 413 and the lane recovers', { timeout: 60_000 }, async () => {
      // 16 KB of nested brackets pretty-print to about 256 MB: past the light lane's heap limit.
      const depth = 8000;
      const answer = await post('json-format', { text: '['.repeat(depth) + ']'.repeat(depth), indent: 4 }, '198.51.100.40', uncapped);
      expect(answer.status).toBe(413);
      expect(answer.body).toMatchObject({ status: 413, memoryLimitMb: laneSettings.light.resourceLimits?.maxOldGenerationSizeMb });
      expect(String(answer.body.detail)).toMatch(/memory/);

      const next = await post('json-format', { text: '[1]' }, '198.51.100.40', uncapped);
      expect(next.status).toBe(200);
      expect(next.body).toEqual({ result: '[\n  1\n]' });
    });

    it('an output over the lane’s output cap is refused with 413', { timeout: 60_000 }, async () => {
      // About 36 MB of output from 8 KB of input: under the heap limit, over the 16 MB output cap.
      const depth = 3000;
      const answer = await post('json-format', { text: '['.repeat(depth) + ']'.repeat(depth), indent: 4 }, '198.51.100.41', uncapped);
      expect(answer.status).toBe(413);
      expect(String(answer.body.detail)).toMatch(/output would be larger than 16 MB/);
    });
  });

  it('lists each tool’s lane in the catalogue', async () => {
    const { tools } = (await (await fetch(`${server.baseUrl}/api/tools`)).json()) as { tools: { id: string; weight: string }[] };
    const weight = Object.fromEntries(tools.map((t) => [t.id, t.weight]));
    expect(weight).toMatchObject({ 'json-format': 'light', hash: 'light', 'pdf-text-extract': 'heavy', 'image-resize': 'heavy', 'ocr-image': 'heavy', 'text-diff': 'heavy' });
  });
});
