/**
 * Small items of issue 15 (item 9): a pending registration and its pending claim tell the
 * polling agent the `interval` (RFC 8628 §3.2, §3.5); the whole-service limit's 429 on the OAuth
 * JSON endpoints is an OAuth error body (`temporarily_unavailable`, Retry-After, RateLimit
 * fields) that oauth4webapi reads as one, while other routes keep their problem documents; and
 * for a verified Web Bot Auth bot the RateLimit-Policy names the bot's bucket.
 */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { newBot, signRequest, type TestBot } from '../web-bot-auth/fixtures.js';
import { type BotDirectoryServer, serveBotDirectory } from '../web-bot-auth/harness.js';
import { discover, expectOAuthError, insecure, postJson, uniqueEmail } from './helpers.js';

describe('polling interval', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.stop());

  it('is in the pending registration and in every authorization_pending answer', async () => {
    const registered = await postJson(server.baseUrl, '/oauth/register', { identity_type: 'identity_assertion', assertion_type: 'verified_email', email: uniqueEmail() });
    expect(registered.body).toMatchObject({ status: 'pending_verification', interval: 5 });
    const pending = await postJson(server.baseUrl, '/oauth/claim', { claim_id: registered.body.claim_id });
    expectOAuthError(pending, 403, 'authorization_pending');
    expect(pending.body.interval).toBe(5);
    // A ready registration is not polled: no interval.
    expect((await postJson(server.baseUrl, '/oauth/register', { identity_type: 'anonymous' })).body.interval).toBeUndefined();
  });
});

describe('429 on the OAuth endpoints (IP_RATE_PER_SECOND=2)', () => {
  let server: TestServer;
  let bot: TestBot;
  let directory: BotDirectoryServer;
  beforeAll(async () => {
    bot = await newBot();
    directory = await serveBotDirectory([bot]);
    server = await startServer({ IP_RATE_PER_SECOND: '2' });
  });
  afterAll(async () => {
    await server?.stop();
    await directory?.close();
  });

  /** Requests at once until one is refused (the window is a sliding second, so a burst of 8 overflows it). */
  async function burst(send: () => Promise<Response>): Promise<Response> {
    for (;;) {
      const responses = await Promise.all(Array.from({ length: 8 }, send));
      const refused = responses.find((r) => r.status === 429);
      if (refused) return refused;
    }
  }

  it('is an OAuth error body with Retry-After and RateLimit fields, which oauth4webapi parses', async () => {
    const as = await discover(server.baseUrl).catch(() => undefined);
    const refused = await burst(() =>
      fetch(`${server.baseUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' }),
    );
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('ratelimit-policy')).toBe('"ip";q=2;w=1');
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(await refused.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });

    // oauth4webapi reads it as an OAuth error (not a malformed response).
    const metadata = as ?? { issuer: server.baseUrl, token_endpoint: `${server.baseUrl}/oauth/token` };
    const client = { client_id: 'cli_x' };
    let parsed: unknown;
    for (;;) {
      const responses = await Promise.all(
        Array.from({ length: 8 }, () => oauth.clientCredentialsGrantRequest(metadata, client, oauth.ClientSecretPost('s'), {}, insecure)),
      );
      const limited = responses.find((r) => r.status === 429);
      if (!limited) continue;
      parsed = await oauth.processClientCredentialsResponse(metadata, client, limited).catch((error: unknown) => error);
      break;
    }
    expect(parsed).toBeInstanceOf(oauth.ResponseBodyError);
    expect((parsed as oauth.ResponseBodyError).error).toBe('temporarily_unavailable');
  });

  it('leaves other routes with their problem documents', async () => {
    const refused = await burst(() => fetch(`${server.baseUrl}/api/v1/knowledge-bases`));
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('names the bot bucket in RateLimit-Policy for a verified bot', async () => {
    const signed = async () =>
      fetch(`${server.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(await signRequest(bot, { url: `${server.baseUrl}/oauth/token`, method: 'POST', agentUrl: directory.url })),
        },
        body: 'grant_type=client_credentials',
      });
    const answer = await signed();
    expect(answer.headers.get('ratelimit-policy')).toContain('"bot";q=2;w=1');
    const refused = await burst(signed);
    expect(refused.headers.get('ratelimit-policy')).toContain('"bot";q=2;w=1');
    expect(((await refused.json()) as { error: string }).error).toBe('temporarily_unavailable');
  });
});
