import { describe, expect, it } from 'vitest';
import { decide, nextUtcMidnight, utcDayKey } from '../../src/adapters/limits/arithmetic.js';
import { rateLimitHeaders } from '../../src/limits/headers.js';
import type { LimitDecision, LimitState } from '../../src/ports/rate-limiter.js';
import { combineDecisions, ipRule, queryRules } from '../../src/limits/rules.js';

const state = (name: LimitState['name'], limit: number, remaining: number, resetMs: number, windowSeconds: number): LimitState => ({
  name,
  limit,
  remaining,
  resetMs,
  windowSeconds,
});
const minute = (remaining: number, resetMs: number) => state('minute', 10, remaining, resetMs, 60);
const day = (remaining: number, resetMs: number) => state('day', 100, remaining, resetMs, 86_400);

// draft-ietf-httpapi-ratelimit-headers-11 §3 (RateLimit-Policy: q, w) and §4 (RateLimit: r, t); RFC 9110 §10.2.3 (Retry-After).
const table: [string, LimitDecision, Record<string, string>][] = [
  ['no enforced limit → no fields', { allowed: true, states: [], retryAfterMs: 0 }, {}],
  [
    'allowed, both query limits',
    { allowed: true, states: [minute(3, 20_000), day(97, 3_600_000)], retryAfterMs: 0 },
    { 'RateLimit-Policy': '"minute";q=10;w=60, "day";q=100;w=86400', RateLimit: '"minute";r=3;t=20, "day";r=97;t=3600' },
  ],
  [
    'seconds round up (t never promises too early)',
    { allowed: true, states: [minute(9, 59_001)], retryAfterMs: 0 },
    { 'RateLimit-Policy': '"minute";q=10;w=60', RateLimit: '"minute";r=9;t=60' },
  ],
  [
    'refused by the minute window',
    { allowed: false, refused: minute(0, 1_500), states: [minute(0, 1_500), day(90, 7_200_000)], retryAfterMs: 1_500 },
    { 'RateLimit-Policy': '"minute";q=10;w=60, "day";q=100;w=86400', RateLimit: '"minute";r=0;t=2, "day";r=90;t=7200', 'Retry-After': '2' },
  ],
  [
    'refused with under a second left → Retry-After 1',
    { allowed: false, refused: state('ip', 30, 0, 1, 1), states: [state('ip', 30, 0, 1, 1)], retryAfterMs: 1 },
    { 'RateLimit-Policy': '"ip";q=30;w=1', RateLimit: '"ip";r=0;t=1', 'Retry-After': '1' },
  ],
  [
    'refused by the day quota',
    { allowed: false, refused: day(0, 86_399_999), states: [day(0, 86_399_999)], retryAfterMs: 86_399_999 },
    { 'RateLimit-Policy': '"day";q=100;w=86400', RateLimit: '"day";r=0;t=86400', 'Retry-After': '86400' },
  ],
];

describe('rateLimitHeaders', () => {
  it.each(table)('%s', (_, decision, expected) => {
    expect(rateLimitHeaders(decision)).toEqual(expected);
  });

  it('matches the draft grammar: a List of String items with Integer parameters', () => {
    const item = /^"[a-z]+"(;[a-z]+=\d+)+$/;
    const headers = rateLimitHeaders(table[3]?.[1] as LimitDecision);
    for (const field of ['RateLimit-Policy', 'RateLimit']) for (const member of (headers[field] ?? '').split(', ')) expect(member).toMatch(item);
  });
});

describe('rules and UTC arithmetic', () => {
  it('builds the product rules from settings', () => {
    const settings = { queryRatePerMinute: 10, queryQuotaPerDay: 100, ipRatePerSecond: 30 };
    expect(queryRules(settings, 'kb_1')).toEqual([
      { name: 'minute', key: 'kb_1', limit: 10, kind: 'sliding', windowMs: 60_000 },
      { name: 'day', key: 'kb_1', limit: 100, kind: 'utc-day', windowMs: 0 },
    ]);
    expect(ipRule(settings, '2001:db8::1')).toEqual({ name: 'ip', key: '2001:db8::1', limit: 30, kind: 'sliding', windowMs: 1_000 });
  });

  it('combines the ip decision with the query decision', () => {
    const ip = decide([ipRule({ ipRatePerSecond: 30 }, 'a')], [{ count: 1, pivot: 0 }], true, 0);
    const query = decide(queryRules({ queryRatePerMinute: 10, queryQuotaPerDay: 100 }, 'kb'), [{ count: 10 }, { count: 5 }], false, 0);
    const both = combineDecisions(ip, query);
    expect(both).toMatchObject({ allowed: false, refused: { name: 'minute' }, retryAfterMs: query.retryAfterMs });
    expect(both.states.map((s) => s.name)).toEqual(['ip', 'minute', 'day']);
    expect(combineDecisions(ip)).toEqual(ip);
  });

  it('finds UTC days and midnights', () => {
    expect(utcDayKey(Date.UTC(2031, 11, 31, 23, 59, 59, 999))).toBe('2031-12-31');
    expect(utcDayKey(Date.UTC(2032, 0, 1))).toBe('2032-01-01');
    expect(nextUtcMidnight(Date.UTC(2031, 11, 31, 23, 59, 59, 999))).toBe(Date.UTC(2032, 0, 1));
    expect(nextUtcMidnight(Date.UTC(2032, 0, 1))).toBe(Date.UTC(2032, 0, 2));
    expect(nextUtcMidnight(Date.UTC(2032, 1, 29, 6))).toBe(Date.UTC(2032, 2, 1)); // leap day
  });

  it('names the right day whatever day it named before (the last one is remembered)', () => {
    const times = [Date.UTC(2031, 11, 31, 12), Date.UTC(2032, 0, 1), Date.UTC(2031, 11, 31, 23, 59), Date.UTC(1969, 11, 31, 23), 0, -1, Date.UTC(2032, 0, 1, 23, 59, 59, 999)];
    for (const t of [...times, ...times.reverse()]) expect(utcDayKey(t), String(t)).toBe(new Date(t).toISOString().slice(0, 10));
    expect(() => utcDayKey(Number.NaN)).toThrow(RangeError);
    expect(() => utcDayKey(8.64e15 + 1)).toThrow(RangeError);
    expect(utcDayKey(Date.UTC(2032, 0, 1, 5))).toBe('2032-01-01');
  });
});
