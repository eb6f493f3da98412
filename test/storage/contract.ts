/**
 * The storage contract: every Store implementation must pass these tests.
 * Run by sqlite.test.ts always and postgres.test.ts when DATABASE_URL is set.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewApiKey, NewSource, Store, UsageDelta } from '../../src/ports/storage.js';
import { fingerprint } from '../../src/knowledge/fingerprint.js';
import type { ApiKey, CandidateRecord } from '../../src/knowledge/model.js';
import { oauthStoreContract } from './oauth-contract.js';
import { connectedAgentsContract } from './connected-agents-contract.js';
import type { SqlContext } from '../../src/adapters/storage/sql.js';
import { PART_BYTES } from '../../src/adapters/storage/index-snapshot-parts.js';
import { Sealer } from '../../src/secrets.js';

const id = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`;

function candidate(text: string): CandidateRecord {
  return { recordId: id('rec'), kind: 'passage', title: null, text, fingerprint: fingerprint(text) };
}

function newSource(name = 'faq.txt'): NewSource {
  return { sourceId: id('src'), sourceName: name, format: 'txt', byteSize: 10, sha256: 'a'.repeat(64), rejectedCount: 0 };
}

/** Runs `work`, counting the event-loop turns other work got while it ran (each statement its own turn). */
async function withTurnsCounted<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let running = true;
  const spin = (): void => {
    turns++;
    if (running) setImmediate(spin);
  };
  setImmediate(spin);
  try {
    return { result: await work(), turns };
  } finally {
    running = false;
  }
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

  /** A key with room to spare under the per-KB limit; undefined when the KB is not the owner's. */
  async function createKey(ownerId: string, ragId: string, key: NewApiKey): Promise<ApiKey | undefined> {
    const result = await store.keys.createApiKey(ownerId, ragId, key, 1000);
    if (result.kind === 'limit_reached') throw new Error('unexpected limit');
    return result.kind === 'created' ? result.key : undefined;
  }

  beforeAll(async () => {
    owner = await account();
    other = await account();
  });

  oauthStoreContract(() => store);
  connectedAgentsContract(() => store);

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

    it("stores, keeps, replaces and clears the owner's synonyms, every read seeing the same groups", async () => {
      const me = await account();
      expect((await kb(me)).synonyms).toEqual([]); // none given
      const groups = [
        ['Porto', 'Versandkosten'],
        ['sign up', 'account', '“ü” 🙂 <b>x</b>'],
      ];
      const created = await store.knowledge.createKnowledgeBase({ ragId: id('kb'), ownerId: me, botName: 'Shop', description: null, greeting: null, synonyms: groups, theme: {} }, 1000);
      if (created.kind !== 'created') throw new Error('expected created');
      const ragId = created.knowledgeBase.ragId;
      expect(created.knowledgeBase.synonyms).toEqual(groups);
      expect((await store.knowledge.getKnowledgeBase(me, ragId))?.synonyms).toEqual(groups);
      expect((await store.knowledge.findKnowledgeBase(ragId))?.synonyms).toEqual(groups);
      expect((await store.knowledge.listKnowledgeBases(me)).find((k) => k.ragId === ragId)?.synonyms).toEqual(groups);

      // A patch of other fields leaves them; a patch of them leaves the others.
      expect((await store.knowledge.updateKnowledgeBase(me, ragId, { botName: 'Renamed' }))?.synonyms).toEqual(groups);
      const replaced = await store.knowledge.updateKnowledgeBase(me, ragId, { synonyms: [['bike', 'bicycle']] });
      expect(replaced).toMatchObject({ botName: 'Renamed', synonyms: [['bike', 'bicycle']] });
      expect((await store.knowledge.findKnowledgeBase(ragId))?.synonyms).toEqual([['bike', 'bicycle']]);

      expect((await store.knowledge.updateKnowledgeBase(me, ragId, { synonyms: [] }))?.synonyms).toEqual([]);
      expect((await store.knowledge.findKnowledgeBase(ragId))?.synonyms).toEqual([]);
    });

    it('stores, keeps, replaces and clears the starter questions in their order, every read seeing the same', async () => {
      const me = await account();
      expect((await kb(me)).starterQuestions).toEqual([]); // none given
      const questions = ['What does delivery cost?', 'Wie lange dauert der Versand?', '“ü” 🙂 <b>x</b> & "y"'];
      const created = await store.knowledge.createKnowledgeBase({ ragId: id('kb'), ownerId: me, botName: 'Shop', description: null, greeting: null, starterQuestions: questions, theme: {} }, 1000);
      if (created.kind !== 'created') throw new Error('expected created');
      const ragId = created.knowledgeBase.ragId;
      expect(created.knowledgeBase.starterQuestions).toEqual(questions);
      expect((await store.knowledge.getKnowledgeBase(me, ragId))?.starterQuestions).toEqual(questions);
      expect((await store.knowledge.findKnowledgeBase(ragId))?.starterQuestions).toEqual(questions);
      expect((await store.knowledge.listKnowledgeBases(me)).find((k) => k.ragId === ragId)?.starterQuestions).toEqual(questions);

      // A patch of other fields leaves them; a patch of them leaves the others.
      expect((await store.knowledge.updateKnowledgeBase(me, ragId, { botName: 'Renamed', synonyms: [['a', 'b']] }))?.starterQuestions).toEqual(questions);
      const replaced = await store.knowledge.updateKnowledgeBase(me, ragId, { starterQuestions: ['Do you ship to Canada?'] });
      expect(replaced).toMatchObject({ botName: 'Renamed', synonyms: [['a', 'b']], starterQuestions: ['Do you ship to Canada?'] });
      expect((await store.knowledge.findKnowledgeBase(ragId))?.starterQuestions).toEqual(['Do you ship to Canada?']);

      expect((await store.knowledge.updateKnowledgeBase(me, ragId, { starterQuestions: [] }))?.starterQuestions).toEqual([]);
      expect((await store.knowledge.findKnowledgeBase(ragId))?.starterQuestions).toEqual([]);
    });

    it('writes the first widget sighting once, even when several come at once, and every read sees it', async () => {
      const me = await account();
      const { ragId } = await kb(me);
      expect((await store.knowledge.findKnowledgeBase(ragId))?.widgetSeen).toBeNull();
      const at = '2026-11-24T10:00:00.000Z';
      const origins = ['https://shop.example', 'https://www.shop.example', 'https://blog.shop.example', 'https://other.example'];
      const wrote = await Promise.all(origins.map((origin) => store.knowledge.noteWidgetSeen(ragId, { origin, at })));
      expect(wrote.filter(Boolean)).toHaveLength(1);
      const seen = (await store.knowledge.findKnowledgeBase(ragId))?.widgetSeen;
      expect(seen?.at).toBe(at);
      expect(origins[wrote.indexOf(true)]).toBe(seen?.origin);
      expect((await store.knowledge.getKnowledgeBase(me, ragId))?.widgetSeen).toEqual(seen);
      // Later sightings change nothing.
      expect(await store.knowledge.noteWidgetSeen(ragId, { origin: 'https://late.example', at: '2026-11-25T00:00:00.000Z' })).toBe(false);
      expect((await store.knowledge.findKnowledgeBase(ragId))?.widgetSeen).toEqual(seen);
      // A knowledge base that does not exist: nothing written.
      expect(await store.knowledge.noteWidgetSeen('kb_missing', { origin: 'https://shop.example', at })).toBe(false);
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

    it('creates no more than the limit when 100 knowledge bases are created at once', async () => {
      const me = await account();
      const results = await Promise.all(
        Array.from({ length: 100 }, () =>
          store.knowledge.createKnowledgeBase({ ragId: id('kb'), ownerId: me, botName: 'x', description: null, greeting: null, theme: {} }, 3),
        ),
      );
      expect(results.filter((r) => r.kind === 'created')).toHaveLength(3);
      expect(await store.knowledge.listKnowledgeBases(me)).toHaveLength(3);
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

      const key = await createKey(me, base.ragId, { keyId: id('key'), name: null, prefix: 'gw_live_abcd', keyHash: id('h'), allowedDomains: [] });
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

    it('fills the quota to the edge and not past it when 50 uploads arrive at once', async () => {
      const base = await kb(owner);
      await store.knowledge.commitSource(owner, base.ragId, newSource(), Array.from({ length: 8 }, (_, i) => candidate(`prefill ${i}`)), 10);
      // Two free slots; fifty one-record uploads of different texts, plus one that only repeats a stored record.
      const results = await Promise.all([
        ...Array.from({ length: 50 }, (_, i) => store.knowledge.commitSource(owner, base.ragId, newSource(), [candidate(`edge ${i}`)], 10)),
        store.knowledge.commitSource(owner, base.ragId, newSource(), [candidate('prefill 3')], 10),
      ]);
      expect(results.filter((r) => r.kind === 'committed')).toHaveLength(3);
      expect(results.filter((r) => r.kind === 'quota_exceeded')).toEqual(Array(48).fill({ kind: 'quota_exceeded', needed: 1, available: 0 }));
      expect((await store.knowledge.getKnowledgeBase(owner, base.ragId))?.recordCount).toBe(10);
      expect(await store.knowledge.allRecords(base.ragId)).toHaveLength(10);
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

  describe('record changes since a content version (recordSnapshot, recordChanges)', () => {
    const texts = (records: { text: string }[]) => records.map((r) => r.text);

    it('reads a large knowledge base in pages (other work runs between them), never a mix of two versions', async () => {
      const base = await kb(owner, 100_000);
      const first = await store.knowledge.commitSource(owner, base.ragId, newSource(), Array.from({ length: 1200 }, (_, i) => candidate(`a${i}`)), 100_000);
      if (first.kind !== 'committed') throw new Error(first.kind);
      const { result: whole, turns } = await withTurnsCounted(() => store.knowledge.recordSnapshot(base.ragId));
      expect(turns).toBeGreaterThanOrEqual(2);
      expect(whole?.version).toBe(first.knowledgeBase.contentVersion);
      expect(texts(whole?.records ?? [])).toEqual(Array.from({ length: 1200 }, (_, i) => `a${i}`));
      // Read while an upload and a deletion change it: the records of the version it says, whole.
      const source = newSource();
      const [during] = await Promise.all([
        store.knowledge.recordSnapshot(base.ragId),
        (async () => {
          await store.knowledge.commitSource(owner, base.ragId, source, Array.from({ length: 700 }, (_, i) => candidate(`b${i}`)), 100_000);
          await store.knowledge.deleteRecord(owner, base.ragId, whole?.records[3]?.recordId as string);
        })(),
      ]);
      const after = await store.knowledge.recordSnapshot(base.ragId);
      const expected = new Map<number, string[]>([
        [first.knowledgeBase.contentVersion, texts(whole?.records ?? [])],
        [first.knowledgeBase.contentVersion + 1, [...texts(whole?.records ?? []), ...Array.from({ length: 700 }, (_, i) => `b${i}`)]],
        [after?.version as number, texts(after?.records ?? [])],
      ]);
      expect(expected.get(during?.version as number)).toEqual(texts(during?.records ?? []));
      expect(after?.records).toHaveLength(1200 + 700 - 1);
    }, 60_000);

    it('gives the records with their version, then exactly what each upload, deletion and page update changed', async () => {
      const base = await kb(owner);
      const start = await store.knowledge.recordSnapshot(base.ragId);
      expect(start).toEqual({ version: base.contentVersion, records: [] });
      const one = await store.knowledge.commitSource(owner, base.ragId, newSource(), [candidate('c1'), candidate('c2')], 25);
      if (one.kind !== 'committed') throw new Error(one.kind);
      const v1 = one.knowledgeBase.contentVersion;
      const snapshot = await store.knowledge.recordSnapshot(base.ragId);
      expect(snapshot?.version).toBe(v1);
      expect(texts(snapshot?.records ?? [])).toEqual(['c1', 'c2']);
      const c1 = snapshot?.records[0]?.recordId as string;
      const c2 = snapshot?.records[1]?.recordId as string;
      expect(await store.knowledge.recordChanges(base.ragId, v1)).toEqual({ version: v1, added: [], removedIds: [] });
      const sinceStart = await store.knowledge.recordChanges(base.ragId, base.contentVersion);
      expect(texts(sinceStart?.added ?? [])).toEqual(['c1', 'c2']);
      expect(sinceStart?.added[0]).toEqual(snapshot?.records[0]);

      const two = await store.knowledge.commitSource(owner, base.ragId, newSource('more.txt'), [candidate('c3')], 25);
      if (two.kind !== 'committed') throw new Error(two.kind);
      const v2 = two.knowledgeBase.contentVersion;
      const c3 = (await store.knowledge.allRecords(base.ragId)).find((r) => r.text === 'c3')?.recordId as string;
      expect(texts((await store.knowledge.recordChanges(base.ragId, v1))?.added ?? [])).toEqual(['c3']);
      expect(await store.knowledge.deleteRecord(owner, base.ragId, c1)).toBe(true);
      expect(await store.knowledge.deleteSource(owner, base.ragId, two.source.sourceId)).toBe(true);
      // c3 came and went after v1: only its removal is told (removing an unknown id changes nothing).
      const after = await store.knowledge.recordChanges(base.ragId, v1);
      expect(after).toEqual({ version: v2 + 2, added: [], removedIds: [c1, c3] });
      expect(await store.knowledge.recordChanges(base.ragId, v2 + 1)).toEqual({ version: v2 + 2, added: [], removedIds: [c3] });

      // A page replaced: the records it no longer has are removed, new ones added, kept ones untouched.
      const pageSource = { ...newSource('Page'), format: 'html' as const, url: 'https://shop.example/changes', sha256: 'a'.repeat(64) };
      const added = await store.knowledge.commitPageSource(owner, base.ragId, pageSource, [candidate('p1'), candidate('p2')], 25);
      if (added.kind !== 'added') throw new Error(added.kind);
      const p1 = (await store.knowledge.allRecords(base.ragId)).find((r) => r.text === 'p1')?.recordId;
      const updated = await store.knowledge.commitPageSource(owner, base.ragId, { ...pageSource, sha256: 'b'.repeat(64) }, [candidate('p2'), candidate('p3')], 25);
      if (updated.kind !== 'updated') throw new Error(updated.kind);
      const pageChanges = await store.knowledge.recordChanges(base.ragId, added.knowledgeBase.contentVersion);
      expect(pageChanges).toMatchObject({ version: updated.knowledgeBase.contentVersion, removedIds: [p1] });
      expect(texts(pageChanges?.added ?? [])).toEqual(['p3']);
      expect((await store.knowledge.recordSnapshot(base.ragId))?.records.map((r) => r.recordId)).toEqual([c2, ...(await store.knowledge.allRecords(base.ragId)).slice(1).map((r) => r.recordId)]);
      expect(texts((await store.knowledge.recordSnapshot(base.ragId))?.records ?? [])).toEqual(['c2', 'p2', 'p3']);
    });

    it('says nothing (undefined) for a version older than the removals it keeps, and for a knowledge base that is gone', async () => {
      const base = await kb(owner);
      for (let i = 0; i < 258; i++) await store.knowledge.commitSource(owner, base.ragId, newSource(), [candidate(`v${i}`)], 1000);
      expect(await store.knowledge.recordChanges(base.ragId, base.contentVersion)).toBeUndefined();
      const now = (await store.knowledge.findKnowledgeBase(base.ragId))?.contentVersion as number;
      expect(texts((await store.knowledge.recordChanges(base.ragId, now - 10))?.added ?? [])).toEqual(Array.from({ length: 10 }, (_, i) => `v${248 + i}`));
      expect(await store.knowledge.deleteKnowledgeBase(owner, base.ragId)).toBe(true);
      expect(await store.knowledge.recordChanges(base.ragId, now)).toBeUndefined();
      expect(await store.knowledge.recordSnapshot(base.ragId)).toBeUndefined();
    }, 60_000);
  });

  describe('index snapshots (readIndexSnapshot, writeIndexSnapshot)', () => {
    it('stores one per knowledge base, replaced by newer (or same-version) ones only, and dropped with the knowledge base', async () => {
      const base = await kb(owner);
      expect(await store.knowledge.readIndexSnapshot(base.ragId)).toBeUndefined();
      const big = new Uint8Array(300_000).map((_, i) => (i * 7) % 256);
      expect(await store.knowledge.writeIndexSnapshot(base.ragId, { version: 3, data: big })).toBe(true);
      const read = await store.knowledge.readIndexSnapshot(base.ragId);
      expect(read?.version).toBe(3);
      expect(Buffer.from(read?.data ?? []).equals(Buffer.from(big))).toBe(true);
      // An older one does not replace it; one of the same version or newer does.
      expect(await store.knowledge.writeIndexSnapshot(base.ragId, { version: 2, data: new Uint8Array([2]) })).toBe(false);
      expect([...((await store.knowledge.readIndexSnapshot(base.ragId))?.data ?? new Uint8Array()).subarray(0, 3)]).toEqual([0, 7, 14]);
      expect(await store.knowledge.writeIndexSnapshot(base.ragId, { version: 3, data: new Uint8Array([3]) })).toBe(true);
      expect(await store.knowledge.writeIndexSnapshot(base.ragId, { version: 5, data: new Uint8Array([5, 0]) })).toBe(true);
      const newest = await store.knowledge.readIndexSnapshot(base.ragId);
      expect([newest?.version, [...(newest?.data ?? [])]]).toEqual([5, [5, 0]]);
      // Another knowledge base's is its own.
      const other = await kb(owner);
      expect(await store.knowledge.readIndexSnapshot(other.ragId)).toBeUndefined();
      expect(await store.knowledge.deleteKnowledgeBase(owner, base.ragId)).toBe(true);
      expect(await store.knowledge.readIndexSnapshot(base.ragId)).toBeUndefined();
      expect(await store.knowledge.writeIndexSnapshot(base.ragId, { version: 9, data: new Uint8Array([9]) })).toBe(false);
      expect(await store.knowledge.readIndexSnapshot(base.ragId)).toBeUndefined();
    });

    it('stores a large one in parts (never one long read or write) and reads one whole snapshot while another replaces it', async () => {
      const base = await kb(owner);
      const parts = () => ((store as unknown as { ctx: SqlContext }).ctx.db.selectFrom('index_snapshot_parts').select(['generation', 'part']).where('rag_id', '=', base.ragId).execute());
      // Five and a half parts of 1 MiB, and two: distinct bytes, so a mix of the two would show.
      const first = new Uint8Array(PART_BYTES * 5.5 + 7).map((_, i) => (i * 7) % 251);
      const second = new Uint8Array(PART_BYTES + 3).map((_, i) => (i * 13 + 1) % 253);
      expect(await store.knowledge.writeIndexSnapshot(base.ragId, { version: 1, data: first })).toBe(true);
      expect(await parts()).toHaveLength(6);
      // Other work runs between the parts (each its own statement), for a read as for the write.
      const { result: whole, turns } = await withTurnsCounted(() => store.knowledge.readIndexSnapshot(base.ragId));
      expect(turns).toBeGreaterThanOrEqual(5);
      expect(Buffer.from(whole?.data ?? []).equals(Buffer.from(first))).toBe(true);
      // A read under way while a newer snapshot replaces it (the parts of both interleave): one of them, whole.
      const [read, written] = await Promise.all([store.knowledge.readIndexSnapshot(base.ragId), store.knowledge.writeIndexSnapshot(base.ragId, { version: 2, data: second })]);
      expect(written).toBe(true);
      const got = Buffer.from(read?.data ?? []);
      expect(read?.version === 1 ? got.equals(Buffer.from(first)) : read?.version === 2 && got.equals(Buffer.from(second))).toBe(true);
      // The replaced snapshot's parts are gone; a refused (older) one leaves none behind.
      expect(await parts()).toHaveLength(2);
      expect(await store.knowledge.writeIndexSnapshot(base.ragId, { version: 1, data: first })).toBe(false);
      expect(await parts()).toHaveLength(2);
      const newest = await store.knowledge.readIndexSnapshot(base.ragId);
      expect(newest?.version).toBe(2);
      expect(Buffer.from(newest?.data ?? []).equals(Buffer.from(second))).toBe(true);
      // A part gone (as when a replacement removes it under a reader that then finds no newer row): nothing, never a part of a snapshot.
      await (store as unknown as { ctx: SqlContext }).ctx.db.deleteFrom('index_snapshot_parts').where('rag_id', '=', base.ragId).where('part', '=', 1).execute();
      expect(await store.knowledge.readIndexSnapshot(base.ragId)).toBeUndefined();
      // An empty one is a snapshot too.
      expect(await store.knowledge.writeIndexSnapshot(base.ragId, { version: 3, data: new Uint8Array(0) })).toBe(true);
      expect(await store.knowledge.readIndexSnapshot(base.ragId)).toEqual({ version: 3, data: new Uint8Array(0) });
      expect(await parts()).toHaveLength(0);
      expect(await store.knowledge.deleteKnowledgeBase(owner, base.ragId)).toBe(true);
    }, 60_000);
  });

  describe('pages imported from a URL (commitPageSource)', () => {
    const page = (url: string, sha = 'a', name = 'Page') => ({ ...newSource(name), format: 'html' as const, url, sha256: sha.repeat(64) });

    it('adds a page as a source that remembers its URL, and leaves an unchanged page alone', async () => {
      const base = await kb(owner);
      const first = await store.knowledge.commitPageSource(owner, base.ragId, page('https://shop.example/a'), [candidate('a1'), candidate('a2')], 25);
      if (first.kind !== 'added') throw new Error(first.kind);
      expect(first).toMatchObject({ added: 2, removed: 0, kept: 0, duplicateFingerprints: [] });
      expect(first.source).toMatchObject({ url: 'https://shop.example/a', format: 'html', addedCount: 2 });
      expect((await store.knowledge.listSources(owner, base.ragId, { limit: 10 }))?.items[0]?.url).toBe('https://shop.example/a');
      // Uploads carry no URL.
      const upload = await store.knowledge.commitSource(owner, base.ragId, newSource(), [candidate('u1')], 25);
      expect(upload.kind === 'committed' && upload.source.url).toBeUndefined();
      const before = await store.knowledge.getKnowledgeBase(owner, base.ragId);
      const again = await store.knowledge.commitPageSource(owner, base.ragId, page('https://shop.example/a'), [candidate('a1'), candidate('a2')], 25);
      expect(again).toMatchObject({ kind: 'unchanged', added: 0, removed: 0, kept: 2, source: { sourceId: first.source.sourceId } });
      expect(await store.knowledge.getKnowledgeBase(owner, base.ragId)).toEqual(before);
    });

    it('replaces a changed page’s records by fingerprint: kept ones keep their ids, gone ones are deleted, new ones added', async () => {
      const base = await kb(owner);
      await store.knowledge.commitSource(owner, base.ragId, newSource('other.txt'), [candidate('elsewhere')], 25);
      const first = await store.knowledge.commitPageSource(owner, base.ragId, page('https://shop.example/p'), [candidate('keep'), candidate('drop')], 25);
      if (first.kind !== 'added') throw new Error(first.kind);
      const keptId = (await store.knowledge.allRecords(base.ragId)).find((r) => r.text === 'keep')?.recordId;
      const changed = await store.knowledge.commitPageSource(
        owner,
        base.ragId,
        page('https://shop.example/p', 'b', 'Page, renamed'),
        [candidate('keep'), candidate('new'), candidate('elsewhere'), candidate('new')],
        25,
      );
      if (changed.kind !== 'updated') throw new Error(changed.kind);
      expect(changed).toMatchObject({ added: 1, removed: 1, kept: 1, duplicateFingerprints: [fingerprint('elsewhere'), fingerprint('new')] });
      expect(changed.source).toMatchObject({ sourceId: first.source.sourceId, sourceName: 'Page, renamed', sha256: 'b'.repeat(64), addedCount: 2, duplicateCount: 2 });
      expect(changed.knowledgeBase.recordCount).toBe(3);
      expect(changed.knowledgeBase.contentVersion).toBeGreaterThan(first.knowledgeBase.contentVersion);
      const records = await store.knowledge.allRecords(base.ragId);
      expect(records.map((r) => r.text).sort()).toEqual(['elsewhere', 'keep', 'new']);
      expect(records.find((r) => r.text === 'keep')?.recordId).toBe(keptId);
      expect((await store.knowledge.listSources(owner, base.ragId, { limit: 10 }))?.items).toHaveLength(2);
    });

    it('counts the records a replacement frees against the quota, and a page that does not fit changes nothing', async () => {
      const base = await kb(owner);
      await store.knowledge.commitPageSource(owner, base.ragId, page('https://shop.example/q'), [candidate('q1'), candidate('q2')], 3);
      // Two records replaced by three: one slot free plus the two freed.
      const fits = await store.knowledge.commitPageSource(owner, base.ragId, page('https://shop.example/q', 'b'), [candidate('q3'), candidate('q4'), candidate('q5')], 3);
      expect(fits.kind).toBe('updated');
      const before = await store.knowledge.getKnowledgeBase(owner, base.ragId);
      const recordsBefore = await store.knowledge.allRecords(base.ragId);
      const refused = await store.knowledge.commitPageSource(owner, base.ragId, page('https://shop.example/q', 'c'), [candidate('q3'), candidate('q6'), candidate('q7'), candidate('q8')], 3);
      expect(refused).toEqual({ kind: 'quota_exceeded', needed: 3, available: 2 });
      expect(await store.knowledge.getKnowledgeBase(owner, base.ragId)).toEqual(before);
      expect(await store.knowledge.allRecords(base.ragId)).toEqual(recordsBefore);
      expect((await store.knowledge.commitPageSource(owner, base.ragId, page('https://shop.example/new'), [candidate('n1')], 3)).kind).toBe('quota_exceeded');
    });

    it("keeps one source per URL when the same page is committed at once, and refuses another owner's knowledge base", async () => {
      const base = await kb(owner);
      const results = await Promise.all(
        Array.from({ length: 5 }, () => store.knowledge.commitPageSource(owner, base.ragId, page('https://shop.example/same'), [candidate('same text')], 25)),
      );
      expect(results.map((r) => r.kind).sort()).toEqual(['added', 'unchanged', 'unchanged', 'unchanged', 'unchanged']);
      expect((await store.knowledge.listSources(owner, base.ragId, { limit: 10 }))?.items).toHaveLength(1);
      expect(await store.knowledge.commitPageSource(other, base.ragId, page('https://shop.example/x'), [candidate('x')], 25)).toEqual({ kind: 'not_found' });
      // The same URL may be a source in two knowledge bases.
      const second = await kb(owner);
      expect((await store.knowledge.commitPageSource(owner, second.ragId, page('https://shop.example/same'), [candidate('same text')], 25)).kind).toBe('added');
    });
  });

  describe('API keys', () => {
    const newKey = (hash: string) => ({ keyId: id('key'), name: 'site', prefix: 'gw_live_abcd', keyHash: hash, allowedDomains: ['example.com', '*.example.org'] });

    it('creates, finds by hash, lists, updates and revokes, bumping the keys version on change', async () => {
      const base = await kb(owner);
      const hash = randomUUID().replaceAll('-', '').repeat(2);
      const created = await createKey(owner, base.ragId, newKey(hash));
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

    it('keeps a publishable key sealed: listed again in full to its owner, never in plain text at rest, gone when revoked', async () => {
      // Both stores are SqlStore: read the row past the port to see what is at rest.
      const rawRow = (keyId: string) =>
        (store as unknown as { ctx: SqlContext }).ctx.db.selectFrom('api_keys').selectAll().where('key_id', '=', keyId).executeTakeFirst();
      const sealer = new Sealer('contract-secret-'.repeat(3));
      store.keys.encryptAtRest(sealer);
      const base = await kb(owner);
      const full = `gw_live_${randomUUID().replaceAll('-', '').slice(0, 32)}`;
      const secretHash = randomUUID().replaceAll('-', '').repeat(2);
      const secret = await createKey(owner, base.ragId, newKey(secretHash));
      const publishable = await createKey(owner, base.ragId, { ...newKey(`${secretHash}p`), publishableKey: full });
      expect(secret?.publishable).toBe(false);
      expect(publishable).toMatchObject({ publishable: true, allowedDomains: ['example.com', '*.example.org'] });
      expect(publishable?.apiKey).toBeUndefined(); // only the list shows it
      // The hot path never opens it.
      expect((await store.keys.findApiKeyByHash(`${secretHash}p`))?.key).toEqual(publishable);

      const listed = await store.keys.listApiKeys(owner, base.ragId);
      expect(listed?.find((k) => k.keyId === publishable?.keyId)).toEqual({ ...publishable, apiKey: full });
      const listedSecret = listed?.find((k) => k.keyId === secret?.keyId);
      expect(listedSecret).toEqual(secret);
      expect(listedSecret && 'apiKey' in listedSecret).toBe(false);
      expect(await store.keys.listApiKeys(other, base.ragId)).toBeUndefined();

      // At rest: a sealed envelope bound to the row, not the key.
      const row = await rawRow(publishable?.keyId ?? '');
      expect(row?.sealed_key).toMatch(/^v1:/);
      expect(JSON.stringify(row)).not.toContain(full);
      expect(sealer.open(String(row?.sealed_key), `api_keys:${publishable?.keyId}`)).toBe(full);
      expect((await rawRow(secret?.keyId ?? ''))?.sealed_key).toBeNull();

      // Another secret does not open it: listed as publishable, without the key.
      store.keys.encryptAtRest(new Sealer('another-secret-'.repeat(3)));
      expect((await store.keys.listApiKeys(owner, base.ragId))?.find((k) => k.keyId === publishable?.keyId)).toEqual(publishable);
      store.keys.encryptAtRest(sealer);

      // Revoked: not listed, and the sealed copy is deleted with the row.
      expect(await store.keys.revokeApiKey(owner, base.ragId, publishable?.keyId ?? '')).toBe(true);
      expect((await store.keys.listApiKeys(owner, base.ragId))?.map((k) => k.keyId)).toEqual([secret?.keyId]);
      expect(await rawRow(publishable?.keyId ?? '')).toBeUndefined();
    });

    it("hides another owner's keys and refuses changes to them", async () => {
      const base = await kb(owner);
      const hash = randomUUID().replaceAll('-', '').repeat(2);
      const created = await createKey(owner, base.ragId, newKey(hash));
      expect(await createKey(other, base.ragId, newKey(`${hash}x`))).toBeUndefined();
      expect(await store.keys.listApiKeys(other, base.ragId)).toBeUndefined();
      expect(await store.keys.updateApiKey(other, base.ragId, created?.keyId ?? '', { allowedDomains: ['evil.test'] })).toBeUndefined();
      expect(await store.keys.revokeApiKey(other, base.ragId, created?.keyId ?? '')).toBe(false);
      expect((await store.keys.findApiKeyByHash(hash))?.key.allowedDomains).toEqual(['example.com', '*.example.org']);
    });

    it('refuses a key past the per-KB limit, exactly, when 100 are created at once', async () => {
      const me = await account();
      const base = await kb(me);
      const results = await Promise.all(
        Array.from({ length: 100 }, () => store.keys.createApiKey(me, base.ragId, newKey(randomUUID().replaceAll('-', '').repeat(2)), 20)),
      );
      expect(results.filter((r) => r.kind === 'created')).toHaveLength(20);
      expect(results.filter((r) => r.kind === 'limit_reached')).toHaveLength(80);
      expect(await store.keys.listApiKeys(me, base.ragId)).toHaveLength(20);
      // Revoking one frees exactly one slot.
      const [first] = (await store.keys.listApiKeys(me, base.ragId)) ?? [];
      await store.keys.revokeApiKey(me, base.ragId, first?.keyId ?? '');
      const again = await Promise.all(Array.from({ length: 10 }, () => store.keys.createApiKey(me, base.ragId, newKey(id('h')), 20)));
      expect(again.filter((r) => r.kind === 'created')).toHaveLength(1);
      expect((await store.keys.createApiKey(other, base.ragId, newKey(id('h')), 20)).kind).toBe('not_found');
    });

    it('bumps the keys version once per concurrent change, and keeps every patch', async () => {
      const base = await kb(owner);
      const hash = id('hash');
      const created = await createKey(owner, base.ragId, { ...newKey(hash), allowedDomains: [] });
      const patches = Array.from({ length: 6 }, (_, i) =>
        i % 2 === 0 ? { name: `site ${i}` } : { allowedDomains: [`shop${i}.test`] },
      );
      await Promise.all(patches.map((patch) => store.keys.updateApiKey(owner, base.ragId, created?.keyId ?? '', patch)));
      const found = await store.keys.findApiKeyByHash(hash);
      expect(found?.keysVersion).toBe(base.keysVersion + 6);
      expect((await store.knowledge.findKnowledgeBase(base.ragId))?.keysVersion).toBe(base.keysVersion + 6);
      expect(found?.key.name).toMatch(/^site [024]$/);
      expect(await store.keys.anyKeyAllows([found?.key.allowedDomains[0] ?? 'none'])).toBe(true);
    });

    it('deleting the knowledge base deletes its keys', async () => {
      const me = await account();
      const base = await kb(me);
      const hash = randomUUID().replaceAll('-', '').repeat(2);
      await createKey(me, base.ragId, newKey(hash));
      await store.knowledge.deleteKnowledgeBase(me, base.ragId);
      expect(await store.keys.findApiKeyByHash(hash)).toBeUndefined();
    });
  });

  describe('usage', () => {
    it('adds batched counts per day and groups unanswered questions', async () => {
      const base = await kb(owner);
      const at = '2026-11-20T10:00:00.000Z';
      await store.usage.recordUsage([
        { ragId: base.ragId, day: '2026-11-19', queries: 3, cacheHits: 1, unanswered: 1, unansweredQuestions: [{ question: 'Do you ship to Mars?' }], at },
        { ragId: base.ragId, day: '2026-11-20', queries: 2, cacheHits: 0, unanswered: 2, unansweredQuestions: [{ question: 'do you ship to  mars?' }, { question: 'Gift wrap?' }], at },
        { ragId: 'kb_deleted_meanwhile', day: '2026-11-20', queries: 9, cacheHits: 0, unanswered: 0, unansweredQuestions: [], at },
      ]);
      await store.usage.recordUsage([{ ragId: base.ragId, day: '2026-11-20', queries: 1, cacheHits: 1, unanswered: 0, unansweredQuestions: [], at }]);
      const report = await store.usage.usage(owner, base.ragId, '2026-11-01', 10);
      expect(report?.days).toEqual([
        { day: '2026-11-19', queries: 3, cacheHits: 1, unanswered: 1, helpful: 0, unhelpful: 0 },
        { day: '2026-11-20', queries: 3, cacheHits: 1, unanswered: 2, helpful: 0, unhelpful: 0 },
      ]);
      expect(report?.unanswered.map((q) => [q.question, q.count])).toEqual([
        ['do you ship to  mars?', 2],
        ['Gift wrap?', 1],
      ]);
      expect((await store.usage.usage(owner, base.ragId, '2026-11-20', 1))?.days).toHaveLength(1);
      expect(await store.usage.usage(other, base.ragId, '2026-11-01', 10)).toBeUndefined();
      expect(await store.usage.dismissUnanswered(other, base.ragId, { question: 'Gift wrap?' })).toBe(false);
      expect(await store.usage.dismissUnanswered(owner, base.ragId, { question: 'gift WRAP?' })).toBe(true);
      expect((await store.usage.usage(owner, base.ragId, '2026-11-01', 10))?.unanswered).toHaveLength(1);
    });
    const delta = (ragId: string, day: string, questions: string[], at: string, queries = 1) => ({
      ragId,
      day,
      queries,
      cacheHits: 0,
      unanswered: questions.length,
      unansweredQuestions: questions.map((question) => ({ question })),
      at,
    });

    it('folds repeated days and questions within one batch, keeping the latest wording, which a late batch does not move back', async () => {
      const base = await kb(owner);
      await store.usage.recordUsage([
        delta(base.ragId, '2026-11-20', ['Gift wrap?', 'gift  wrap?'], '2026-11-20T10:00:00.000Z'),
        delta(base.ragId, '2026-11-20', ['GIFT WRAP?'], '2026-11-20T11:00:00.000Z'),
        delta(base.ragId, '2026-11-20', ['Gift Wrap?'], '2026-11-20T09:00:00.000Z'),
      ]);
      // A batch flushed late (older) by another instance counts, but does not move the wording or time back.
      await store.usage.recordUsage([delta(base.ragId, '2026-11-20', ['gift wrap', 'Gift-wrap?'], '2026-11-20T08:00:00.000Z')]);
      const report = await store.usage.usage(owner, base.ragId, '2026-11-20', 10);
      expect(report?.days).toEqual([{ day: '2026-11-20', queries: 4, cacheHits: 0, unanswered: 6, helpful: 0, unhelpful: 0 }]);
      expect(report?.unanswered).toEqual([
        { question: 'GIFT WRAP?', count: 5, lastAskedAt: '2026-11-20T11:00:00.000Z' },
        { question: 'Gift-wrap?', count: 1, lastAskedAt: '2026-11-20T08:00:00.000Z' },
      ]);
      // A later batch does move them.
      await store.usage.recordUsage([delta(base.ragId, '2026-11-21', ['gift wrap!'], '2026-11-21T08:00:00.000Z')]);
      expect((await store.usage.usage(owner, base.ragId, '2026-11-20', 10))?.unanswered[0]).toEqual({
        question: 'gift wrap!',
        count: 6,
        lastAskedAt: '2026-11-21T08:00:00.000Z',
      });
    });

    it('keeps a follow-up with the questions it was asked after, apart from the same words asked on their own, and dismisses it by both', async () => {
      const base = await kb(owner);
      const after = (question: string, askedAfter: string) => ({ question, askedAfter });
      await store.usage.recordUsage([
        {
          ...delta(base.ragId, '2026-11-20', [], '2026-11-20T10:00:00.000Z'),
          unanswered: 4,
          unansweredQuestions: [
            after('And how long does that take?', 'Do you ship to Mexico?'),
            after('and how long does that take', 'do you ship to mexico'),
            after('And how long does that take?', 'Can I return a kettle?'),
            { question: 'And how long does that take?' },
          ],
          feedback: [{ question: 'How much is it?', askedAfter: 'Do you sell the Arden tamper?', recordIds: [], helpful: 0, unhelpful: 1 }],
        },
      ]);
      // A late batch counts but moves neither the question's wording nor that of what it was asked after back.
      await store.usage.recordUsage([
        { ...delta(base.ragId, '2026-11-20', [], '2026-11-20T09:00:00.000Z'), unanswered: 1, unansweredQuestions: [after('AND HOW LONG DOES THAT TAKE', 'DO YOU SHIP TO MEXICO')] },
      ]);
      const report = await store.usage.usage(owner, base.ragId, '2026-11-20', 10);
      expect(report?.unanswered).toEqual([
        { question: 'and how long does that take', askedAfter: 'do you ship to mexico', count: 3, lastAskedAt: '2026-11-20T10:00:00.000Z' },
        { question: 'And how long does that take?', askedAfter: 'Can I return a kettle?', count: 1, lastAskedAt: '2026-11-20T10:00:00.000Z' },
        { question: 'And how long does that take?', count: 1, lastAskedAt: '2026-11-20T10:00:00.000Z' },
      ]);
      expect(report?.feedback).toEqual([
        { question: 'How much is it?', askedAfter: 'Do you sell the Arden tamper?', helpful: 0, unhelpful: 1, lastAt: '2026-11-20T10:00:00.000Z', records: [] },
      ]);
      // Named without what it was asked after, or after something else, it is another question.
      expect(await store.usage.dismissUnanswered(owner, base.ragId, after('And how long does that take?', 'Do you ship to Canada?'))).toBe(false);
      expect(await store.usage.dismissUnanswered(owner, base.ragId, after('And how long does that take', 'Do you ship to Mexico?'))).toBe(true);
      expect(await store.usage.dismissUnanswered(owner, base.ragId, { question: 'And how long does that take?' })).toBe(true);
      expect((await store.usage.usage(owner, base.ragId, '2026-11-20', 10))?.unanswered.map((u) => u.askedAfter)).toEqual(['Can I return a kettle?']);
      expect(await store.usage.dismissFeedback(owner, base.ragId, { question: 'How much is it?' })).toBe(false);
      expect(await store.usage.dismissFeedback(owner, base.ragId, after('how much is it', 'do you sell the arden tamper'))).toBe(true);
    });

    it('sums concurrent batches exactly, whatever order they touch the same rows in', async () => {
      const a = await kb(owner);
      const b = await kb(owner);
      const at = '2026-11-21T10:00:00.000Z';
      await Promise.all(
        Array.from({ length: 12 }, (_, i) => {
          const batch = [delta(a.ragId, '2026-11-21', ['Parking?'], at, 2), delta(b.ragId, '2026-11-21', ['Parking?'], at, 3)];
          return store.usage.recordUsage(i % 2 === 0 ? batch : batch.reverse());
        }),
      );
      expect((await store.usage.usage(owner, a.ragId, '2026-11-01', 10))?.days[0]?.queries).toBe(24);
      expect((await store.usage.usage(owner, b.ragId, '2026-11-01', 10))?.unanswered).toMatchObject([{ question: 'Parking?', count: 12 }]);
    });

    it("keeps visitors' feedback per day and per question, the latest wording and records winning, and lists the unhelpful with the records still held", async () => {
      const base = await kb(owner);
      const committed = await store.knowledge.commitSource(owner, base.ragId, newSource('warranty.md'), [candidate('Two years.'), candidate('Kettles only.')], 25);
      if (committed.kind !== 'committed') throw new Error(committed.kind);
      const [first, second] = (await store.knowledge.allRecords(base.ragId)).map((r) => r.recordId) as [string, string];
      const given = (day: string, at: string, helpful: number, unhelpful: number, feedback: UsageDelta['feedback']): UsageDelta => ({
        ragId: base.ragId,
        day,
        queries: 0,
        cacheHits: 0,
        unanswered: 0,
        unansweredQuestions: [],
        helpful,
        unhelpful,
        ...(feedback ? { feedback } : {}),
        at,
      });
      await store.usage.recordUsage([
        given('2026-11-20', '2026-11-20T10:00:00.000Z', 1, 2, [
          { question: 'How long is the warranty?', recordIds: [first], helpful: 1, unhelpful: 1 },
          { question: 'Do you sell oat milk?', recordIds: [], helpful: 0, unhelpful: 1 },
        ]),
        // The same question in the same batch, later: its wording and records win, the counts add up.
        given('2026-11-20', '2026-11-20T11:00:00.000Z', 0, 1, [{ question: 'how long is the WARRANTY', recordIds: [second, 'rec_gone', first], helpful: 0, unhelpful: 1 }]),
        given('2026-11-21', '2026-11-21T09:00:00.000Z', 4, 0, [{ question: 'Which cards?', recordIds: [first], helpful: 4, unhelpful: 0 }]),
      ]);
      // A late batch (older) from another instance counts, and moves neither the wording nor the records back.
      await store.usage.recordUsage([given('2026-11-20', '2026-11-20T08:00:00.000Z', 0, 1, [{ question: 'How long is the warranty', recordIds: [], helpful: 0, unhelpful: 1 }])]);

      const report = await store.usage.usage(owner, base.ragId, '2026-11-01', 10);
      expect(report?.days.map((d) => [d.day, d.helpful, d.unhelpful])).toEqual([
        ['2026-11-20', 1, 4],
        ['2026-11-21', 4, 0],
      ]);
      // Helpful-only questions are not listed; the most unhelpful first.
      expect(report?.feedback).toEqual([
        {
          question: 'how long is the WARRANTY',
          helpful: 1,
          unhelpful: 3,
          lastAt: '2026-11-20T11:00:00.000Z',
          records: [
            { recordId: second, title: null, sourceName: 'warranty.md' },
            { recordId: first, title: null, sourceName: 'warranty.md' },
          ],
        },
        { question: 'Do you sell oat milk?', helpful: 0, unhelpful: 1, lastAt: '2026-11-20T10:00:00.000Z', records: [] },
      ]);
      expect((await store.usage.usage(owner, base.ragId, '2026-11-01', 1))?.feedback).toHaveLength(1);

      // A record deleted since is left out; the owner dismisses a question, another account cannot.
      expect(await store.knowledge.deleteRecord(owner, base.ragId, second)).toBe(true);
      expect((await store.usage.usage(owner, base.ragId, '2026-11-01', 10))?.feedback[0]?.records.map((r) => r.recordId)).toEqual([first]);
      expect(await store.usage.dismissFeedback(other, base.ragId, { question: 'How long is the warranty?' })).toBe(false);
      expect(await store.usage.dismissFeedback(owner, base.ragId, { question: 'How long is the warranty?' })).toBe(true);
      expect(await store.usage.dismissFeedback(owner, base.ragId, { question: 'How long is the warranty?' })).toBe(false);
      expect((await store.usage.usage(owner, base.ragId, '2026-11-01', 10))?.feedback.map((f) => f.question)).toEqual(['Do you sell oat milk?']);
      // Its feedback goes with the knowledge base (the rows cascade; a missing cascade would refuse the delete).
      expect(await store.knowledge.deleteKnowledgeBase(owner, base.ragId)).toBe(true);
      expect(await store.usage.usage(owner, base.ragId, '2026-11-01', 10)).toBeUndefined();
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

    const limits = { perCode: 5, perRequester: 3 };
    const budget = (at: Date, maxCodes = 5) => ({ since: new Date(at.getTime() - 600_000).toISOString(), maxCodes });
    const codeFor = (email: string, at: Date) => (codeId: string) => ({
      codeId,
      email,
      codeHash: `h-${codeId}`,
      expiresAt: new Date(at.getTime() + 600_000).toISOString(),
      attempts: 0,
      createdAt: at.toISOString(),
    });

    it('keeps earlier codes live, counts guesses per code and per requester, and consumes once (using up the address)', async () => {
      const email = `${randomUUID()}@example.test`;
      const at = new Date();
      const code = codeFor(email, at);
      const c1 = id('code');
      const c2 = id('code');
      expect(await store.accounts.putSignInCode(code(c1), budget(at))).toBe(true);
      expect(await store.accounts.putSignInCode(code(c2), budget(at))).toBe(true);
      expect(await store.accounts.countSignInCodesSince(email, new Date(at.getTime() - 1000).toISOString())).toBe(2);
      // A new code does not kill the pending one: a guess is counted against both.
      const first = await store.accounts.reserveSignInGuess(email, 'ip-a', at.toISOString(), limits);
      expect(first.map((c) => c.codeId).sort()).toEqual([c1, c2].sort());
      expect(first.every((c) => c.attempts === 1)).toBe(true);
      // ip-a has 3 per code: after them, its guesses are not evaluated any more; ip-b still has its own.
      await store.accounts.reserveSignInGuess(email, 'ip-a', at.toISOString(), limits);
      await store.accounts.reserveSignInGuess(email, 'ip-a', at.toISOString(), limits);
      expect(await store.accounts.reserveSignInGuess(email, 'ip-a', at.toISOString(), limits)).toEqual([]);
      expect(await store.accounts.reserveSignInGuess(email, 'ip-b', at.toISOString(), limits)).toHaveLength(2);
      expect(await store.accounts.reserveSignInGuess(email, 'ip-c', at.toISOString(), limits)).toHaveLength(2);
      // Five in total per code: nobody's guess is evaluated now.
      expect(await store.accounts.reserveSignInGuess(email, 'ip-d', at.toISOString(), limits)).toEqual([]);

      const other = `${randomUUID()}@example.test`;
      const c3 = id('code');
      const c4 = id('code');
      await store.accounts.putSignInCode(codeFor(other, at)(c3), budget(at));
      await store.accounts.putSignInCode(codeFor(other, at)(c4), budget(at));
      const outcomes = await Promise.all([store.accounts.consumeSignInCode(c3), store.accounts.consumeSignInCode(c3)]);
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      // Signing in used up the address's other pending code too.
      expect(await store.accounts.consumeSignInCode(c4)).toBe(false);
      expect(await store.accounts.reserveSignInGuess(other, 'ip-a', at.toISOString(), limits)).toEqual([]);
      // Expired codes are not evaluated.
      const late = `${randomUUID()}@example.test`;
      await store.accounts.putSignInCode(codeFor(late, at)(id('code')), budget(at));
      expect(await store.accounts.reserveSignInGuess(late, 'ip-a', new Date(at.getTime() + 700_000).toISOString(), limits)).toEqual([]);
    });

    it('evaluates no more guesses than the limit when 100 arrive at once (one requester, then many)', async () => {
      const email = `${randomUUID()}@example.test`;
      const at = new Date();
      const codeId = id('code');
      await store.accounts.putSignInCode(codeFor(email, at)(codeId), budget(at));
      const sameIp = await Promise.all(Array.from({ length: 100 }, () => store.accounts.reserveSignInGuess(email, 'ip-1', at.toISOString(), limits)));
      expect(sameIp.filter((r) => r.length > 0)).toHaveLength(limits.perRequester);
      const manyIps = await Promise.all(
        Array.from({ length: 100 }, (_, i) => store.accounts.reserveSignInGuess(email, `ip-${i + 2}`, at.toISOString(), limits)),
      );
      expect(manyIps.filter((r) => r.length > 0)).toHaveLength(limits.perCode - limits.perRequester);
      const attempts = [...sameIp, ...manyIps].flat().map((c) => c.attempts);
      expect(attempts.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]); // each evaluation saw its own count
    });

    it('stores no more codes than the per-address budget when requested in parallel, and mails again once the window moves', async () => {
      const email = `${randomUUID()}@example.test`;
      const at = new Date();
      const stored = await Promise.all(Array.from({ length: 30 }, () => store.accounts.putSignInCode(codeFor(email, at)(id('code')), budget(at, 3))));
      expect(stored.filter(Boolean)).toHaveLength(3);
      expect(await store.accounts.countSignInCodesSince(email, budget(at).since)).toBe(3);
      const later = new Date(at.getTime() + 601_000);
      expect(await store.accounts.putSignInCode(codeFor(email, later)(id('code')), budget(later, 3))).toBe(true);
    });

    it('takes per-requester allowances exactly under concurrency, gives them back, and starts a new window afresh', async () => {
      const key = `start:${randomUUID()}`;
      const windowStart = '2026-11-21T10:00:00.000Z';
      const taken = await Promise.all(Array.from({ length: 50 }, () => store.accounts.takeSignInAllowance(key, windowStart, 7)));
      expect(taken.filter(Boolean)).toHaveLength(7);
      await store.accounts.returnSignInAllowance(key, windowStart);
      expect(await store.accounts.takeSignInAllowance(key, windowStart, 7)).toBe(true);
      expect(await store.accounts.takeSignInAllowance(key, windowStart, 7)).toBe(false);
      // A unit given back in an old window does not credit the new one.
      const next = '2026-11-21T10:10:00.000Z';
      expect(await store.accounts.takeSignInAllowance(key, next, 1)).toBe(true);
      await store.accounts.returnSignInAllowance(key, windowStart);
      expect(await store.accounts.takeSignInAllowance(key, next, 1)).toBe(false);
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
