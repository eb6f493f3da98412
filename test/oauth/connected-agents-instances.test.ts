/**
 * Connected agents across instances (issue 15, item 7): two servers on one PostgreSQL database.
 * What the person revokes on one instance is refused by the very next request on the other —
 * access token, refresh token, account key — because every credential is checked against its
 * grant in the shared store. A fresh database per run, dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ConnectedAgents } from '../../src/sdk/management.js';
import { describeIf, postgres } from '../support/requirements.js';
import { Client, freePort, signedInClient, startServer, type TestServer } from '../support/server.js';
import { hiddenField, postForm, postJson } from './helpers.js';

const base = '/api/v1/account/connected-agents';

describeIf(postgres, 'connected agents revoked on one instance, refused on the other', () => {
  const database = `gw_connected_${randomBytes(6).toString('hex')}`;
  const adminUrl = process.env.DATABASE_URL as string;
  const databaseUrl = (() => {
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    return url.toString();
  })();
  let a: TestServer | undefined;
  let b: TestServer | undefined;
  let onA: Client;
  let onB: Client;
  /** The instance's own address (both share PUBLIC_URL, A's). */
  const direct = (server: TestServer | undefined) => `http://127.0.0.1:${(server as TestServer).config.port}`;

  async function admin(statement: string): Promise<void> {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${database}`);
    // One public URL for both, as behind a load balancer (it is the issuer and the resource tokens name).
    const port = await freePort();
    const env = { DATABASE_URL: databaseUrl, PUBLIC_URL: `http://127.0.0.1:${port}` };
    [a, b] = await Promise.all([startServer({ ...env, PORT: String(port) }), startServer(env)]);
    // The development outbox is per process: sign in on A; the session works on B too.
    onA = await signedInClient(a.baseUrl);
    onB = new Client(direct(b));
    onB.cookie = onA.cookie;
    onB.csrfToken = onA.csrfToken;
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  /** An anonymous agent registered and claimed on A, adopted by the person on A. */
  async function adoptedAgent(credential: 'api_key' | 'bearer_token') {
    const baseUrl = (a as TestServer).baseUrl;
    const registered = await postJson(baseUrl, '/oauth/register', { identity_type: 'anonymous' });
    const claimed = await postJson(baseUrl, '/oauth/claim', { claim_id: registered.body.claim_id, credential_type: credential });
    expect(claimed.status).toBe(200);
    const html = await (await fetch(registered.body.claim_uri as string, { headers: { cookie: onA.cookie } })).text();
    const done = await postForm(baseUrl, '/claim', { claim: hiddenField(html, 'claim'), csrf: onA.csrfToken, action: 'adopt' }, { cookie: onA.cookie });
    expect(done.status).toBe(200);
    return { clientId: registered.body.client_id as string, ...claimed.body } as { clientId: string; api_key?: string; access_token?: string; refresh_token?: string };
  }

  const kbList = (server: TestServer | undefined, credential: string) =>
    fetch(`${direct(server)}/api/v1/knowledge-bases`, { headers: { authorization: `Bearer ${credential}` } });

  it("an adopted agent revoked on B: A refuses its access token and its refresh token on the next request", async () => {
    const agent = await adoptedAgent('bearer_token');
    expect((await kbList(a, agent.access_token as string)).status).toBe(200);
    expect((await onB.delete(`${base}/adopted-agents/${encodeURIComponent(agent.clientId)}`)).status).toBe(204);
    expect((await kbList(a, agent.access_token as string)).status).toBe(401);
    const refreshed = await postForm(direct(a), '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: agent.refresh_token as string,
      client_id: agent.clientId,
    });
    expect({ status: refreshed.status, error: refreshed.body.error }).toEqual({ status: 400, error: 'invalid_grant' });
  });

  it('an account key revoked on A: B refuses it on the next request', async () => {
    const agent = await adoptedAgent('api_key');
    expect((await kbList(b, agent.api_key as string)).status).toBe(200);
    const listed = (await onB.get<ConnectedAgents>(base)).body;
    const key = listed.accountKeys.find((k) => k.clientId === agent.clientId);
    expect(key).toBeDefined();
    expect((await onA.delete(`${base}/account-keys/${key?.keyId}`)).status).toBe(204);
    expect((await kbList(b, agent.api_key as string)).status).toBe(401);
  });
});
