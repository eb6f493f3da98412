/**
 * The OAuth part of the storage contract (OAuthStore): single-use claims and
 * codes, refresh-token rotation with reuse detection, adoption of an agent's
 * account, external identities and the jti replay record — each exact under
 * concurrency. Run from storeContract for every backend.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/adapters/storage/port.js';
import type { Claim, Grant, OAuthClient, RefreshToken } from '../../src/identity/oauth/model.js';

const id = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`;
const at = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString();

function client(accountId: string | null, kind: OAuthClient['kind'] = 'agent'): OAuthClient {
  return {
    clientId: id('cli'),
    secretHash: null,
    accountId,
    kind,
    metadata: { redirect_uris: [], token_endpoint_auth_method: 'none', grant_types: ['refresh_token'], response_types: [], client_name: 'Bot' },
    createdAt: at(),
  };
}

function claim(clientId: string, kind: Claim['kind'], expiresInMs = 3600_000): Claim {
  return {
    claimHash: id('claimhash'),
    codeHash: id('codehash'),
    clientId,
    kind,
    email: kind === 'verified_email' ? `${randomUUID()}@example.test` : null,
    verificationHash: kind === 'verified_email' ? 'v' : null,
    attempts: 0,
    confirmedAt: null,
    claimedAt: null,
    adoptedAt: null,
    expiresAt: at(expiresInMs),
    createdAt: at(),
  };
}

const grant = (clientId: string, accountId: string): Grant => ({
  grantId: id('grt'),
  clientId,
  accountId,
  kind: 'claim',
  scope: 'kb:read kb:write',
  resources: ['https://gw.example/api/v1'],
  createdAt: at(),
  revokedAt: null,
});

const refresh = (grantId: string, expiresInMs = 3600_000): RefreshToken => ({
  tokenHash: id('rt'),
  grantId,
  expiresAt: at(expiresInMs),
  rotatedAt: null,
  createdAt: at(),
});

export function oauthStoreContract(getStore: () => Store): void {
  describe('oauth', () => {
    async function anonymousAgent() {
      const store = getStore();
      const accountId = id('acc');
      const c = client(accountId);
      const k = claim(c.clientId, 'anonymous');
      await store.oauth.registerAgent({ newAccount: { accountId, createdAt: at() }, client: c, claim: k });
      return { store, accountId, client: c, claim: k };
    }

    it('registers an agent with its new account, client and claim, and finds the claim by either hash', async () => {
      const { store, accountId, client: c, claim: k } = await anonymousAgent();
      expect(await store.accounts.getAccount(accountId)).toMatchObject({ accountId, email: null });
      expect(await store.oauth.getClient(c.clientId)).toEqual(c);
      expect(await store.oauth.findClaim(k.claimHash)).toEqual(k);
      expect(await store.oauth.findClaimByCode(k.codeHash)).toEqual(k);
      expect(await store.oauth.findClaim('nope')).toBeUndefined();
    });

    it('redeems a claim once, even when asked concurrently, storing the grant with its refresh token', async () => {
      const { store, accountId, client: c, claim: k } = await anonymousAgent();
      const grants = Array.from({ length: 5 }, () => grant(c.clientId, accountId));
      const outcomes = await Promise.all(grants.map((g) => store.oauth.redeemClaim(k.claimHash, at(), g, { refresh: refresh(g.grantId) })));
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      const winner = grants[outcomes.indexOf(true)] as Grant;
      expect(await store.oauth.getGrant(winner.grantId)).toEqual(winner);
      expect((await store.oauth.findClaim(k.claimHash))?.claimedAt).not.toBeNull();
      expect(await Promise.all(grants.filter((g) => g !== winner).map((g) => store.oauth.getGrant(g.grantId)))).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
    });

    it('refuses to redeem an expired claim or an unconfirmed e-mail claim, until confirmed', async () => {
      const store = getStore();
      const c = client(null);
      const k = claim(c.clientId, 'verified_email');
      await store.oauth.registerAgent({ client: c, claim: k });
      const owner = (await store.accounts.accountForEmail(k.email as string, id('acc'))).accountId;
      expect(await store.oauth.redeemClaim(k.claimHash, at(), grant(c.clientId, owner), {})).toBe(false);
      expect(await store.oauth.recordClaimAttempt(k.claimHash)).toBe(1);
      expect(await store.oauth.confirmClaim(k.claimHash, owner, at(7200_000))).toBe(false); // expired by then
      expect(await store.oauth.confirmClaim(k.claimHash, owner, at())).toBe(true);
      expect(await store.oauth.confirmClaim(k.claimHash, owner, at())).toBe(false);
      expect((await store.oauth.getClient(c.clientId))?.accountId).toBe(owner);
      expect(await store.oauth.redeemClaim(k.claimHash, at(7200_000), grant(c.clientId, owner), {})).toBe(false);
      expect(await store.oauth.redeemClaim(k.claimHash, at(), grant(c.clientId, owner), {})).toBe(true);
    });

    it("moves an anonymous agent's knowledge bases, clients and grants to the adopting account, once", async () => {
      const { store, accountId, client: c, claim: k } = await anonymousAgent();
      const created = await store.knowledge.createKnowledgeBase(
        { ragId: id('kb'), ownerId: accountId, botName: 'Agent KB', description: null, greeting: null, theme: {} },
        10,
      );
      if (created.kind !== 'created') throw new Error('expected created');
      const g = grant(c.clientId, accountId);
      await store.oauth.createGrant(g, {});
      const person = (await store.accounts.accountForEmail(`${randomUUID()}@example.test`, id('acc'))).accountId;
      const outcomes = await Promise.all([store.oauth.adoptAgentAccount(k.claimHash, person, at()), store.oauth.adoptAgentAccount(k.claimHash, person, at())]);
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect((await store.knowledge.listKnowledgeBases(person)).map((kb) => kb.ragId)).toEqual([created.knowledgeBase.ragId]);
      expect(await store.knowledge.listKnowledgeBases(accountId)).toEqual([]);
      expect((await store.oauth.getClient(c.clientId))?.accountId).toBe(person);
      expect((await store.oauth.getGrant(g.grantId))?.accountId).toBe(person);
      expect((await store.oauth.findClaim(k.claimHash))?.adoptedAt).not.toBeNull();
    });

    it('rotates a refresh token once; presenting a rotated token revokes the whole grant', async () => {
      const { store, accountId, client: c } = await anonymousAgent();
      const g = grant(c.clientId, accountId);
      const first = refresh(g.grantId);
      await store.oauth.createGrant(g, { refresh: first });
      expect(await store.oauth.findRefreshToken(first.tokenHash)).toEqual(first);
      const nexts = [refresh(g.grantId), refresh(g.grantId)];
      const outcomes = await Promise.all(nexts.map((n) => store.oauth.rotateRefreshToken(first.tokenHash, n, at())));
      expect(outcomes.map((o) => o.kind).sort()).toEqual(['reused', 'rotated']);
      // The concurrent second exchange counted as reuse: the grant is revoked and the new token is dead too.
      expect((await store.oauth.getGrant(g.grantId))?.revokedAt).not.toBeNull();
      const winner = nexts[outcomes.findIndex((o) => o.kind === 'rotated')] as RefreshToken;
      expect((await store.oauth.rotateRefreshToken(winner.tokenHash, refresh(g.grantId), at())).kind).toBe('invalid');
      expect((await store.oauth.rotateRefreshToken('unknown', refresh(g.grantId), at())).kind).toBe('invalid');
    });

    it('refuses an expired refresh token and reports the grant with a rotation', async () => {
      const { store, accountId, client: c } = await anonymousAgent();
      const g = grant(c.clientId, accountId);
      const old = refresh(g.grantId, 1000);
      await store.oauth.createGrant(g, { refresh: old });
      expect((await store.oauth.rotateRefreshToken(old.tokenHash, refresh(g.grantId), at(5000))).kind).toBe('invalid');
      const g2 = grant(c.clientId, accountId);
      const live = refresh(g2.grantId);
      await store.oauth.createGrant(g2, { refresh: live });
      const rotated = await store.oauth.rotateRefreshToken(live.tokenHash, refresh(g2.grantId), at());
      expect(rotated).toEqual({ kind: 'rotated', grant: g2 });
    });

    it('redeems an authorization code once and stores the grant issued from it', async () => {
      const { store, accountId, client: c } = await anonymousAgent();
      const code = {
        codeHash: id('code'),
        clientId: c.clientId,
        accountId,
        redirectUri: 'http://127.0.0.1/cb',
        codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        scope: 'kb:read',
        resources: ['https://gw.example/api/mcp'],
        expiresAt: at(600_000),
        usedAt: null,
        grantId: null,
        createdAt: at(),
      };
      await store.oauth.putAuthorizationCode(code);
      expect(await store.oauth.findAuthorizationCode(code.codeHash)).toEqual(code);
      const grants = [grant(c.clientId, accountId), grant(c.clientId, accountId)];
      const outcomes = await Promise.all(grants.map((g) => store.oauth.redeemAuthorizationCode(code.codeHash, at(), g, { refresh: refresh(g.grantId) })));
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      const used = await store.oauth.findAuthorizationCode(code.codeHash);
      expect(used?.usedAt).not.toBeNull();
      expect(used?.grantId).toBe(grants[outcomes.indexOf(true)]?.grantId);
      await store.oauth.revokeGrant(used?.grantId as string, at());
      expect((await store.oauth.getGrant(used?.grantId as string))?.revokedAt).not.toBeNull();
    });

    it('stores account keys with their grant', async () => {
      const { store, accountId, client: c } = await anonymousAgent();
      const g = grant(c.clientId, accountId);
      const key = { keyHash: id('kh'), keyId: id('akey'), grantId: g.grantId, prefix: 'gw_acct_abcd', createdAt: at() };
      await store.oauth.createGrant(g, { accountKey: key });
      expect(await store.oauth.findAccountKey(key.keyHash)).toEqual(key);
      expect(await store.oauth.findAccountKey('missing')).toBeUndefined();
    });

    it('binds one account to an external identity, even on concurrent first use', async () => {
      const store = getStore();
      const issuer = `https://idp-${randomUUID()}.example`;
      const accounts = await Promise.all(Array.from({ length: 4 }, () => store.oauth.accountForExternalIdentity(issuer, 'user-1', id('acc'), at())));
      expect(new Set(accounts).size).toBe(1);
      expect(await store.accounts.getAccount(accounts[0] as string)).toMatchObject({ email: null });
      expect(await store.oauth.accountForExternalIdentity(issuer, 'user-2', id('acc'), at())).not.toBe(accounts[0]);
    });

    it('records a jti once until it expires, even when asked concurrently', async () => {
      const store = getStore();
      const issuer = `https://idp-${randomUUID()}.example`;
      const outcomes = await Promise.all(Array.from({ length: 5 }, () => store.oauth.useJti(issuer, 'j1', at(60_000), at())));
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect(await store.oauth.useJti(`${issuer}/other`, 'j1', at(60_000), at())).toBe(true);
      expect(await store.oauth.useJti(issuer, 'j1', at(180_000), at(120_000))).toBe(true);
      await store.oauth.purgeExpired(at(600_000));
      expect(await store.oauth.useJti(issuer, 'j1', at(60_000), at())).toBe(true);
    });

    it('keeps public DCR clients without an account', async () => {
      const store = getStore();
      const c = client(null, 'dcr');
      await store.oauth.createClient(c);
      expect(await store.oauth.getClient(c.clientId)).toEqual(c);
    });
  });
}
