/**
 * The admission script against a real Redis (REDIS_URL), under unique prefixes deleted afterwards:
 * a copy is confirmed, limited and served its cached answer in one call; a stale copy takes nothing;
 * a change makes every copy stale; a change Redis did not take is retried; checks made together
 * share a script call; an answer read once is kept until its Redis entry expires.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RedisAdmission } from '../../src/adapters/cache/redis-admission.js';
import { RedisAnswerCache } from '../../src/adapters/cache/redis.js';
import type { AdmissionResult } from '../../src/ports/admission.js';
import { clientRules as clientLimitRules, queryRules } from '../../src/limits/rules.js';
import { describeIf, redis } from '../support/requirements.js';

const url = process.env.REDIS_URL ?? '';
const base = `gw:test:${randomUUID()}:`;
const prefixes = { limitPrefix: `${base}rl:`, cachePrefix: `${base}cache:`, stampPrefix: `${base}kbv:` };
const rules = queryRules({ queryRatePerMinute: 3, queryQuotaPerDay: 0 }, 'kb_1');
const now = Date.UTC(2026, 0, 5, 12);

function stampOf(result: AdmissionResult): string {
  if (result.kind !== 'stale') throw new Error(`expected stale, got ${result.kind}`);
  return result.stamp;
}

describeIf(redis, 'Redis admission', () => {
  let client: Redis;

  beforeAll(() => {
    client = new Redis(url);
  });
  afterAll(async () => {
    const keys = await client.keys(`${base}*`);
    if (keys.length > 0) await client.del(...keys);
    await client.quit();
  });

  it('confirms a current copy, takes the limits and reads the cached answer in one call', async () => {
    const admission = new RedisAdmission(client, prefixes);
    await new RedisAnswerCache(client, { keyPrefix: prefixes.cachePrefix }).set('answer-key', { answer: 'Bremen' }, 60_000);
    const stamp = stampOf(await admission.check({ ragId: 'kb_1', stamp: undefined, rules, now }));
    // A stale check took nothing: three queries still fit the minute.
    for (let i = 0; i < 3; i++) {
      const result = await admission.check({ ragId: 'kb_1', stamp, rules, cacheKey: 'answer-key', now: now + i });
      expect(result).toMatchObject({ kind: 'checked', decision: { allowed: true }, cached: { answer: 'Bremen' } });
    }
    const refused = await admission.check({ ragId: 'kb_1', stamp, rules, cacheKey: 'answer-key', now: now + 3 });
    expect(refused).toMatchObject({ kind: 'checked', decision: { allowed: false, refused: { name: 'minute' } }, cached: undefined });
    expect(await admission.check({ ragId: 'kb_1', stamp, rules: [], cacheKey: 'missing', now })).toMatchObject({ kind: 'checked', cached: undefined });
  });

  it("takes the client's rules first, whatever the copy, and nothing else when they refuse", async () => {
    const admission = new RedisAdmission(client, prefixes);
    const clientRules = clientLimitRules({ ipRatePerSecond: 2 }, { ip: '10.9.8.7', botKey: 'thumb' });
    const ragRules = queryRules({ queryRatePerMinute: 5, queryQuotaPerDay: 0 }, 'kb_4');
    // A stale copy: the client's units are taken (a request counts once), the knowledge base's are not.
    const stale = await admission.check({ ragId: 'kb_4', stamp: undefined, rules: ragRules, clientRules, now });
    expect(stale).toMatchObject({ kind: 'stale', client: { allowed: true, states: [{ name: 'ip', remaining: 1 }, { name: 'bot', remaining: 1 }] } });
    const stamp = stampOf(stale);
    const checked = await admission.check({ ragId: 'kb_4', stamp, rules: ragRules, clientRules, now: now + 1 });
    expect(checked).toMatchObject({ kind: 'checked', decision: { allowed: true, states: [{ name: 'minute', remaining: 4 }] }, client: { states: [{ remaining: 0 }, { remaining: 0 }] } });
    // Over the client's limit: refused by it, and the knowledge base's minute keeps its four.
    const refused = await admission.check({ ragId: 'kb_4', stamp, rules: ragRules, clientRules, now: now + 2 });
    expect(refused).toMatchObject({ kind: 'client_refused', client: { allowed: false, refused: { name: 'ip' } } });
    expect(await admission.check({ ragId: 'kb_4', stamp, rules: ragRules, now: now + 3 })).toMatchObject({ kind: 'checked', decision: { states: [{ name: 'minute', remaining: 3 }] } });
    expect(await admission.check({ ragId: 'kb_4', stamp, rules: ragRules, now: now + 4 })).not.toHaveProperty('client');
  });

  it('a change makes the copies of every instance stale, and a stale check takes nothing', async () => {
    const a = new RedisAdmission(client, prefixes);
    const b = new RedisAdmission(client, prefixes);
    const ragRules = queryRules({ queryRatePerMinute: 1, queryQuotaPerDay: 0 }, 'kb_2');
    const stamp = stampOf(await b.check({ ragId: 'kb_2', stamp: undefined, rules: [], now }));
    await a.changed('kb_2');
    const fresh = stampOf(await b.check({ ragId: 'kb_2', stamp, rules: ragRules, now }));
    expect(fresh).not.toBe(stamp);
    expect(await b.check({ ragId: 'kb_2', stamp: fresh, rules: ragRules, now })).toMatchObject({ kind: 'checked', decision: { allowed: true } });
  });

  it('checks made in the same turn share one script call, each decided as it would be alone', async () => {
    let calls = 0;
    const counted = new Proxy(client, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (property === 'groundworkAdmit') calls++;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const admission = new RedisAdmission(counted, prefixes);
    const ragRules = queryRules({ queryRatePerMinute: 3, queryQuotaPerDay: 0 }, 'kb_5');
    const stamp = stampOf(await admission.check({ ragId: 'kb_5', stamp: undefined, rules: [], now }));
    calls = 0;
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => admission.check({ ragId: 'kb_5', stamp, rules: ragRules, now: now + i })));
    expect(calls).toBe(1);
    expect(results.map((r) => (r.kind === 'checked' ? r.decision.states[0]?.remaining ?? -1 : r.kind))).toEqual([2, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(results.map((r) => r.kind === 'checked' && r.decision.allowed)).toEqual([true, true, true, false, false, false, false, false, false, false]);
    // A batch holds at most 64 checks: 100 at once leave as two scripts.
    calls = 0;
    const many = await Promise.all(Array.from({ length: 100 }, () => admission.check({ ragId: 'kb_5', stamp, rules: [], now })));
    expect(calls).toBe(2);
    expect(many.every((r) => r.kind === 'checked')).toBe(true);
  });

  it('keeps an answer it read until its Redis entry expires, and never hands it to a refused query', async () => {
    const admission = new RedisAdmission(client, prefixes);
    const cache = new RedisAnswerCache(client, { keyPrefix: prefixes.cachePrefix });
    await cache.set('kept', { answer: 'Hamburg' }, 60_000);
    const ragRules = queryRules({ queryRatePerMinute: 2, queryQuotaPerDay: 0 }, 'kb_6');
    const stamp = stampOf(await admission.check({ ragId: 'kb_6', stamp: undefined, rules: [], now }));
    expect(await admission.check({ ragId: 'kb_6', stamp, rules: ragRules, cacheKey: 'kept', now })).toMatchObject({ cached: { answer: 'Hamburg' } });
    // Gone from Redis, still kept here: the second check did not read it.
    await client.del(`${prefixes.cachePrefix}kept`);
    const second = await admission.check({ ragId: 'kb_6', stamp, rules: ragRules, cacheKey: 'kept', now: now + 1 });
    expect(second).toMatchObject({ kind: 'checked', decision: { allowed: true }, cached: { answer: 'Hamburg' } });
    expect(Object.isFrozen((second as { cached: object }).cached)).toBe(true);
    // Refused by the minute: no answer, kept or not.
    expect(await admission.check({ ragId: 'kb_6', stamp, rules: ragRules, cacheKey: 'kept', now: now + 2 })).toMatchObject({ decision: { allowed: false }, cached: undefined });
    // Past the instant the Redis entry expired, Redis is asked again (and no longer has it).
    expect(await admission.check({ ragId: 'kb_6', stamp, rules: [], cacheKey: 'kept', now: now + 60_001 })).toMatchObject({ kind: 'checked', cached: undefined });
    // Kept nothing: every check reads Redis.
    const unkept = new RedisAdmission(client, { ...prefixes, answerMemoChars: 0 });
    await cache.set('unkept', { answer: 'Kiel' }, 60_000);
    expect(await unkept.check({ ragId: 'kb_6', stamp, rules: [], cacheKey: 'unkept', now })).toMatchObject({ cached: { answer: 'Kiel' } });
    await client.del(`${prefixes.cachePrefix}unkept`);
    expect(await unkept.check({ ragId: 'kb_6', stamp, rules: [], cacheKey: 'unkept', now })).toMatchObject({ cached: undefined });
  });

  it('retries a change Redis did not take', async () => {
    let failing = true;
    const flaky = new Proxy(client, {
      get(target, property, receiver) {
        if (property === 'del' && failing) return async () => Promise.reject(new Error('down'));
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const errors: unknown[] = [];
    const admission = new RedisAdmission(flaky, { ...prefixes, retryMs: 10, onError: (err) => errors.push(err) });
    const stamp = stampOf(await admission.check({ ragId: 'kb_3', stamp: undefined, rules: [], now }));
    await admission.changed('kb_3');
    expect(errors.length).toBeGreaterThan(0);
    expect(await admission.check({ ragId: 'kb_3', stamp, rules: [], now })).toMatchObject({ kind: 'checked' });
    failing = false;
    await expect.poll(async () => (await admission.check({ ragId: 'kb_3', stamp, rules: [], now })).kind).toBe('stale');
    await admission.close();
  });
});
