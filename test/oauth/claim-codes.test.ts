/**
 * Claim codes (issue 11): the human code in claim_uri carries 60 bits, and the
 * e-mailed confirmation code gets 5 attempts per registration, counted before
 * each comparison (so a burst of guesses evaluates no more than 5). After
 * that the registration is locked, and the polling agent is told so with a
 * terminal error instead of `authorization_pending`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseDump, outbox } from '../api/helpers.js';
import type { TestServer } from '../support/server.js';
import { confirmClaim, cookiesOf, expectOAuthError, hiddenField, idpKey, postForm, postJson, startOAuthServer, uniqueEmail } from './helpers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startOAuthServer(await idpKey());
});
afterAll(() => server?.stop());

const codeOf = (claimUri: string) => new URL(claimUri).searchParams.get('code') as string;

async function emailAgent() {
  const email = uniqueEmail();
  const registered = await postJson(server.baseUrl, '/oauth/register', { identity_type: 'identity_assertion', assertion_type: 'verified_email', email });
  expect(registered.status).toBe(201);
  const mail = (await outbox(server.baseUrl)).find((m) => m.to === email);
  const verification = /Confirmation code: ([A-Z0-9]{3}-[A-Z0-9]{3})/.exec(mail?.text ?? '')?.[1];
  if (!verification) throw new Error('no confirmation code mailed');
  return { claimId: registered.body.claim_id as string, clientId: registered.body.client_id as string, claimUri: registered.body.claim_uri as string, verification };
}

const attemptsOf = (clientId: string) =>
  (databaseDump(server).oauth_claims as { client_id: string; attempts: number }[]).find((row) => row.client_id === clientId)?.attempts;

describe('the human code in claim_uri', () => {
  it('has 12 letters (60 bits) from the alphabet without look-alikes, in groups of four', async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const registered = await postJson(server.baseUrl, '/oauth/register', { identity_type: 'anonymous' });
      const code = codeOf(registered.body.claim_uri as string);
      expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
      codes.add(code);
    }
    expect(codes.size).toBe(10);
  });

  it('opens the page however it is typed, and not when shortened to the old 8-letter form', async () => {
    const registered = await postJson(server.baseUrl, '/oauth/register', { identity_type: 'anonymous' });
    const code = codeOf(registered.body.claim_uri as string);
    expect((await fetch(`${server.baseUrl}/claim?code=${encodeURIComponent(code.toLowerCase().replaceAll('-', ' '))}`)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/claim?code=${code.slice(0, 9)}`)).status).toBe(404);
  });
});

describe('confirmation attempts', () => {
  it('evaluates no more than 5 of 30 guesses sent at once, then refuses even the right code', async () => {
    const agent = await emailAgent();
    // One page load (form fields and CSRF cookie), then all the guesses at once.
    const page = await fetch(agent.claimUri);
    const html = await page.text();
    const form = { claim: hiddenField(html, 'claim'), csrf: hiddenField(html, 'csrf'), action: 'confirm', verification: 'AAA-AAA' };
    const guesses = await Promise.all(Array.from({ length: 30 }, () => postForm(server.baseUrl, '/claim', form, { cookie: cookiesOf(page.headers) })));
    expect(guesses.every((g) => g.status === 400 || g.status === 403)).toBe(true);
    expect(attemptsOf(agent.clientId)).toBe(5);
    const right = await postForm(server.baseUrl, '/claim', { ...form, verification: agent.verification }, { cookie: cookiesOf(page.headers) });
    expect(right.status).toBe(403);
    expect(right.text).toContain('Too many wrong codes');
    expect(attemptsOf(agent.clientId)).toBe(5);
  });

  it('tells the polling agent of a locked registration with a terminal error, not authorization_pending', async () => {
    const agent = await emailAgent();
    const poll = () => postJson(server.baseUrl, '/oauth/claim', { claim_id: agent.claimId });
    expectOAuthError(await poll(), 403, 'authorization_pending');
    for (let i = 0; i < 4; i++) expect((await confirmClaim(server.baseUrl, agent.claimUri, 'AAA-AAA')).status).toBe(400);
    expectOAuthError(await poll(), 403, 'authorization_pending');
    expect((await confirmClaim(server.baseUrl, agent.claimUri, 'AAA-AAA')).status).toBe(403);
    const locked = await poll();
    expectOAuthError(locked, 403, 'access_denied');
    expect(locked.body.error_description).toMatch(/Register again/);
  });

  it('still confirms with the right code on the last attempt', async () => {
    const agent = await emailAgent();
    for (let i = 0; i < 4; i++) expect((await confirmClaim(server.baseUrl, agent.claimUri, 'AAA-AAA')).status).toBe(400);
    expect((await confirmClaim(server.baseUrl, agent.claimUri, agent.verification)).status).toBe(200);
    expect((await postJson(server.baseUrl, '/oauth/claim', { claim_id: agent.claimId })).status).toBe(200);
  });
});
