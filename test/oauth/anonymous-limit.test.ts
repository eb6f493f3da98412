/**
 * Anonymous agent accounts per client address (issue 11: 30 anonymous
 * registrations from one IP in 0.6 s made 30 accounts, each with its own
 * quota). ANON_REGISTRATIONS_PER_MINUTE and _PER_HOUR bound them; a refusal is
 * an RFC 6749 error body (`429 slow_down`, Retry-After) that OAuth libraries
 * parse. Registrations that make no anonymous account are not counted. Runs on
 * the in-process limiter, and on Redis when REDIS_URL is set.
 */
import { Redis } from 'ioredis';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeIf, redis } from '../support/requirements.js';
import { startServer, type TestServer } from '../support/server.js';
import { discover, expectOAuthError, insecure, postJson, uniqueEmail } from './helpers.js';

const anonymous = (server: TestServer) => postJson(server.baseUrl, '/oauth/register', { identity_type: 'anonymous' });

async function burst(server: TestServer, n: number) {
  const responses = await Promise.all(Array.from({ length: n }, () => anonymous(server)));
  return { created: responses.filter((r) => r.status === 201), refused: responses.filter((r) => r.status !== 201) };
}

describe('the per-minute burst (in process)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ ANON_REGISTRATIONS_PER_MINUTE: '3', ANON_REGISTRATIONS_PER_HOUR: '100' });
  });
  afterAll(() => server?.stop());

  /** Registers anonymous agents one at a time until the minute limit refuses one (at most twice its 3); whether it did. */
  async function useUpMinuteLimit(): Promise<boolean> {
    for (let i = 0; i < 6; i++) {
      const response = await anonymous(server);
      if (response.status === 429) return true;
      expect(response.status).toBe(201);
    }
    return false;
  }

  it('creates 3 of 30 anonymous accounts asked for at once and answers the rest 429 slow_down with Retry-After', async () => {
    const { created, refused } = await burst(server, 30);
    expect(created).toHaveLength(3);
    expect(refused).toHaveLength(27);
    for (const response of refused) {
      expectOAuthError(response, 429, 'slow_down');
      const retryAfter = Number(response.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(response.headers.get('ratelimit-policy')).toContain('"anonymous_minute";q=3;w=60');
      expect(response.body.error_description).toMatch(/at most 3 per minute/);
    }
  });

  it('is an error an OAuth library parses (oauth4webapi dynamic client registration)', async () => {
    const as = await discover(server.baseUrl);
    // Use up the minute's registrations just before the library registers: the window slides, and the
    // burst of the test before may have left it by now (or not have run, when this test runs alone).
    expect(await useUpMinuteLimit(), 'the per-minute limit was never reached').toBe(true);
    const response = await oauth.dynamicClientRegistrationRequest(as, { identity_type: 'anonymous' } as never, insecure);
    const error = await oauth.processDynamicClientRegistrationResponse(response).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(oauth.ResponseBodyError);
    expect((error as oauth.ResponseBodyError).error).toBe('slow_down');
    expect((error as oauth.ResponseBodyError).status).toBe(429);
  });

  it('does not count or refuse registrations that make no anonymous account, nor malformed ones', async () => {
    // While the minute's anonymous registrations are used up (here, not by an earlier test: the window slides).
    expect(await useUpMinuteLimit(), 'the per-minute limit was never reached').toBe(true);
    const email = await postJson(server.baseUrl, '/oauth/register', { identity_type: 'identity_assertion', assertion_type: 'verified_email', email: uniqueEmail() });
    expect(email.status).toBe(201);
    const dcr = await postJson(server.baseUrl, '/oauth/register', { redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' });
    expect(dcr.status).toBe(201);
    expectOAuthError(await postJson(server.baseUrl, '/oauth/register', { identity_type: 'anonymous', email: 'x@example.test' }), 400, 'invalid_request');
  });
});

describe('the hourly cap (in process)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ ANON_REGISTRATIONS_PER_MINUTE: '0', ANON_REGISTRATIONS_PER_HOUR: '2' });
  });
  afterAll(() => server?.stop());

  it('refuses past the hourly cap with a Retry-After beyond the minute', async () => {
    expect((await anonymous(server)).status).toBe(201);
    expect((await anonymous(server)).status).toBe(201);
    const refused = await anonymous(server);
    expectOAuthError(refused, 429, 'slow_down');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(60);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refused.body.error_description).toMatch(/at most 2 per hour/);
  });
});

describeIf(redis, 'the per-minute burst on Redis', () => {
  let server: TestServer;
  let client: Redis;
  // The shared limiter's keys for this client address (prefix `gw:rl:`, key = the address).
  const keys = ['gw:rl:anonymous_minute:127.0.0.1', 'gw:rl:anonymous_hour:127.0.0.1'];

  beforeAll(async () => {
    client = new Redis(process.env.REDIS_URL as string);
    await client.del(...keys);
    server = await startServer({ REDIS_URL: process.env.REDIS_URL as string, ANON_REGISTRATIONS_PER_MINUTE: '3', ANON_REGISTRATIONS_PER_HOUR: '100' });
  });
  afterAll(async () => {
    await server?.stop();
    await client?.del(...keys);
    client?.disconnect();
  });

  it('creates 3 of 30 asked for at once, counted in Redis', async () => {
    const { created, refused } = await burst(server, 30);
    expect(created).toHaveLength(3);
    for (const response of refused) expectOAuthError(response, 429, 'slow_down');
    expect(await client.zcard(keys[0] as string)).toBe(3);
  });
});
