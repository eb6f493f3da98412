/**
 * A query's admission with Redis (issue 14, knowledge-base copies confirmed by one round trip): a
 * current copy is admitted without reading the store; a stale one is read again under the stamp
 * the check returned; a copy that a change keeps making stale is given up after three turns, and
 * the query is admitted from the store as without copies, its limits taken once. Real Redis (the
 * shared REDIS_URL; every key is the test's own knowledge base's), in process (compose()).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { KnowledgeBase } from '../../src/knowledge/model.js';
import type { QueryRequest } from '../../src/knowledge/query/query-service.js';
import type { MaybePromise } from '../../src/maybe-promise.js';
import { describeIf, redis } from '../support/requirements.js';
import { type InProcessShop, inProcessShop } from './in-process.js';

describeIf(redis, 'admission turns with Redis', () => {
  let shop: InProcessShop;
  let composition: InProcessShop['composition'];
  let direct: Redis;
  let ragId: string;
  let secret: string;
  /** The store's own read, and how often the query path read through it. */
  let read: (ragId: string) => MaybePromise<KnowledgeBase | undefined>;
  let reads = 0;
  /** Run before each read: a change racing the query. */
  let beforeRead: () => Promise<unknown> = async () => undefined;

  const request = (query: string): QueryRequest => ({ apiKey: secret, ragId, query, origin: undefined, referer: undefined });
  const minuteEntries = () => direct.zcard(`gw:rl:minute:${ragId}`);
  const stampKey = () => `gw:kbv:${ragId}`;

  beforeAll(async () => {
    shop = await inProcessShop('admission-turns', { REDIS_URL: process.env.REDIS_URL });
    ({ composition, ragId, secret } = shop);
    direct = new Redis(process.env.REDIS_URL as string);
    const { store } = composition;
    const knowledge = store.knowledge;
    read = knowledge.findKnowledgeBase.bind(knowledge);
    // The query service reads through a proxy of this store, which looks the method up on every call.
    knowledge.findKnowledgeBase = async (id: string) => {
      await beforeRead();
      reads++;
      return read(id);
    };
  });
  afterAll(async () => {
    await direct?.del(stampKey(), `gw:rl:minute:${ragId}`);
    direct?.disconnect();
    await shop?.close();
  });

  it('admits a query on a current copy without reading the store, and reads it once when the copy went stale', async () => {
    const { queries } = composition.deps;
    await queries.admit(request('How long does delivery take?'));
    reads = 0;
    await queries.admit(request('How long does delivery take?'));
    expect(reads).toBe(0);
    // A change elsewhere: the stamp is gone, so the copy is stale; one read, under the new stamp.
    await direct.del(stampKey());
    const before = await minuteEntries();
    const admitted = await queries.admit(request('When will it arrive?'));
    expect(admitted.kb.ragId).toBe(ragId);
    expect(reads).toBe(1);
    expect(await minuteEntries()).toBe(before + 1);
    reads = 0;
    await queries.admit(request('When will it arrive?'));
    expect(reads).toBe(0);
  });

  it('gives the copy up after three stale turns and admits from the store, counting the query once', async () => {
    const { queries } = composition.deps;
    await queries.admit(request('How long does delivery take?'));
    // Every read of the row races a change: each check then finds a stamp newer than the copy's.
    beforeRead = () => direct.del(stampKey());
    try {
      await direct.del(stampKey());
      reads = 0;
      const before = await minuteEntries();
      const admitted = await queries.admit(request('How long does delivery take, roughly?'));
      expect(admitted.kb.ragId).toBe(ragId);
      // Three turns, each followed by a read of the row, then the store's admission reads it once more.
      expect(reads).toBe(4);
      expect(await minuteEntries()).toBe(before + 1);
    } finally {
      beforeRead = async () => undefined;
    }
  });

  it('refuses a wrong key only once the copy it was judged on is confirmed', async () => {
    const { queries } = composition.deps;
    await queries.admit(request('How long does delivery take?'));
    await direct.del(stampKey());
    reads = 0;
    const before = await minuteEntries();
    await expect(queries.admit({ ...request('How long does delivery take?'), apiKey: `${secret.slice(0, -4)}AAAA` })).rejects.toMatchObject({ code: 'unauthorized' });
    // The stale copy was read again before the refusal; nothing was taken from the limits.
    expect(reads).toBe(1);
    expect(await minuteEntries()).toBe(before);
  });
});
