/**
 * In-process rate limiter for a single instance (REDIS_URL unset). Decisions are
 * synchronous inside `consume`, so they are atomic across rules and exact under
 * any concurrency on one event loop.
 *
 * Memory stays bounded without a timer: every entry carries the time after
 * which it is empty, and a sweep driven by the `now` given to `consume` drops
 * such entries once per `sweepEveryMs` (once a second while the map holds more
 * than `sweepAboveKeys`, e.g. a flood of distinct IPs). An idle limiter holds
 * what it held; nothing grows.
 */
import { DAY_KEY_MARGIN_MS, decide, enforcedRules, nextUtcMidnight, type Observation, pivotIndex, utcDayKey } from './arithmetic.js';
import type { LimitDecision, LimitRule, RateLimiter } from './port.js';

interface Entry {
  /** Sliding: ascending unit times. */
  hits: number[];
  /** utc-day: units taken today. */
  count: number;
  /** Empty from this time on (last hit + window, or end of day + margin). */
  expiresAt: number;
}

export interface MemoryRateLimiterOptions {
  sweepEveryMs?: number;
  sweepAboveKeys?: number;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly entries = new Map<string, Entry>();
  private readonly sweepEveryMs: number;
  private readonly sweepAboveKeys: number;
  private lastSweep = Number.NaN;

  constructor(options: MemoryRateLimiterOptions = {}) {
    this.sweepEveryMs = options.sweepEveryMs ?? 60_000;
    this.sweepAboveKeys = options.sweepAboveKeys ?? 50_000;
  }

  /** Number of live partitions held (for tests and metrics). */
  get size(): number {
    return this.entries.size;
  }

  async consume(rules: readonly LimitRule[], now: number = Date.now()): Promise<LimitDecision> {
    const active = enforcedRules(rules);
    this.maybeSweep(now);
    const keys = active.map((rule) => storageKey(rule, now));
    const counts = active.map((rule, i) => this.count(rule, keys[i] as string, now));
    const allowed = active.every((rule, i) => (counts[i] as number) < rule.limit);
    const seen: Observation[] = active.map((rule, i) => {
      const key = keys[i] as string;
      const entry = allowed ? this.take(rule, key, now) : this.entries.get(key);
      if (!entry) return { count: 0 };
      if (rule.kind === 'utc-day') return { count: entry.count };
      return { count: entry.hits.length, pivot: entry.hits[pivotIndex(entry.hits.length, rule.limit)] };
    });
    return decide(active, seen, allowed, now);
  }

  async close(): Promise<void> {
    this.entries.clear();
  }

  /** Units currently held for the rule, after pruning what left the window. */
  private count(rule: LimitRule, key: string, now: number): number {
    const entry = this.entries.get(key);
    if (!entry) return 0;
    if (rule.kind === 'utc-day') return entry.count;
    const cutoff = now - rule.windowMs;
    let drop = 0;
    while (drop < entry.hits.length && (entry.hits[drop] as number) <= cutoff) drop++;
    if (drop > 0) entry.hits.splice(0, drop);
    if (entry.hits.length === 0) this.entries.delete(key);
    return entry.hits.length;
  }

  private take(rule: LimitRule, key: string, now: number): Entry {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { hits: [], count: 0, expiresAt: now };
      this.entries.set(key, entry);
    }
    if (rule.kind === 'utc-day') {
      entry.count++;
      entry.expiresAt = nextUtcMidnight(now) + DAY_KEY_MARGIN_MS;
      return entry;
    }
    // Keep the log ascending even if a caller's clock steps back.
    let at = entry.hits.length;
    while (at > 0 && (entry.hits[at - 1] as number) > now) at--;
    entry.hits.splice(at, 0, now);
    entry.expiresAt = (entry.hits[entry.hits.length - 1] as number) + rule.windowMs;
    return entry;
  }

  private maybeSweep(now: number): void {
    // NaN (never swept) compares false, so the first call sweeps.
    const elapsed = Math.abs(now - this.lastSweep);
    const crowded = this.entries.size > this.sweepAboveKeys && !(elapsed < 1000);
    if (elapsed < this.sweepEveryMs && !crowded) return;
    this.lastSweep = now;
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}

function storageKey(rule: LimitRule, now: number): string {
  const base = `${rule.name}:${rule.key}`;
  return rule.kind === 'utc-day' ? `${base}:${utcDayKey(now)}` : base;
}
