/**
 * Refresh-token rotation that survives concurrency (issue 15 item 1, docs/agents.md): a rotated
 * refresh token presented again within REFRESH_REUSE_GRACE_SECONDS gets the SAME successor (and a
 * fresh access token); presented after the window, or after the successor was used, it revokes
 * the grant. Driven by oauth4webapi and by the MCP SDK's own OAuth client on a real server, and
 * through the services with an injected clock on a real store (SQLite, and PostgreSQL when
 * DATABASE_URL is set).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as oauth from 'oauth4webapi';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OutboxMailer } from '../../src/adapters/mail/outbox-mailer.js';
import { PostgresStore } from '../../src/adapters/storage/postgres/dialect.js';
import { SqliteStore } from '../../src/adapters/storage/sqlite/dialect.js';
import { createOAuth, type OAuth } from '../../src/identity/oauth/oauth.js';
import type { Store } from '../../src/ports/storage.js';
import { structured } from '../mcp/helpers.js';
import { describeIf, postgres } from '../support/requirements.js';
import { type CodeFlow, startCodeFlow } from './code-flow.js';
import { insecure } from './helpers.js';
import { MemoryProvider } from './mcp-provider.js';

describe('two parallel refreshes over HTTP (oauth4webapi)', () => {
  let flow: CodeFlow;
  beforeAll(async () => {
    flow = await startCodeFlow();
  });
  afterAll(() => flow?.server.stop());

  const refresh = (token: string) => oauth.refreshTokenGrantRequest(flow.as, flow.client, oauth.None(), token, insecure);

  it('answers both with the same successor refresh token, and both access tokens work', async () => {
    const { tokens } = await flow.tokensFor();
    const original = tokens.refresh_token as string;
    const answers = await Promise.all([refresh(original), refresh(original)]);
    const pairs = await Promise.all(answers.map((a) => oauth.processRefreshTokenResponse(flow.as, flow.client, a)));
    expect(pairs[0]?.refresh_token).toMatch(/^gw_rt_[0-9A-Za-z]{43}$/);
    expect(pairs[0]?.refresh_token).not.toBe(original);
    expect(pairs[1]?.refresh_token).toBe(pairs[0]?.refresh_token);
    for (const pair of pairs) expect((await flow.managementApi(pair.access_token)).status).toBe(200);

    // The successor rotates as usual; the original, still within the window, then gets the live
    // end of the chain (what a client that read it before both rotations needs), not the spent one.
    const next = await oauth.processRefreshTokenResponse(flow.as, flow.client, await refresh(pairs[0]?.refresh_token as string));
    expect(next.refresh_token).not.toBe(pairs[0]?.refresh_token);
    const late = await oauth.processRefreshTokenResponse(flow.as, flow.client, await refresh(original));
    expect(late.refresh_token).toBe(next.refresh_token);
    expect((await flow.managementApi(late.access_token)).status).toBe(200);
    expect((await flow.managementApi(next.access_token)).status).toBe(200);
  });
});

describe('two and ten parallel tool calls across an access-token expiry (MCP SDK client)', () => {
  // Access tokens live 3 s here (OAUTH_ACCESS_TOKEN_SECONDS), so the test meets a real expiry.
  const lifetimeSeconds = 3;
  let flow: CodeFlow;
  beforeAll(async () => {
    flow = await startCodeFlow({ OAUTH_ACCESS_TOKEN_SECONDS: String(lifetimeSeconds) });
  });
  afterAll(() => flow?.server.stop());

  /** What /api/mcp answers an initialize carrying `token`: 401 once the token has expired. */
  const mcpStatus = async (mcpUrl: URL, token: string) => {
    const response = await fetch(mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'expiry-probe', version: '1.0.0' } },
      }),
    });
    await response.body?.cancel();
    return response.status;
  };

  it.each([2, 10])(
    'refreshes %i times at once with one refresh token and every call succeeds',
    async (parallel) => {
      const mcpUrl = new URL(`${flow.server.baseUrl}/api/mcp`);
      const provider = new MemoryProvider();
      const first = new Client({ name: 'refresh-race', version: '1.0.0' });
      await expect(first.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }))).rejects.toBeInstanceOf(UnauthorizedError);
      const code = (await flow.consent(provider.authorizationUrl as URL)).searchParams.get('code') as string;
      await new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }).finishAuth(code);
      const before = provider.stored?.refresh_token;
      const accessToken = provider.stored?.access_token as string;
      expect(provider.stored?.expires_in).toBe(lifetimeSeconds);

      // Wait until the server refuses the access token (its lifetime plus the 5 s clock skew tolerated).
      await vi.waitFor(async () => expect(await mcpStatus(mcpUrl, accessToken)).toBe(401), { timeout: 60_000, interval: 250 });
      const call = async () => {
        const client = new Client({ name: 'refresh-race', version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
        try {
          return structured<{ knowledgeBases: unknown[] }>(await client.callTool({ name: 'list_knowledge_bases', arguments: {} }));
        } finally {
          await client.close();
        }
      };
      // Every client finds the token expired and refreshes with the same refresh token.
      const results = await Promise.all(Array.from({ length: parallel }, call));
      expect(results.every((r) => Array.isArray(r.knowledgeBases))).toBe(true);
      expect(provider.authorizations).toBe(1);
      expect(provider.stored?.refresh_token).not.toBe(before);
      // And the agent stays connected afterwards.
      expect(Array.isArray((await call()).knowledgeBases)).toBe(true);
    },
    120_000,
  );
});

/** The services over a real store, with a clock the test moves. */
function rotationOverStore(open: () => Promise<Store>) {
  let store: Store;
  let service: OAuth;
  let clock = new Date('2026-03-01T10:00:00.000Z');
  const advance = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };

  beforeAll(async () => {
    store = await open();
    await store.migrate();
    service = await createOAuth({
      store,
      mailer: new OutboxMailer({ info: () => {}, warn: () => {} }, true),
      publicUrl: 'https://gw.example',
      trustedIssuers: [],
      secretKey: 'rotation-test-secret-rotation-test-secret',
      refreshReuseGraceSeconds: 30,
      now: () => clock,
    });
  });
  afterAll(() => store?.close());

  async function agentTokens(): Promise<{ clientId: string; refresh: string }> {
    const registered = (await service.registration.register({ identity_type: 'anonymous' }, undefined)) as { client_id: string; claim_id: string };
    const claimed = await service.claims.claim({ claim_id: registered.claim_id });
    return { clientId: registered.client_id, refresh: (claimed as { refresh_token: string }).refresh_token };
  }
  const exchange = (clientId: string, refreshToken: string) =>
    service.tokens.exchange({ authorization: undefined, fields: { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId }, resources: [] });

  it('gives the same successor within the window (29 s later) and a fresh access token', async () => {
    const { clientId, refresh } = await agentTokens();
    const first = await exchange(clientId, refresh);
    advance(29_000);
    const again = await exchange(clientId, refresh);
    expect(again.refresh_token).toBe(first.refresh_token);
    expect(again.access_token).not.toBe(first.access_token);
    expect((await exchange(clientId, first.refresh_token as string)).refresh_token).not.toBe(first.refresh_token);
  });

  it('follows the chain within the window: a repeat after two rotations gets the live token', async () => {
    const { clientId, refresh } = await agentTokens();
    const first = await exchange(clientId, refresh);
    advance(5_000);
    const second = await exchange(clientId, first.refresh_token as string);
    advance(5_000);
    const late = await exchange(clientId, refresh);
    expect(late.refresh_token).toBe(second.refresh_token);
    // The chain is long enough for a few rotations per window, not for endless ones.
    let token = second.refresh_token as string;
    for (let i = 0; i < 8; i++) token = (await exchange(clientId, token)).refresh_token as string;
    await expect(exchange(clientId, refresh)).rejects.toMatchObject({ error: 'invalid_grant', message: expect.stringMatching(/already used/) });
  });

  it('revokes the grant when the old token comes back after the window (31 s later)', async () => {
    const { clientId, refresh } = await agentTokens();
    const first = await exchange(clientId, refresh);
    advance(31_000);
    await expect(exchange(clientId, refresh)).rejects.toMatchObject({ error: 'invalid_grant', message: expect.stringMatching(/already used/) });
    await expect(exchange(clientId, first.refresh_token as string)).rejects.toMatchObject({ error: 'invalid_grant' });
  });
}

describe('the grace window with an injected clock (SQLite)', () => {
  rotationOverStore(async () => new SqliteStore(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gw-rotation-')), 'groundwork.db')));
});

describeIf(postgres, 'the grace window with an injected clock (PostgreSQL)', () => {
  const connectionString = process.env.DATABASE_URL ?? '';
  const schema = `gw_test_${randomBytes(6).toString('hex')}`;
  afterAll(async () => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await client.end();
    }
  });
  rotationOverStore(async () => new PostgresStore({ connectionString, schema }));
});
