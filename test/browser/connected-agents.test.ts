/**
 * The Connected agents page (issue 15, item 7), in Debian's Chromium: a person signed in through
 * the dashboard sees an MCP client they authorised through the real OAuth flow, with its grant,
 * disconnects it after a confirmation, and the agent's next MCP call gets 401 (its refresh token
 * is refused too); an adopted agent's account key is listed and revoked the same way. axe finds
 * no serious or critical violation on the page.
 */
import { AxeBuilder } from '@axe-core/playwright';
import * as oauth from 'oauth4webapi';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectMcp } from '../mcp/helpers.js';
import { type CodeFlow, startCodeFlow } from '../oauth/code-flow.js';
import { hiddenField, insecure, postForm, postJson } from '../oauth/helpers.js';
import { chromium, describeIf } from '../support/requirements.js';
import { Client } from '../support/server.js';
import { buildWeb, launchChromium, screenshot, signInThroughDashboard } from './support.js';

describeIf(chromium, 'Connected agents page in Chromium', () => {
  let flow: CodeFlow;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** The person signed in through the dashboard, as an HTTP client (the browser's cookies). */
  let person: Client;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    let launched: Browser | undefined;
    [flow, launched] = await Promise.all([startCodeFlow(), launchChromium(), buildWeb()]);
    browser = launched;
    context = await browser.newContext({ baseURL: flow.server.baseUrl, viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/^Failed to load resource/.test(message.text())) pageErrors.push(`console: ${message.text()}`);
    });
    await signInThroughDashboard(page, flow.server.baseUrl, `agents-owner-${Date.now()}@example.test`);
    const cookies = await context.cookies(flow.server.baseUrl);
    person = new Client(flow.server.baseUrl);
    person.cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    person.csrfToken = cookies.find((c) => c.name === 'gw_csrf')?.value ?? '';
  }, 240_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await flow?.server.stop();
  });

  async function openPage(): Promise<void> {
    await page.goto('/dashboard');
    await page.getByRole('link', { name: 'Connected agents' }).click();
    await page.getByRole('heading', { name: 'Connected agents', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Agents you adopted' }).waitFor();
  }

  it('shows the grant of an MCP client the person authorised, revokes it, and its next MCP call gets 401', async () => {
    const mcp = `${flow.server.baseUrl}/api/mcp`;
    const started = await flow.authorizationUrl({ scope: 'mcp', resource: mcp });
    const callback = oauth.validateAuthResponse(flow.as, flow.client, await flow.consent(started.url, 'approve', person), started.state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      flow.as,
      flow.client,
      await oauth.authorizationCodeGrantRequest(flow.as, flow.client, oauth.None(), callback, 'http://127.0.0.1:49152/callback', started.verifier, {
        ...insecure,
        additionalParameters: { resource: mcp },
      }),
    );
    const agent = await connectMcp(flow.server, tokens.access_token);
    try {
      expect((await agent.listTools()).tools.length).toBeGreaterThan(0);

      await openPage();
      const client = page.getByTestId('connected-client').filter({ hasText: 'Flow <test>' });
      await client.waitFor();
      await expect(client.getByTestId('grant').count()).resolves.toBe(1);
      expect(await client.getByTestId('grant').innerText()).toMatch(/kb:read[\s\S]*kb:write[\s\S]*tools:run[\s\S]*you allowed it[\s\S]*refresh token/);
      await screenshot(page, 'connected-agents');

      // Asked first: cancelling changes nothing.
      await page.getByRole('button', { name: 'Disconnect Flow <test>' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      expect((await agent.listTools()).tools.length).toBeGreaterThan(0);

      await page.getByRole('button', { name: 'Disconnect Flow <test>' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Disconnect' }).click();
      await page.getByTestId('connected-clients').getByText('No app or agent holds access to your account.').waitFor();

      await expect(agent.listTools()).rejects.toThrow();
    } finally {
      await agent.close();
    }
    const direct = await fetch(`${flow.server.baseUrl}/api/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(direct.status).toBe(401);
    const refreshed = await postForm(flow.server.baseUrl, '/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: flow.client.client_id });
    expect(refreshed.body.error).toBe('invalid_grant');
  });

  it("lists an adopted agent's account key with its name as text, and revokes it", async () => {
    const { baseUrl } = flow.server;
    // A name that would be markup if it were not written as text.
    const registered = await postJson(baseUrl, '/oauth/register', { identity_type: 'anonymous', client_name: '<img src=x onerror=alert(1)>' });
    const claimed = await postJson(baseUrl, '/oauth/claim', { claim_id: registered.body.claim_id, credential_type: 'api_key' });
    const html = await (await fetch(registered.body.claim_uri as string, { headers: { cookie: person.cookie } })).text();
    const adopted = await postForm(baseUrl, '/claim', { claim: hiddenField(html, 'claim'), csrf: person.csrfToken, action: 'adopt' }, { cookie: person.cookie });
    expect(adopted.status).toBe(200);
    const apiKey = claimed.body.api_key as string;
    const kbList = () => fetch(`${baseUrl}/api/v1/knowledge-bases`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect((await kbList()).status).toBe(200);

    await openPage();
    const key = page.getByTestId('account-key');
    await key.waitFor();
    expect(await key.innerText()).toContain(`${apiKey.slice(0, 12)}…`);
    expect(await key.innerText()).toContain('held by <img src=x onerror=alert(1)>');
    expect(await page.locator('main img').count()).toBe(0);
    await page.getByTestId('adopted-agent').getByText('Active').waitFor();
    const violations = (await new AxeBuilder({ page }).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

    await key.getByRole('button', { name: /^Revoke key / }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.getByTestId('account-keys').getByText('No account keys.').waitFor();
    await page.getByTestId('adopted-agent').getByText('Revoked').waitFor();
    expect((await kbList()).status).toBe(401);
    expect(pageErrors).toEqual([]);
  });
});
