/**
 * The OAuth part of the storage contract (OAuthStore): single-use claims and
 * codes, refresh-token rotation with reuse detection, adoption of an agent's
 * account, external identities and the jti replay record — each exact under
 * concurrency. Run from storeContract for every backend.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/ports/storage.js';
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
      expect(await store.oauth.reserveClaimAttempt(k.claimHash, 5, at())).toBe(true);
      expect((await store.oauth.findClaim(k.claimHash))?.attempts).toBe(1);
      expect(await store.oauth.confirmClaim(k.claimHash, owner, at(7200_000))).toBe(false); // expired by then
      expect(await store.oauth.confirmClaim(k.claimHash, owner, at())).toBe(true);
      expect(await store.oauth.confirmClaim(k.claimHash, owner, at())).toBe(false);
      expect((await store.oauth.getClient(c.clientId))?.accountId).toBe(owner);
      expect(await store.oauth.redeemClaim(k.claimHash, at(7200_000), grant(c.clientId, owner), {})).toBe(false);
      expect(await store.oauth.redeemClaim(k.claimHash, at(), grant(c.clientId, owner), {})).toBe(true);
    });

    it("moves an anonymous agent's knowledge bases, clients and grants to the adopting account, once, for whole-account access", async () => {
      const { store, accountId, client: c, claim: k } = await anonymousAgent();
      const created = await store.knowledge.createKnowledgeBase(
        { ragId: id('kb'), ownerId: accountId, botName: 'Agent KB', description: null, greeting: null, theme: {} },
        10,
      );
      if (created.kind !== 'created') throw new Error('expected created');
      const g = grant(c.clientId, accountId);
      await store.oauth.createGrant(g, {});
      const person = (await store.accounts.accountForEmail(`${randomUUID()}@example.test`, id('acc'))).accountId;
      const outcomes = await Promise.all([
        store.oauth.adoptAgentAccount(k.claimHash, person, at(), 'account'),
        store.oauth.adoptAgentAccount(k.claimHash, person, at(), 'account'),
      ]);
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect((await store.knowledge.listKnowledgeBases(person)).map((kb) => kb.ragId)).toEqual([created.knowledgeBase.ragId]);
      expect(await store.knowledge.listKnowledgeBases(accountId)).toEqual([]);
      expect((await store.oauth.getClient(c.clientId))?.accountId).toBe(person);
      expect((await store.oauth.getGrant(g.grantId))?.accountId).toBe(person);
      expect((await store.oauth.findClaim(k.claimHash))?.adoptedAt).not.toBeNull();
    });

    describe("adoption with access only to what the agent made ('own')", () => {
      const kbInput = (ownerId: string, botName: string) => ({ ragId: id('kb'), ownerId, botName, description: null, greeting: null, theme: {} });
      const source = () => ({ sourceId: id('src'), sourceName: 'faq.txt', format: 'txt' as const, byteSize: 10, sha256: 'a'.repeat(64), rejectedCount: 0 });
      const record = (text: string) => ({ recordId: id('rec'), kind: 'passage' as const, title: null, text, fingerprint: id('fp') });
      const key = () => ({ keyId: id('key'), name: null, prefix: 'gw_live_abcd', keyHash: id('hash'), allowedDomains: ['shop.example'] });

      async function adoptedOwn(maxKbs = 10) {
        const agent = await anonymousAgent();
        const { store, accountId: agentAccount, client: c, claim: k } = agent;
        const before = await store.knowledge.createKnowledgeBase(kbInput(agentAccount, 'Made before'), maxKbs);
        if (before.kind !== 'created') throw new Error('expected created');
        const g = grant(c.clientId, agentAccount);
        await store.oauth.createGrant(g, {});
        const person = (await store.accounts.accountForEmail(`${randomUUID()}@example.test`, id('acc'))).accountId;
        const personal = await store.knowledge.createKnowledgeBase(kbInput(person, "The person's own"), maxKbs);
        if (personal.kind !== 'created') throw new Error('expected created');
        expect(await store.oauth.adoptAgentAccount(k.claimHash, person, at(), 'own')).toBe(true);
        return { store, agentAccount, person, client: c, claim: k, grant: g, before: before.knowledgeBase, personal: personal.knowledgeBase };
      }

      it("moves the agent's knowledge bases to the person, keeps its client and grants on its own account, once", async () => {
        const { store, agentAccount, person, client: c, claim: k, grant: g, before, personal } = await adoptedOwn();
        expect((await store.knowledge.listKnowledgeBases(person)).map((kb) => kb.ragId).sort()).toEqual([before.ragId, personal.ragId].sort());
        expect((await store.knowledge.getKnowledgeBase(person, before.ragId))?.ownerId).toBe(person);
        expect((await store.knowledge.listKnowledgeBases(agentAccount)).map((kb) => kb.ragId)).toEqual([before.ragId]);
        expect((await store.oauth.getClient(c.clientId))?.accountId).toBe(agentAccount);
        expect((await store.oauth.getGrant(g.grantId))?.accountId).toBe(agentAccount);
        expect((await store.oauth.findClaim(k.claimHash))?.adoptedAt).not.toBeNull();
        expect(await store.oauth.adoptAgentAccount(k.claimHash, person, at(), 'account')).toBe(false);
      });

      it('creates what the agent makes afterwards in the person\'s account, counted against the person\'s limit, and reachable by both', async () => {
        const { store, agentAccount, person, before, personal } = await adoptedOwn();
        const after = await store.knowledge.createKnowledgeBase(kbInput(agentAccount, 'Made after'), 10);
        if (after.kind !== 'created') throw new Error('expected created');
        expect(after.knowledgeBase.ownerId).toBe(person);
        expect((await store.knowledge.listKnowledgeBases(agentAccount)).map((kb) => kb.ragId).sort()).toEqual([before.ragId, after.knowledgeBase.ragId].sort());
        expect((await store.knowledge.listKnowledgeBases(person)).map((kb) => kb.ragId)).toContain(after.knowledgeBase.ragId);
        expect(await store.knowledge.getKnowledgeBase(agentAccount, after.knowledgeBase.ragId)).toEqual(after.knowledgeBase);
        // The person now holds three: a limit of 3 refuses the agent's next one, as it would the person's.
        expect(await store.knowledge.createKnowledgeBase(kbInput(agentAccount, 'One too many'), 3)).toEqual({ kind: 'limit_reached', active: 3 });
        expect(await store.knowledge.createKnowledgeBase(kbInput(person, 'One too many'), 3)).toEqual({ kind: 'limit_reached', active: 3 });
        expect(personal.ownerId).toBe(person);
      });

      it("gives the agent nothing of the person's other knowledge bases: each answer is the one for a foreign knowledge base", async () => {
        const { store, agentAccount, person, before, personal } = await adoptedOwn();
        const foreign = (await store.knowledge.createKnowledgeBase(kbInput((await store.accounts.accountForEmail(`${randomUUID()}@example.test`, id('acc'))).accountId, 'Foreign'), 10));
        if (foreign.kind !== 'created') throw new Error('expected created');
        const committed = await store.knowledge.commitSource(person, personal.ragId, source(), [record('Opening hours are 9 to 5.')], 100);
        if (committed.kind !== 'committed') throw new Error('expected committed');
        const recordId = (await store.knowledge.listRecords(person, personal.ragId, { limit: 10 }))?.items[0]?.recordId as string;
        await store.keys.createApiKey(person, personal.ragId, key(), 10);

        const asAgent = async (ragId: string) => ({
          get: await store.knowledge.getKnowledgeBase(agentAccount, ragId),
          update: await store.knowledge.updateKnowledgeBase(agentAccount, ragId, { botName: 'Taken over' }),
          commit: (await store.knowledge.commitSource(agentAccount, ragId, source(), [record(`injected ${ragId}`)], 100)).kind,
          sources: await store.knowledge.listSources(agentAccount, ragId, { limit: 10 }),
          records: await store.knowledge.listRecords(agentAccount, ragId, { limit: 10 }),
          deleteSource: await store.knowledge.deleteSource(agentAccount, ragId, committed.source.sourceId),
          deleteRecord: await store.knowledge.deleteRecord(agentAccount, ragId, recordId),
          createKey: (await store.keys.createApiKey(agentAccount, ragId, key(), 10)).kind,
          keys: await store.keys.listApiKeys(agentAccount, ragId),
          usage: await store.usage.usage(agentAccount, ragId, '2000-01-01', 10),
          dismiss: await store.usage.dismissUnanswered(agentAccount, ragId, { question: 'anything' }),
          delete: await store.knowledge.deleteKnowledgeBase(agentAccount, ragId),
        });
        const notFound = {
          get: undefined,
          update: undefined,
          commit: 'not_found',
          sources: undefined,
          records: undefined,
          deleteSource: false,
          deleteRecord: false,
          createKey: 'not_found',
          keys: undefined,
          usage: undefined,
          dismiss: false,
          delete: false,
        };
        expect(await asAgent(personal.ragId)).toEqual(notFound);
        expect(await asAgent(foreign.knowledgeBase.ragId)).toEqual(notFound);
        // Nothing of the person's changed.
        expect(await store.knowledge.getKnowledgeBase(person, personal.ragId)).toMatchObject({ botName: "The person's own", recordCount: 1 });
        expect(await store.keys.listApiKeys(person, personal.ragId)).toHaveLength(1);
        // Its own knowledge base it fully manages.
        expect(await store.knowledge.updateKnowledgeBase(agentAccount, before.ragId, { botName: 'Mine' })).toMatchObject({ botName: 'Mine', ownerId: person });
        expect((await store.keys.createApiKey(agentAccount, before.ragId, key(), 10)).kind).toBe('created');
        expect((await store.knowledge.commitSource(agentAccount, before.ragId, source(), [record('Mine too.')], 100)).kind).toBe('committed');
        expect(await store.usage.usage(agentAccount, before.ragId, '2000-01-01', 10)).toBeDefined();
        expect(await store.knowledge.deleteKnowledgeBase(agentAccount, before.ragId)).toBe(true);
      });

      it('keeps every knowledge base the agent creates while it is being adopted (none left behind in its own account)', async () => {
        const { store, accountId: agentAccount, claim: k } = await anonymousAgent();
        const person = (await store.accounts.accountForEmail(`${randomUUID()}@example.test`, id('acc'))).accountId;
        const create = (i: number) => store.knowledge.createKnowledgeBase(kbInput(agentAccount, `Racing ${i}`), 1000);
        // Creations before, around and after the adoption, all in flight at once.
        const early = Array.from({ length: 30 }, (_, i) => create(i));
        const adoption = store.oauth.adoptAgentAccount(k.claimHash, person, at(), 'own');
        const late = Array.from({ length: 30 }, (_, i) => create(30 + i));
        const [adopted, ...created] = await Promise.all([adoption, ...early, ...late]);
        expect(adopted).toBe(true);
        const ragIds = created.map((r) => (r.kind === 'created' ? r.knowledgeBase.ragId : 'refused'));
        expect(ragIds).not.toContain('refused');
        const owned = (await store.knowledge.listKnowledgeBases(person)).map((kb) => kb.ragId);
        expect(owned.sort()).toEqual([...ragIds].sort());
        expect((await store.knowledge.listKnowledgeBases(agentAccount)).map((kb) => kb.ragId).sort()).toEqual([...ragIds].sort());
      });
    });

    it('takes no more confirmation attempts than the limit when 100 arrive at once, then none, and none for a confirmed claim', async () => {
      const store = getStore();
      const c = client(null);
      const k = claim(c.clientId, 'verified_email');
      await store.oauth.registerAgent({ client: c, claim: k });
      const taken = await Promise.all(Array.from({ length: 100 }, () => store.oauth.reserveClaimAttempt(k.claimHash, 5, at())));
      expect(taken.filter(Boolean)).toHaveLength(5);
      expect((await store.oauth.findClaim(k.claimHash))?.attempts).toBe(5);
      expect(await store.oauth.reserveClaimAttempt(k.claimHash, 5, at())).toBe(false);

      const c2 = client(null);
      const other = claim(c2.clientId, 'verified_email');
      await store.oauth.registerAgent({ client: c2, claim: other });
      expect(await store.oauth.reserveClaimAttempt(other.claimHash, 5, at(7200_000))).toBe(false); // expired by then
      const owner = (await store.accounts.accountForEmail(other.email as string, id('acc'))).accountId;
      expect(await store.oauth.confirmClaim(other.claimHash, owner, at())).toBe(true);
      expect(await store.oauth.reserveClaimAttempt(other.claimHash, 5, at())).toBe(false);
      const anonymous = (await anonymousAgent()).claim;
      expect(await store.oauth.reserveClaimAttempt(anonymous.claimHash, 5, at())).toBe(false);
    });

    it('stores no more e-mail registrations than the per-address budget when 50 arrive at once, and none past it later', async () => {
      const store = getStore();
      const email = `${randomUUID()}@example.test`;
      const since = at(-15 * 60_000);
      const register = () => {
        const c = client(null);
        return store.oauth.registerAgent({ client: c, claim: { ...claim(c.clientId, 'verified_email'), email } }, { since, max: 5 });
      };
      const outcomes = await Promise.all(Array.from({ length: 50 }, register));
      expect(outcomes.filter(Boolean)).toHaveLength(5);
      expect(await register()).toBe(false);
      // Another address has its own budget; without a budget nothing is counted.
      const c = client(null);
      expect(await store.oauth.registerAgent({ client: c, claim: claim(c.clientId, 'verified_email') }, { since, max: 5 })).toBe(true);
      const unlimited = client(null);
      expect(await store.oauth.registerAgent({ client: unlimited, claim: { ...claim(unlimited.clientId, 'verified_email'), email } })).toBe(true);
    });

    it('rotates a refresh token once; presenting a rotated token revokes the whole grant', async () => {
      const { store, accountId, client: c } = await anonymousAgent();
      const g = grant(c.clientId, accountId);
      const first = refresh(g.grantId);
      await store.oauth.createGrant(g, { refresh: first });
      expect(await store.oauth.findRefreshToken(first.tokenHash)).toEqual(first);
      const nexts = [refresh(g.grantId), refresh(g.grantId)];
      const outcomes = await Promise.all(nexts.map((n) => store.oauth.rotateRefreshToken(first.tokenHash, [n], at())));
      expect(outcomes.map((o) => o.kind).sort()).toEqual(['reused', 'rotated']);
      // The concurrent second exchange counted as reuse: the grant is revoked and the new token is dead too.
      expect((await store.oauth.getGrant(g.grantId))?.revokedAt).not.toBeNull();
      const winner = nexts[outcomes.findIndex((o) => o.kind === 'rotated')] as RefreshToken;
      expect((await store.oauth.rotateRefreshToken(winner.tokenHash, [refresh(g.grantId)], at())).kind).toBe('invalid');
      expect((await store.oauth.rotateRefreshToken('unknown', [refresh(g.grantId)], at())).kind).toBe('invalid');
    });

    it('hands the same successor to every repeat within the grace window, exact when ten arrive at once', async () => {
      const { store, accountId, client: c } = await anonymousAgent();
      const g = grant(c.clientId, accountId);
      const first = refresh(g.grantId);
      await store.oauth.createGrant(g, { refresh: first });
      // Callers derive the successor from the presented token, so every repeat names the same one.
      const successor = refresh(g.grantId);
      const graceSince = at(-30_000);
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => store.oauth.rotateRefreshToken(first.tokenHash, [successor], at(), graceSince)));
      expect(outcomes.map((o) => o.kind)).toEqual(Array(10).fill('rotated'));
      expect(outcomes.filter((o) => o.kind === 'rotated' && !o.repeated)).toHaveLength(1);
      expect((await store.oauth.getGrant(g.grantId))?.revokedAt).toBeNull();
      expect((await store.oauth.findRefreshToken(successor.tokenHash))?.rotatedAt).toBeNull();
      // Once the successor itself is exchanged, a repeat of the first token within the window gets
      // the successor's successor (the live end of the chain); a chain that ends in an exchanged
      // token is reuse.
      const third = refresh(g.grantId);
      expect(await store.oauth.rotateRefreshToken(successor.tokenHash, [third], at(), graceSince)).toMatchObject({ kind: 'rotated', successor: 0 });
      expect(await store.oauth.rotateRefreshToken(first.tokenHash, [successor, third], at(), graceSince)).toMatchObject({ kind: 'rotated', successor: 1, repeated: true });
      expect((await store.oauth.getGrant(g.grantId))?.revokedAt).toBeNull();
      expect((await store.oauth.rotateRefreshToken(first.tokenHash, [successor], at(), graceSince)).kind).toBe('reused');
      expect((await store.oauth.getGrant(g.grantId))?.revokedAt).not.toBeNull();
    });

    it('revokes the grant on a repeat after the grace window', async () => {
      const { store, accountId, client: c } = await anonymousAgent();
      const g = grant(c.clientId, accountId);
      const first = refresh(g.grantId);
      await store.oauth.createGrant(g, { refresh: first });
      const successor = refresh(g.grantId);
      expect((await store.oauth.rotateRefreshToken(first.tokenHash, [successor], at(), at(-30_000))).kind).toBe('rotated');
      // 31 s later: the exchange happened before the window's start.
      expect((await store.oauth.rotateRefreshToken(first.tokenHash, [successor], at(31_000), at(1000))).kind).toBe('reused');
      expect((await store.oauth.getGrant(g.grantId))?.revokedAt).not.toBeNull();
      expect((await store.oauth.rotateRefreshToken(successor.tokenHash, [refresh(g.grantId)], at(31_000), at(1000))).kind).toBe('invalid');
    });

    it('refuses an expired refresh token and reports the grant with a rotation', async () => {
      const { store, accountId, client: c } = await anonymousAgent();
      const g = grant(c.clientId, accountId);
      const old = refresh(g.grantId, 1000);
      await store.oauth.createGrant(g, { refresh: old });
      expect((await store.oauth.rotateRefreshToken(old.tokenHash, [refresh(g.grantId)], at(5000))).kind).toBe('invalid');
      const g2 = grant(c.clientId, accountId);
      const live = refresh(g2.grantId);
      await store.oauth.createGrant(g2, { refresh: live });
      const rotated = await store.oauth.rotateRefreshToken(live.tokenHash, [refresh(g2.grantId)], at());
      expect(rotated).toEqual({ kind: 'rotated', grant: g2, successor: 0 });
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

    it('stores a metadata-document client once, then replaces only its metadata, never another kind of client', async () => {
      const store = getStore();
      const url = `https://app-${randomUUID()}.example/client.json`;
      const first: OAuthClient = { ...client(null, 'cimd'), clientId: url, metadata: { ...client(null).metadata, client_name: 'First' } };
      await Promise.all([store.oauth.saveDocumentClient(first), store.oauth.saveDocumentClient(first)]);
      expect(await store.oauth.getClient(url)).toEqual(first);
      const later = { ...first, metadata: { ...first.metadata, client_name: 'Renamed' }, createdAt: at(60_000) };
      await store.oauth.saveDocumentClient(later);
      expect(await store.oauth.getClient(url)).toEqual({ ...first, metadata: later.metadata });
      const registered = client(null, 'dcr');
      await store.oauth.createClient(registered);
      await store.oauth.saveDocumentClient({ ...later, clientId: registered.clientId });
      expect(await store.oauth.getClient(registered.clientId)).toEqual(registered);
    });

    it('keeps public DCR clients without an account', async () => {
      const store = getStore();
      const c = client(null, 'dcr');
      await store.oauth.createClient(c);
      expect(await store.oauth.getClient(c.clientId)).toEqual(c);
    });
  });
}
