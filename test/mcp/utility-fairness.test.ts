/**
 * MCP `run_utility` takes its turn in the utilities' worker pool as its caller's account, not in
 * one bucket shared by every agent (docs/utilities.md, "Fair use of the worker pool"). Two agents,
 * each with its own account, through the official MCP SDK client over loopback: while one floods
 * the heavy lane past its share (and is refused), the other's heavy run is queued and answered.
 *
 * The flood is text-diff in word mode on two 20,000-word texts, which runs far past
 * TOOL_TIME_LIMIT_MS, so each run holds the heavy thread for the whole limit and is then ended.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utilityClient } from '../../src/agents/mcp/utility-tools.js';
import { laneSettings } from '../../src/tools/runner.js';
import { startServer, type TestServer } from '../support/server.js';
import { connectMcp, registerAgent } from './helpers.js';

const limitMs = 1500;
let server: TestServer | undefined;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startServer({ TOOL_TIME_LIMIT_MS: String(limitMs) });
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await server?.stop();
});

interface Outcome {
  isError: boolean;
  text: string;
}

const words = (step: number) => Array.from({ length: 20_000 }, (_, i) => `w${(i * step) % 9973}`).join(' ');
const slowDiff = { before: words(7), after: words(13), mode: 'word' };

async function run(client: Client, id: string, input: Record<string, unknown>): Promise<Outcome> {
  // Queued runs wait for the flood ahead of them: longer than the SDK's default 60 s on a busy machine.
  const result = await client.callTool({ name: 'run_utility', arguments: { id, input } }, undefined, { timeout: 300_000 });
  return { isError: result.isError === true, text: (result.content as { text: string }[])[0]?.text ?? '' };
}

describe('run_utility and the worker pool', () => {
  it('gives each MCP caller its own share: one agent’s flood is refused while another agent’s heavy run is answered', { timeout: 300_000 }, async () => {
    const [flooder, other] = await Promise.all([registerAgent(server as TestServer), registerAgent(server as TestServer)]);
    const [floodClient, otherClient] = await Promise.all([connectMcp(server as TestServer, flooder.accessToken), connectMcp(server as TestServer, other.accessToken)]);
    clients.push(floodClient, otherClient);

    const heavy = laneSettings.heavy;
    const share = (heavy.maxRunningPerClient ?? 1) + (heavy.maxQueuedPerClient ?? 8);
    const answered: string[] = [];
    let firstRefusal: () => void = () => undefined;
    const refusedOnce = new Promise<void>((resolve) => {
      firstRefusal = resolve;
    });
    // More runs than the flooder's share, all sent at once; each refusal comes back at once.
    const flood = Array.from({ length: share + 3 }, () =>
      run(floodClient, 'text-diff', slowDiff).then((outcome) => {
        answered.push('flood');
        if (/^rate_limited: /.test(outcome.text)) firstRefusal();
        return outcome;
      }),
    );
    // The flooder holds its whole share now: with one bucket for every MCP caller, the other agent would be refused too.
    await refusedOnce;
    const small = await run(otherClient, 'text-diff', { before: 'a b c', after: 'a c d', mode: 'word' }).then((outcome) => {
      answered.push('other');
      return outcome;
    });
    expect(small.isError, small.text).toBe(false);

    const outcomes = await Promise.all(flood);
    const refused = outcomes.filter((o) => /^rate_limited: /.test(o.text));
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const outcome of refused) {
      expect(outcome.isError).toBe(true);
      expect(outcome.text).toMatch(/limit=tool_queue/);
      expect(outcome.text).toMatch(/retryAfterMs=\d+/);
    }
    // The accepted flood runs were ended at the time limit; the other agent's run was answered before the flood drained.
    for (const outcome of outcomes.filter((o) => !refused.includes(o))) expect(outcome.text).toMatch(/^time_limit_exceeded: /);
    expect(answered.indexOf('other')).toBeLessThan(answered.lastIndexOf('flood'));
  });

  it('names the caller’s account as its pool client', () => {
    expect(utilityClient({ accountId: 'acc_1' })).toBe('account:acc_1');
    expect(utilityClient({ accountId: 'acc_2' })).not.toBe(utilityClient({ accountId: 'acc_1' }));
  });
});
