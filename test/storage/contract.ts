/**
 * The storage contract: every Store implementation must pass these tests.
 * Run by sqlite.test.ts always and postgres.test.ts when DATABASE_URL is set.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewSource, Store } from '../../src/adapters/storage/port.js';
import { fingerprint } from '../../src/knowledge/fingerprint.js';
import type { CandidateRecord } from '../../src/knowledge/model.js';
import { oauthStoreContract } from './oauth-contract.js';

const id = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`;

function candidate(text: string): CandidateRecord {
  return { recordId: id('rec'), kind: 'passage', title: null, text, fingerprint: fingerprint(text) };
}

function newSource(name = 'faq.txt'): NewSource {
  return { sourceId: id('src'), sourceName: name, format: 'txt', byteSize: 10, sha256: 'a'.repeat(64), rejectedCount: 0 };
}

export function storeContract(makeStore: () => Promise<Store>): void {
  let store: Store;
  let owner: string;
  let other: string;

  beforeAll(async () => {
    store = await makeStore();
    await store.migrate();
    await store.migrate(); // idempotent
  });
  afterAll(async () => {
    await store?.close();
  });

  async function account(): Promise<string> {
    const acc = await store.accounts.accountForEmail(`${randomUUID()}@example.test`, id('acc'));
    return acc.accountId;
  }

  async function kb(ownerId: string, max = 1000) {
    const result = await store.knowledge.createKnowledgeBase(
      { ragId: id('kb'), ownerId, botName: 'Helper', description: null, greeting: null, theme: {} },
      max,
    );
    if (result.kind !== 'created') throw new Error('expected created');
    return result.knowledgeBase;
  }

  beforeAll(async () => {
    owner = await account();
    other = await account();
  });

  oauthStoreContract(() => store);

  describe('knowledge bases', () => {
    it('creates, reads, lists, updates and deletes', async () => {
      const me = await account();
      const created = await kb(me);
      expect(created).toMatchObject({ ownerId: me, botName: 'Helper', recordCount: 0, theme: {} });
      expect(await store.knowledge.getKnowledgeBase(me, created.ragId)).toEqual(created);
      expect(await store.knowledge.listKnowledgeBases(me)).toEqual([created]);
      const updated = await store.knowledge.updateKnowledgeBase(me, created.ragId, { botName: 'Renamed', theme: { accentColor: '#112233' } });
      expect(updated).toMatchObject({ botName: 'Renamed', theme: { accentColor: '#112233' } });
      expect(await store.knowledge.deleteKnowledgeBase(me, created.ragId)).toBe(true);
      expect(await store.knowledge.getKnowledgeBase(me, created.ragId)).toBeUndefined();
      expect(await store.knowledge.deleteKnowledgeBase(me, created.ragId)).toBe(false);
    });

    it('stores, keeps, replaces and clears the fallback message, as text', async () => {
      const me = await account();
      expect((await kb(me)).fallbackMessage).toBeNull(); // none given: the default refusal
      const hostile = '<img src=x onerror=alert(1)> Ask us at help@shop.example — “ü” 🙂\nor call +49 30 1234';
      const created = await store.knowledge.createKnowledgeBase(
        { ragId: id('kb'), ownerId: me, botName: 'Shop', description: null, greeting: 'Hi', fallbackMessage: hostile, theme: {} },
        1000,
      );
      if (created.kind !== 'created') throw new Error('expected created');
      const ragId = created.knowledgeBase.ragId;
      expect(created.knowledgeBase.fallbackMessage).toBe(hostile);
      expect((await store.knowledge.getKnowledgeBase(me, ragId))?.fallbackMessage).toBe(hostile);
      expect((await store.knowledge.findKnowledgeBase(ragId))?.fallbackMessage).toBe(hostile);
      expect((await store.knowledge.listKnowledgeBases(me)).find((k) => k.ragId === ragId)?.fallbackMessage).toBe(hostile);

      // A patch of other fields leaves it as it was; a patch of it leaves the others.
      expect(await store.knowledge.updateKnowledgeBase(me, ragId, { botName: 'Renamed' })).toMatchObject({ botName: 'Renamed', greeting: 'Hi', fallbackMessage: hostile });
      const replaced = await store.knowledge.updateKnowledgeBase(me, ragId, { fallbackMessage: 'Mail us.' });
      expect(replaced).toMatchObject({ botName: 'Renamed', greeting: 'Hi', fallbackMessage: 'Mail us.' });
      expect((await store.knowledge.findKnowledgeBase(ragId))?.fallbackMessage).toBe('Mail us.');

      expect((await store.knowledge.updateKnowledgeBase(me, ragId, { fallbackMessage: null }))?.fallbackMessage).toBeNull();
      expect(await store.knowledge.getKnowledgeBase(me, ragId)).toMatchObject({ botName: 'Renamed', greeting: 'Hi', fallbackMessage: null });
      expect((await store.knowledge.findKnowledgeBase(ragId))?.fallbackMessage).toBeNull();
    });

    it('refuses a knowledge base past the limit, exactly, under concurrency', async () => {
      const me = await account();
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          store.knowledge.createKnowledgeBase({ ragId: id('kb'), ownerId: me, botName: 'x', description: null, greeting: null, theme: {} }, 2),
        ),
      );
      expect(results.filter((r) => r.kind === 'created')).toHaveLength(2);
      expect(results.filter((r) => r.kind === 'limit_reached')).toHaveLength(6);
      expect(await store.knowledge.listKnowledgeBases(me)).toHaveLength(2);
    });

    it("hides another owner's knowledge base", async () => {
      const mine = await kb(owner);
      expect(await store.knowledge.getKnowledgeBase(other, mine.ragId)).toBeUndefined();
      expect(await store.knowledge.updateKnowledgeBase(other, mine.ragId, { botName: 'stolen' })).toBeUndefined();
      expect(await store.knowledge.deleteKnowledgeBase(other, mine.ragId)).toBe(false);
      expect(await store.knowledge.listSources(other, mine.ragId, { limit: 10 })).toBeUndefined();
      expect(await store.knowledge.listRecords(other, mine.ragId, { limit: 10 })).toBeUndefined();
      expect((await store.knowledge.commitSource(other, mine.ragId, newSource(), [candidate('x')], 25)).kind).toBe('not_found');
      expect(await store.knowledge.getKnowledgeBase(owner, mine.ragId)).toMatchObject({ botName: 'Helper' });
      expect(await store.knowledge.findKnowledgeBase(mine.ragId)).toMatchObject({ ownerId: owner });
    });

    it('findKnowledgeBase (read on every query) sees every kind of write at once', async () => {
      const me = await account();
      const base = await kb(me);
      const find = () => store.knowledge.findKnowledgeBase(base.ragId);
      expect(await find()).toMatchObject({ botName: 'Helper', contentVersion: base.contentVersion, keysVersion: base.keysVersion });
      expect(await find()).toEqual(await find()); // read twice: the second may come from a cache

      await store.knowledge.updateKnowledgeBase(me, base.ragId, { botName: 'Renamed' });
      expect((await find())?.botName).toBe('Renamed');

      const committed = await store.knowledge.commitSource(me, base.ragId, newSource(), [candidate('fresh')], 25);
      if (committed.kind !== 'committed') throw new Error('commit');
      expect(await find()).toMatchObject({ contentVersion: committed.knowledgeBase.contentVersion, recordCount: 1 });

      const [record] = await store.knowledge.allRecords(base.ragId);
      await store.knowledge.deleteRecord(me, base.ragId, record?.recordId ?? '');
      expect((await find())?.recordCount).toBe(0);
      expect((await find())?.contentVersion).toBeGreaterThan(committed.knowledgeBase.contentVersion);

      const key = await store.keys.createApiKey(me, base.ragId, { keyId: id('key'), name: null, prefix: 'gw_live_abcd', keyHash: id('h'), allowedDomains: [] });
      await store.keys.updateApiKey(me, base.ragId, key?.keyId ?? '', { allowedDomains: ['shop.test'] });
      const afterUpdate = (await find())?.keysVersion ?? 0;
      expect(afterUpdate).toBeGreaterThan(base.keysVersion);
      await store.keys.revokeApiKey(me, base.ragId, key?.keyId ?? '');
      expect((await find())?.keysVersion).toBeGreaterThan(afterUpdate);

      // A miss is not remembered past the write that creates the row, nor a hit past the delete.
      const later = id('kb');
      expect(await store.knowledge.findKnowledgeBase(later)).toBeUndefined();
      await store.knowledge.createKnowledgeBase({ ragId: later, ownerId: me, botName: 'Later', description: null, greeting: null, theme: {} }, 1000);
      expect((await store.knowledge.findKnowledgeBase(later))?.botName).toBe('Later');
      await store.knowledge.deleteKnowledgeBase(me, base.ragId);
      expect(await find()).toBeUndefined();
    });
  });

  describe('sources and records', () => {
    it('stores a source with its records and bumps the content version', async () => {
      const base = await kb(owner);
      const result = await store.knowledge.commitSource(owner, base.ragId, newSource(), [candidate('one'), candidate('two')], 25);
      expect(result.kind).toBe('committed');
      if (result.kind !== 'committed') return;
      expect(result.source).toMatchObject({ addedCount: 2, duplicateCount: 0, rejectedCount: 0, sourceName: 'faq.txt', format: 'txt' });
      expect(result.knowledgeBase.recordCount).toBe(2);
      expect(result.knowledgeBase.contentVersion).toBeGreaterThan(base.contentVersion);
      const records = await store.knowledge.allRecords(base.ragId);
      expect(records.map((r) => r.text)).toEqual(['one', 'two']);
      expect(records[0]?.sourceId).toBe(result.source.sourceId);
    });

    it('dedupes against stored records and within the upload', async () => {
      const base = await kb(owner);
      await store.knowledge.commitSource(owner, base.ragId, newSource(), [candidate('alpha')], 25);
      const result = await store.knowledge.commitSource(owner, base.ragId, newSource(), [candidate('alpha'), candidate('beta'), candidate('beta')], 25);
      if (result.kind !== 'committed') throw new Error(result.kind);
      expect(result.source).toMatchObject({ addedCount: 1, duplicateCount: 2 });
      expect(result.duplicateFingerprints).toEqual([fingerprint('alpha'), fingerprint('beta')]);
      expect(result.knowledgeBase.recordCount).toBe(2);
    });

    it('refuses an upload whole when its new records exceed the free slots', async () => {
      const base = await kb(owner);
      await store.knowledge.commitSource(owner, base.ragId, newSource(), [candidate('a'), candidate('b')], 3);
      const before = await store.knowledge.getKnowledgeBase(owner, base.ragId);
      const refused = await store.knowledge.commitSource(owner, base.ragId, newSource(), [candidate('a'), candidate('c'), candidate('d')], 3);
      expect(refused).toEqual({ kind: 'quota_exceeded', needed: 2, available: 1 });
      expect(await store.knowledge.getKnowledgeBase(owner, base.ragId)).toEqual(before);
      expect((await store.knowledge.listSources(owner, base.ragId, { limit: 10 }))?.items).toHaveLength(1);
      // Duplicates use no slot: an upload of only duplicates plus one new record fits.
      const fits = await store.knowledge.commitSource(owner, base.ragId, newSource(), [candidate('a'), candidate('b'), candidate('c')], 3);
      expect(fits.kind).toBe('committed');
    });

    it('keeps the quota exact under concurrent uploads', async () => {
      const base = await kb(owner);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => store.knowledge.commitSource(owner, base.ragId, newSource(), [candidate(`p${i}a`), candidate(`p${i}b`)], 7)),
      );
      expect(results.filter((r) => r.kind === 'committed')).toHaveLength(3);
      const after = await store.knowledge.getKnowledgeBase(owner, base.ragId);
      expect(after?.recordCount).toBe(6);
      expect(await store.knowledge.allRecords(base.ragId)).toHaveLength(6);
    });

    it('pages sources and records with opaque cursors', async () => {
      const base = await kb(owner);
      for (let i = 0; i < 5; i++) await store.knowledge.commitSource(owner, base.ragId, newSource(`s${i}`), [candidate(`r${i}`)], 25);
      const first = await store.knowledge.listRecords(owner, base.ragId, { limit: 2 });
      expect(first?.items.map((r) => r.text)).toEqual(['r0', 'r1']);
      const second = await store.knowledge.listRecords(owner, base.ragId, { limit: 2, cursor: first?.nextCursor ?? undefined });
      expect(second?.items.map((r) => r.text)).toEqual(['r2', 'r3']);
      const third = await store.knowledge.listRecords(owner, base.ragId, { limit: 2, cursor: second?.nextCursor ?? undefined });
      expect(third?.items.map((r) => r.text)).toEqual(['r4']);
      expect(third?.nextCursor).toBeNull();
      const sources = await store.knowledge.listSources(owner, base.ragId, { limit: 3 });
      expect(sources?.items.map((s) => s.sourceName)).toEqual(['s0', 's1', 's2']);
      const bySource = await store.knowledge.listRecords(owner, base.ragId, { limit: 10, sourceId: sources?.items[1]?.sourceId });
      expect(bySource?.items.map((r) => r.text)).toEqual(['r1']);
    });

    it('deletes a source with its records, and a single record, bumping the version', async () => {
      const base = await kb(owner);
      const one = await store.knowledge.commitSource(owner, base.ragId, newSource(), [candidate('x1'), candidate('x2')], 25);
      const two = await store.knowledge.commitSource(owner, base.ragId, newSource(), [candidate('y1')], 25);
      if (one.kind !== 'committed' || two.kind !== 'committed') throw new Error('commit');
      expect(await store.knowledge.deleteSource(other, base.ragId, one.source.sourceId)).toBe(false);
      expect(await store.knowledge.deleteSource(owner, base.ragId, one.source.sourceId)).toBe(true);
      expect(await store.knowledge.deleteSource(owner, base.ragId, one.source.sourceId)).toBe(false);
      let now = await store.knowledge.getKnowledgeBase(owner, base.ragId);
      expect(now?.recordCount).toBe(1);
      expect(now?.contentVersion).toBeGreaterThan(two.knowledgeBase.contentVersion);
      const [remaining] = await store.knowledge.allRecords(base.ragId);
      expect(remaining?.text).toBe('y1');
      expect(await store.knowledge.deleteRecord(other, base.ragId, remaining?.recordId ?? '')).toBe(false);
      expect(await store.knowledge.deleteRecord(owner, base.ragId, remaining?.recordId ?? '')).toBe(true);
      now = await store.knowledge.getKnowledgeBase(owner, base.ragId);
      expect(now?.recordCount).toBe(0);
      // A deleted record's text can be added again.
      expect((await store.knowledge.commitSource(owner, base.ragId, newSource(), [candidate('y1')], 25)).kind).toBe('committed');
    });

    it('deleting a knowledge base removes its sources and records and frees the slot', async () => {
      const me = await account();
      const base = await kb(me, 1);
      await store.knowledge.commitSource(me, base.ragId, newSource(), [candidate('gone')], 25);
      expect(await store.knowledge.deleteKnowledgeBase(me, base.ragId)).toBe(true);
      expect(await store.knowledge.allRecords(base.ragId)).toEqual([]);
      expect((await kb(me, 1)).ragId).not.toBe(base.ragId);
    });

    it('keeps fingerprints per knowledge base: the same text may live in two', async () => {
      const a = await kb(owner);
      const b = await kb(owner);
      expect((await store.knowledge.commitSource(owner, a.ragId, newSource(), [candidate('shared')], 25)).kind).toBe('committed');
      const second = await store.knowledge.commitSource(owner, b.ragId, newSource(), [candidate('shared')], 25);
      expect(second.kind === 'committed' && second.source.addedCount).toBe(1);
    });
  });

  describe('API keys', () => {
    const newKey = (hash: string) => ({ keyId: id('key'), name: 'site', prefix: 'gw_live_abcd', keyHash: hash, allowedDomains: ['example.com', '*.example.org'] });

    it('creates, finds by hash, lists, updates and revokes, bumping the keys version on change', async () => {
      const base = await kb(owner);
      const hash = randomUUID().replaceAll('-', '').repeat(2);
      const created = await store.keys.createApiKey(owner, base.ragId, newKey(hash));
      expect(created).toMatchObject({ ragId: base.ragId, name: 'site', prefix: 'gw_live_abcd', allowedDomains: ['example.com', '*.example.org'] });
      const found = await store.keys.findApiKeyByHash(hash);
      expect(found?.key).toEqual(created);
      expect(await store.keys.anyKeyAllows(['*.example.org'])).toBe(true);
      expect(found?.keysVersion).toBe(base.keysVersion);
      expect(await store.keys.listApiKeys(owner, base.ragId)).toEqual([created]);
      const updated = await store.keys.updateApiKey(owner, base.ragId, created?.keyId ?? '', { allowedDomains: ['shop.test'] });
      expect(updated?.allowedDomains).toEqual(['shop.test']);
      expect(await store.keys.anyKeyAllows(['www.shop.test', 'shop.test'])).toBe(true);
      expect(await store.keys.anyKeyAllows(['example.com'])).toBe(false);
      const afterUpdate = await store.keys.findApiKeyByHash(hash);
      expect(afterUpdate?.keysVersion).toBeGreaterThan(base.keysVersion);
      expect(await store.keys.revokeApiKey(owner, base.ragId, created?.keyId ?? '')).toBe(true);
      expect(await store.keys.anyKeyAllows(['shop.test'])).toBe(false);
      expect(await store.keys.findApiKeyByHash(hash)).toBeUndefined();
      expect(await store.keys.revokeApiKey(owner, base.ragId, created?.keyId ?? '')).toBe(false);
      expect((await store.knowledge.getKnowledgeBase(owner, base.ragId))?.keysVersion).toBeGreaterThan(afterUpdate?.keysVersion ?? 0);
    });

    it("hides another owner's keys and refuses changes to them", async () => {
      const base = await kb(owner);
      const hash = randomUUID().replaceAll('-', '').repeat(2);
      const created = await store.keys.createApiKey(owner, base.ragId, newKey(hash));
      expect(await store.keys.createApiKey(other, base.ragId, newKey(`${hash}x`))).toBeUndefined();
      expect(await store.keys.listApiKeys(other, base.ragId)).toBeUndefined();
      expect(await store.keys.updateApiKey(other, base.ragId, created?.keyId ?? '', { allowedDomains: ['evil.test'] })).toBeUndefined();
      expect(await store.keys.revokeApiKey(other, base.ragId, created?.keyId ?? '')).toBe(false);
      expect((await store.keys.findApiKeyByHash(hash))?.key.allowedDomains).toEqual(['example.com', '*.example.org']);
    });

    it('deleting the knowledge base deletes its keys', async () => {
      const me = await account();
      const base = await kb(me);
      const hash = randomUUID().replaceAll('-', '').repeat(2);
      await store.keys.createApiKey(me, base.ragId, newKey(hash));
      await store.knowledge.deleteKnowledgeBase(me, base.ragId);
      expect(await store.keys.findApiKeyByHash(hash)).toBeUndefined();
    });
  });

  describe('usage', () => {
    it('adds batched counts per day and groups unanswered questions', async () => {
      const base = await kb(owner);
      const at = '2026-11-20T10:00:00.000Z';
      await store.usage.recordUsage([
        { ragId: base.ragId, day: '2026-11-19', queries: 3, cacheHits: 1, unanswered: 1, unansweredQuestions: ['Do you ship to Mars?'], at },
        { ragId: base.ragId, day: '2026-11-20', queries: 2, cacheHits: 0, unanswered: 2, unansweredQuestions: ['do you ship to  mars?', 'Gift wrap?'], at },
        { ragId: 'kb_deleted_meanwhile', day: '2026-11-20', queries: 9, cacheHits: 0, unanswered: 0, unansweredQuestions: [], at },
      ]);
      await store.usage.recordUsage([{ ragId: base.ragId, day: '2026-11-20', queries: 1, cacheHits: 1, unanswered: 0, unansweredQuestions: [], at }]);
      const report = await store.usage.usage(owner, base.ragId, '2026-11-01', 10);
      expect(report?.days).toEqual([
        { day: '2026-11-19', queries: 3, cacheHits: 1, unanswered: 1 },
        { day: '2026-11-20', queries: 3, cacheHits: 1, unanswered: 2 },
      ]);
      expect(report?.unanswered.map((q) => [q.question, q.count])).toEqual([
        ['do you ship to  mars?', 2],
        ['Gift wrap?', 1],
      ]);
      expect((await store.usage.usage(owner, base.ragId, '2026-11-20', 1))?.days).toHaveLength(1);
      expect(await store.usage.usage(other, base.ragId, '2026-11-01', 10)).toBeUndefined();
      expect(await store.usage.dismissUnanswered(other, base.ragId, 'Gift wrap?')).toBe(false);
      expect(await store.usage.dismissUnanswered(owner, base.ragId, 'gift WRAP?')).toBe(true);
      expect((await store.usage.usage(owner, base.ragId, '2026-11-01', 10))?.unanswered).toHaveLength(1);
    });
  });

  describe('signing keys', () => {
    const key = (kid: string, purpose: string, createdAt: string) => ({
      kid,
      purpose,
      alg: 'EdDSA',
      publicJwk: { kty: 'OKP', crv: 'Ed25519', x: kid },
      privateJwk: { kty: 'OKP', crv: 'Ed25519', x: kid, d: 'secret' },
      createdAt,
      retiredAt: null,
    });

    it('creates one active key per purpose even when asked concurrently, and rotates', async () => {
      const purpose = `test-${randomUUID()}`;
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, i) => store.signingKeys.addSigningKeyIfNone(key(`k${i}-${purpose}`, purpose, '2026-11-21T10:00:00.000Z'))),
      );
      expect(new Set(results.map((r) => r.kid)).size).toBe(1);
      expect(await store.signingKeys.listSigningKeys(purpose)).toHaveLength(1);
      await store.signingKeys.rotateSigningKey(key(`next-${purpose}`, purpose, '2026-11-21T11:00:00.000Z'));
      const listed = await store.signingKeys.listSigningKeys(purpose);
      expect(listed.map((k) => [k.kid, k.retiredAt === null])).toEqual([
        [`next-${purpose}`, true],
        [results[0]?.kid, false],
      ]);
      expect(listed[0]?.privateJwk).toMatchObject({ d: 'secret' });
      expect((await store.signingKeys.addSigningKeyIfNone(key('ignored', purpose, '2026-11-21T12:00:00.000Z'))).kid).toBe(`next-${purpose}`);
    });
  });

  describe('accounts, codes and sessions', () => {
    it('creates one account per e-mail', async () => {
      const email = `${randomUUID()}@example.test`;
      const first = await store.accounts.accountForEmail(email, id('acc'));
      const again = await store.accounts.accountForEmail(email, id('acc'));
      expect(again.accountId).toBe(first.accountId);
      expect(await store.accounts.getAccount(first.accountId)).toEqual(first);
    });

    it('keeps one live code per e-mail, counts attempts and consumes once', async () => {
      const email = `${randomUUID()}@example.test`;
      const at = new Date();
      const later = new Date(at.getTime() + 600_000).toISOString();
      const code = (codeId: string) => ({ codeId, email, codeHash: 'h', expiresAt: later, attempts: 0, createdAt: at.toISOString() });
      await store.accounts.putSignInCode(code('c1'));
      await store.accounts.putSignInCode(code('c2'));
      expect((await store.accounts.liveSignInCode(email, at.toISOString()))?.codeId).toBe('c2');
      expect(await store.accounts.countSignInCodesSince(email, new Date(at.getTime() - 1000).toISOString())).toBe(2);
      expect(await store.accounts.recordFailedAttempt('c2')).toBe(1);
      expect(await store.accounts.recordFailedAttempt('c2')).toBe(2);
      const outcomes = await Promise.all([store.accounts.consumeSignInCode('c2'), store.accounts.consumeSignInCode('c2')]);
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect(await store.accounts.liveSignInCode(email, at.toISOString())).toBeUndefined();
      expect(await store.accounts.liveSignInCode(email, new Date(at.getTime() + 700_000).toISOString())).toBeUndefined();
    });

    it('stores sessions until they expire or are deleted', async () => {
      const acc = await account();
      const at = new Date().toISOString();
      const expiresAt = new Date(Date.now() + 60_000).toISOString();
      await store.accounts.putSession({ tokenHash: 'th1', accountId: acc, csrfToken: 'csrf', expiresAt, createdAt: at });
      expect(await store.accounts.getSession('th1', at)).toMatchObject({ accountId: acc, csrfToken: 'csrf' });
      expect(await store.accounts.getSession('th1', new Date(Date.now() + 120_000).toISOString())).toBeUndefined();
      await store.accounts.purgeExpired(new Date(Date.now() + 120_000).toISOString());
      expect(await store.accounts.getSession('th1', at)).toBeUndefined();
      await store.accounts.putSession({ tokenHash: 'th2', accountId: acc, csrfToken: 'c', expiresAt, createdAt: at });
      await store.accounts.deleteSession('th2');
      expect(await store.accounts.getSession('th2', at)).toBeUndefined();
    });
  });
}
