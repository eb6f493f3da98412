/**
 * The connected-agents part of the storage contract (ConnectedAgentStore): a person's live grants
 * with their clients and credentials, adopted agents, revocation confined to the person's grants,
 * and "last used" written once per window. Run from storeContract for every backend.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AccountKey, Grant, GrantKind, OAuthClient, RefreshToken } from '../../src/identity/oauth/model.js';
import type { Store } from '../../src/ports/storage.js';

const id = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`;
const at = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString();
const hourAgo = () => at(-3600_000);

function client(accountId: string | null, kind: OAuthClient['kind'] = 'dcr', name = 'Helper bot'): OAuthClient {
  return {
    clientId: id('cli'),
    secretHash: null,
    accountId,
    kind,
    metadata: { redirect_uris: [], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], client_name: name },
    createdAt: at(),
  };
}

const grant = (clientId: string, accountId: string, createdAt = at(), kind: GrantKind = 'authorization_code'): Grant => ({
  grantId: id('grt'),
  clientId,
  accountId,
  kind,
  scope: 'kb:read kb:write',
  resources: ['https://gw.example/api/v1'],
  createdAt,
  revokedAt: null,
});

const refresh = (grantId: string, expiresInMs = 3600_000): RefreshToken => ({ tokenHash: id('rt'), grantId, expiresAt: at(expiresInMs), rotatedAt: null, createdAt: at() });
const accountKey = (grantId: string): AccountKey => ({ keyHash: id('kh'), keyId: id('akey'), grantId, prefix: 'gw_acct_abcd', createdAt: at() });

export function connectedAgentsContract(getStore: () => Store): void {
  describe('connected agents', () => {
    const person = async (store: Store) => (await store.accounts.accountForEmail(`${randomUUID()}@example.test`, id('acc'))).accountId;
    const list = (store: Store, accountId: string) => store.connectedAgents.listConnectedGrants(accountId, at(), at(-900_000));

    /** An anonymous agent with an account key, adopted into `into` with `access`. */
    async function adoptedAgent(store: Store, into: string, access: 'own' | 'account') {
      const agentAccount = id('acc');
      const c = client(agentAccount, 'agent', 'Anon agent');
      const claimHash = id('claimhash');
      await store.oauth.registerAgent({
        newAccount: { accountId: agentAccount, createdAt: at() },
        client: c,
        claim: {
          claimHash,
          codeHash: id('codehash'),
          clientId: c.clientId,
          kind: 'anonymous',
          email: null,
          verificationHash: null,
          attempts: 0,
          confirmedAt: null,
          claimedAt: null,
          adoptedAt: null,
          expiresAt: at(3600_000),
          createdAt: at(),
        },
      });
      const g = { ...grant(c.clientId, agentAccount), kind: 'claim' as const };
      const key = accountKey(g.grantId);
      expect(await store.oauth.redeemClaim(claimHash, at(), g, { accountKey: key })).toBe(true);
      expect(await store.oauth.adoptAgentAccount(claimHash, into, at(), access)).toBe(true);
      return { client: c, grant: g, key, agentAccount, claimHash };
    }

    it("lists the account's live grants with client, account key and refresh token, and nothing of another account", async () => {
      const store = getStore();
      const me = await person(store);
      const other = await person(store);
      const c = client(null);
      await store.oauth.createClient(c);
      const withRefresh = grant(c.clientId, me);
      await store.oauth.createGrant(withRefresh, { refresh: refresh(withRefresh.grantId) });
      const withKey = { ...grant(c.clientId, me), kind: 'claim' as const };
      const key = accountKey(withKey.grantId);
      await store.oauth.createGrant(withKey, { accountKey: key });
      // Dead: revoked; access-only and older than an access token lives; only an expired refresh token.
      const revoked = grant(c.clientId, me);
      await store.oauth.createGrant(revoked, { refresh: refresh(revoked.grantId) });
      await store.oauth.revokeGrant(revoked.grantId, at());
      const stale = grant(c.clientId, me, hourAgo(), 'client_credentials');
      await store.oauth.createGrant(stale, {});
      const expired = grant(c.clientId, me, hourAgo());
      await store.oauth.createGrant(expired, { refresh: refresh(expired.grantId, -1000) });
      // Live but access-only: just issued.
      const fresh = grant(c.clientId, me, at(), 'client_credentials');
      await store.oauth.createGrant(fresh, {});
      const others = grant(c.clientId, other);
      await store.oauth.createGrant(others, { refresh: refresh(others.grantId) });

      const rows = await list(store, me);
      expect(rows.map((r) => r.grant.grantId).sort()).toEqual([withRefresh.grantId, withKey.grantId, fresh.grantId].sort());
      const byId = new Map(rows.map((r) => [r.grant.grantId, r]));
      expect(byId.get(withRefresh.grantId)).toEqual({
        grant: withRefresh,
        client: { clientId: c.clientId, kind: 'dcr', name: 'Helper bot', registeredAt: c.createdAt },
        accountKey: null,
        hasRefreshToken: true,
        lastRefreshedAt: null,
      });
      expect(byId.get(withKey.grantId)).toMatchObject({ accountKey: { keyId: key.keyId, prefix: key.prefix, createdAt: key.createdAt }, hasRefreshToken: false });
      expect(byId.get(fresh.grantId)).toMatchObject({ accountKey: null, hasRefreshToken: false });
      expect((await list(store, other)).map((r) => r.grant.grantId)).toEqual([others.grantId]);
    });

    it('reports the latest refresh of a grant as its last refresh', async () => {
      const store = getStore();
      const me = await person(store);
      const c = client(null);
      await store.oauth.createClient(c);
      const g = grant(c.clientId, me);
      const first = refresh(g.grantId);
      await store.oauth.createGrant(g, { refresh: first });
      const rotatedAt = at(1000);
      expect((await store.oauth.rotateRefreshToken(first.tokenHash, [refresh(g.grantId)], rotatedAt)).kind).toBe('rotated');
      const [row] = await list(store, me);
      expect(row?.lastRefreshedAt).toBe(rotatedAt);
      expect(row?.hasRefreshToken).toBe(true);
    });

    it("includes an agent adopted with 'own' access (grants on its own account) and lists both kinds of adoption", async () => {
      const store = getStore();
      const me = await person(store);
      const stranger = await person(store);
      const own = await adoptedAgent(store, me, 'own');
      const whole = await adoptedAgent(store, me, 'account');
      await adoptedAgent(store, stranger, 'own');

      expect((await list(store, me)).map((r) => r.grant.grantId).sort()).toEqual([own.grant.grantId, whole.grant.grantId].sort());
      const adopted = await store.connectedAgents.listAdoptedAgents(me);
      expect(adopted.map((a) => [a.clientId, a.access, a.clientName]).sort()).toEqual(
        [
          [own.client.clientId, 'own', 'Anon agent'],
          [whole.client.clientId, 'account', 'Anon agent'],
        ].sort(),
      );
      for (const a of adopted) expect(Date.parse(a.adoptedAt)).not.toBeNaN();
      expect((await store.connectedAgents.listAdoptedAgents(stranger)).map((a) => a.clientId)).not.toContain(own.client.clientId);
    });

    it('keeps an adopted claim through housekeeping (it records the adoption)', async () => {
      const store = getStore();
      const me = await person(store);
      const agent = await adoptedAgent(store, me, 'own');
      await store.oauth.purgeExpired(at(30 * 86_400_000));
      expect((await store.connectedAgents.listAdoptedAgents(me)).map((a) => a.clientId)).toEqual([agent.client.clientId]);
    });

    it("disconnects a client from the account in one go — grants, pending codes, binding — and leaves other accounts' grants of it", async () => {
      const store = getStore();
      const me = await person(store);
      const other = await person(store);
      const c = client(me);
      await store.oauth.createClient(c);
      const grants = [grant(c.clientId, me), grant(c.clientId, me, at(), 'client_credentials')];
      for (const g of grants) await store.oauth.createGrant(g, { refresh: refresh(g.grantId) });
      const others = grant(c.clientId, other);
      await store.oauth.createGrant(others, {});
      const codeHash = id('code');
      await store.oauth.putAuthorizationCode({
        codeHash,
        clientId: c.clientId,
        accountId: me,
        redirectUri: 'http://127.0.0.1/cb',
        codeChallenge: 'x',
        scope: 'kb:read',
        resources: [],
        expiresAt: at(60_000),
        usedAt: null,
        grantId: null,
        createdAt: at(),
      });

      expect(await store.connectedAgents.revokeClient(await person(store), c.clientId, at())).toBe(false);
      expect(await store.connectedAgents.revokeClient(me, id('cli'), at())).toBe(false);
      expect(await store.connectedAgents.revokeClient(me, c.clientId, at())).toBe(true);
      for (const g of grants) expect((await store.oauth.getGrant(g.grantId))?.revokedAt).not.toBeNull();
      expect((await store.oauth.getGrant(others.grantId))?.revokedAt).toBeNull();
      expect((await store.oauth.findAuthorizationCode(codeHash))?.usedAt).not.toBeNull();
      expect((await store.oauth.getClient(c.clientId))?.accountId).toBeNull();
      expect(await list(store, me)).toEqual([]);
      // Nothing left to disconnect: as unknown.
      expect(await store.connectedAgents.revokeClient(me, c.clientId, at())).toBe(false);
    });

    it("revokes one grant or one account key of the person's, once, and never another account's", async () => {
      const store = getStore();
      const me = await person(store);
      const other = await person(store);
      const c = client(null);
      await store.oauth.createClient(c);
      const mine = grant(c.clientId, me);
      const key = accountKey(mine.grantId);
      await store.oauth.createGrant(mine, { accountKey: key });
      const theirs = grant(c.clientId, other);
      const theirKey = accountKey(theirs.grantId);
      await store.oauth.createGrant(theirs, { accountKey: theirKey });
      const second = grant(c.clientId, me);
      await store.oauth.createGrant(second, { refresh: refresh(second.grantId) });

      expect(await store.connectedAgents.revokeConnectedGrant(me, theirs.grantId, at())).toBe(false);
      expect(await store.connectedAgents.revokeAccountKey(me, theirKey.keyId, at())).toBe(false);
      expect((await store.oauth.getGrant(theirs.grantId))?.revokedAt).toBeNull();

      const outcomes = await Promise.all([store.connectedAgents.revokeAccountKey(me, key.keyId, at()), store.connectedAgents.revokeAccountKey(me, key.keyId, at())]);
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect((await store.oauth.getGrant(mine.grantId))?.revokedAt).not.toBeNull();
      expect(await store.connectedAgents.revokeConnectedGrant(me, second.grantId, at())).toBe(true);
      expect(await store.connectedAgents.revokeConnectedGrant(me, second.grantId, at())).toBe(false);
      expect(await list(store, me)).toEqual([]);
    });

    it("revokes what an adopted agent holds, for the adopting person only; the agent stays listed", async () => {
      const store = getStore();
      const me = await person(store);
      const stranger = await person(store);
      const agent = await adoptedAgent(store, me, 'own');
      // Its grant is on its own account, which is adopted into mine: mine to revoke by grant or key too.
      expect(await store.connectedAgents.revokeAdoptedAgent(stranger, agent.client.clientId, at())).toBe(false);
      expect(await store.connectedAgents.revokeConnectedGrant(stranger, agent.grant.grantId, at())).toBe(false);
      expect(await store.connectedAgents.revokeAdoptedAgent(me, id('cli'), at())).toBe(false);
      expect(await store.connectedAgents.revokeAdoptedAgent(me, agent.client.clientId, at())).toBe(true);
      expect((await store.oauth.getGrant(agent.grant.grantId))?.revokedAt).not.toBeNull();
      expect(await store.connectedAgents.revokeAdoptedAgent(me, agent.client.clientId, at())).toBe(true);
      expect((await store.connectedAgents.listAdoptedAgents(me)).map((a) => a.clientId)).toEqual([agent.client.clientId]);

      const whole = await adoptedAgent(store, me, 'account');
      expect(await store.connectedAgents.revokeAccountKey(me, whole.key.keyId, at())).toBe(true);
      expect((await store.oauth.getGrant(whole.grant.grantId))?.revokedAt).not.toBeNull();
    });

    it('notes a use once per window, even when instances race, and not again until the window passes', async () => {
      const store = getStore();
      const me = await person(store);
      const c = client(null);
      await store.oauth.createClient(c);
      const g = grant(c.clientId, me);
      await store.oauth.createGrant(g, { refresh: refresh(g.grantId) });
      expect((await store.oauth.getGrant(g.grantId))?.lastUsedAt).toBeUndefined();
      const first = '2030-01-01T10:00:00.000Z';
      await Promise.all(
        Array.from({ length: 8 }, (_, i) => store.connectedAgents.noteGrantUsed(g.grantId, i === 0 ? first : `2030-01-01T10:00:0${i}.000Z`, '2030-01-01T09:59:00.000Z')),
      );
      const noted = (await store.oauth.getGrant(g.grantId))?.lastUsedAt as string;
      expect(Date.parse(noted)).toBeGreaterThanOrEqual(Date.parse(first));
      // Within the window: unchanged.
      await store.connectedAgents.noteGrantUsed(g.grantId, '2030-01-01T10:00:30.000Z', '2029-12-31T23:59:30.000Z');
      expect((await store.oauth.getGrant(g.grantId))?.lastUsedAt).toBe(noted);
      // Past it: moved on.
      await store.connectedAgents.noteGrantUsed(g.grantId, '2030-01-01T10:05:00.000Z', '2030-01-01T10:04:00.000Z');
      expect((await store.oauth.getGrant(g.grantId))?.lastUsedAt).toBe('2030-01-01T10:05:00.000Z');
      expect((await list(store, me))[0]?.grant.lastUsedAt).toBe('2030-01-01T10:05:00.000Z');
    });
  });
}
