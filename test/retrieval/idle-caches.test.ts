/**
 * An index left idle drops what its queries made (issue 14, memory per knowledge base): the
 * registry, on a later query to any knowledge base, has indexes no query used for `idleMs` release
 * their question memo and look-up lists; an index in use keeps them, and ranking is unchanged.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SqliteStore } from '../../src/adapters/storage/sqlite/dialect.js';
import { fingerprint } from '../../src/knowledge/fingerprint.js';
import type { KnowledgeBase } from '../../src/knowledge/model.js';
import { IndexRegistry } from '../../src/knowledge/query/index-registry.js';

let store: SqliteStore;
let owner: string;

beforeAll(async () => {
  store = new SqliteStore(':memory:');
  await store.migrate();
  owner = (await store.accounts.accountForEmail(`${randomUUID()}@example.test`, `acc_${randomUUID()}`)).accountId;
});
afterAll(async () => {
  vi.useRealTimers();
  await store.close();
});

async function knowledgeBase(texts: string[]): Promise<KnowledgeBase> {
  const created = await store.knowledge.createKnowledgeBase({ ragId: `kb_${randomUUID()}`, ownerId: owner, botName: 'Bot', description: null, greeting: null, theme: {} }, 1_000_000);
  if (created.kind !== 'created') throw new Error('not created');
  const candidates = texts.map((text) => ({ recordId: `rec_${randomUUID()}`, kind: 'passage' as const, title: null, text, fingerprint: fingerprint(`${randomUUID()} ${text}`) }));
  const result = await store.knowledge.commitSource(owner, created.knowledgeBase.ragId, { sourceId: `src_${randomUUID()}`, sourceName: 'faq.txt', format: 'txt', byteSize: 1, sha256: 'a'.repeat(64), rejectedCount: 0 }, candidates, 1_000_000);
  if (result.kind !== 'committed') throw new Error(result.kind);
  return result.knowledgeBase;
}

describe('idle indexes', () => {
  it('drop their query caches once idle for idleMs, noticed on a later query; one in use keeps them', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const registry = new IndexRegistry(store.knowledge, { idleMs: 60_000, snapshots: false });
    try {
      const texts = ['Refunds are paid within 14 days of the return.', 'Delivery takes 2 to 4 working days in the EU.', 'We accept card payments and invoices.'];
      const idle = await knowledgeBase(texts);
      const busy = await knowledgeBase(texts);
      const questions = ['how long is delivery', 'when is my refund paid', 'can I pay by card', 'refnd delivry'];
      const ranked = await Promise.all(questions.map(async (q) => (await registry.search(idle, q, 3)).hits.map((h) => [h.text, h.score])));
      await registry.search(busy, 'delivery', 3);
      const held = (await registry.get(idle)).index.approximateBytes();
      vi.setSystemTime(Date.now() + 40_000);
      await registry.search(busy, 'refund', 3);
      expect((await registry.get(idle)).index.approximateBytes()).toBe(held);
      vi.setSystemTime(Date.now() + 30_000);
      await registry.search(busy, 'invoice', 3);
      // idle: 70 s without a query, its question memo gone; busy: used 30 s ago, kept.
      expect((await registry.get(idle)).index.approximateBytes()).toBeLessThan(held);
      expect((await registry.get(busy)).index.approximateBytes()).toBeGreaterThan((await registry.get(idle)).index.approximateBytes());
      // The same answers as before.
      expect(await Promise.all(questions.map(async (q) => (await registry.search(idle, q, 3)).hits.map((h) => [h.text, h.score])))).toEqual(ranked);
    } finally {
      await registry.close();
      vi.useRealTimers();
    }
  });
});
