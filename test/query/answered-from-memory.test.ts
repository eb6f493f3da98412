/**
 * A query whose every check is answered from memory (one instance: SQLite's row cache, the key
 * cache, the in-process limiter and answer cache) is admitted and answered without a promise
 * (src/maybe-promise.ts, docs/indexing.md "Session 39"); anything read from the store is a
 * promise, and a refusal is always a rejected promise, never a throw.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryRequest } from '../../src/knowledge/query/query-service.js';
import { isPromise } from '../../src/maybe-promise.js';
import { type InProcessShop, inProcessShop } from './in-process.js';

let shop: InProcessShop;
let composition: InProcessShop['composition'];
let ragId: string;
let secret: string;

beforeAll(async () => {
  shop = await inProcessShop('memory-path');
  ({ composition, ragId, secret } = shop);
});
afterAll(async () => {
  await shop?.close();
});

/**
 * Waits until no write transaction is open on the store (ingestion writes the index snapshot
 * after it answers): a read inside one waits for it, so is a promise; awaiting that read waits
 * for the write. A few writes at most are pending; the bound only ends the loop on a store that
 * never reads from memory.
 */
async function untilNoWriteOpen(): Promise<void> {
  for (let turn = 0; turn < 50; turn++) {
    const read = composition.store.knowledge.findKnowledgeBase(ragId);
    if (!isPromise(read)) return;
    await read;
  }
}

function request(overrides: Partial<QueryRequest> = {}): QueryRequest {
  return { apiKey: secret, ragId, query: 'How long does delivery take?', origin: 'https://shop.example', referer: undefined, ...overrides };
}

describe('a query answered from memory', () => {
  it('is admitted without a promise once the key has been read', async () => {
    const queries = composition.deps.queries;
    // The first use of a key reads it from the store: a promise.
    const first = queries.admit(request());
    expect(isPromise(first)).toBe(true);
    await first;
    await untilNoWriteOpen();
    const again = queries.admit(request());
    expect(isPromise(again)).toBe(false);
    expect(again).toMatchObject({ kb: { ragId }, query: 'How long does delivery take?', limits: { allowed: true } });
  });

  it('finds its cached answer without a promise', async () => {
    const queries = composition.deps.queries;
    const admitted = await queries.admit(request());
    await untilNoWriteOpen();
    const miss = queries.cachedAnswer(admitted);
    expect(isPromise(miss)).toBe(false);
    expect(miss).toMatchObject({ type: 'miss' });
    if (isPromise(miss) || miss.type !== 'miss') throw new Error('expected a miss');
    const answered = await queries.answerWhole(admitted, miss, 'req_1', () => new AbortController().signal);
    const hit = queries.cachedAnswer(admitted);
    expect(isPromise(hit)).toBe(false);
    expect(hit).toEqual({ ...answered, cached: true });
  });

  it('refuses with a rejected promise, never a throw', async () => {
    const queries = composition.deps.queries;
    await queries.admit(request());
    const refusals = [
      request({ apiKey: 'not a key' }),
      request({ apiKey: undefined }),
      request({ origin: 'https://elsewhere.example' }),
      request({ query: '   ' }),
      request({ ragId: 'kb_missing' }),
    ];
    for (const refused of refusals) {
      let admitted: unknown;
      expect(() => (admitted = queries.admit(refused))).not.toThrow();
      expect(isPromise(admitted as Promise<unknown>)).toBe(true);
      await expect(admitted).rejects.toMatchObject({ code: expect.any(String) });
    }
  });
});
