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
import type { LimitDecision, LimitRule, RateLimiter } from '../../ports/rate-limiter.js';

/** One partition as held in process, for pushing to the shared limiter after an outage. */
export interface HeldPartition {
  /** `<name>:<key>` (sliding) or `<name>:<key>:<YYYY-MM-DD>` (utc-day): the shared limiter's key without its prefix. */
  key: string;
  kind: LimitRule['kind'];
  /** Sliding: ascending unit times. */
  hits: number[];
  /** utc-day: units taken. */
  count: number;
  /** Empty from this time on. */
  expiresAt: number;
  /** Sliding window length. */
  windowMs: number;
}

interface Entry {
  /** Sliding: ascending unit times. */
  hits: number[];
  /** utc-day: units taken today. */
  count: number;
  /** Empty from this time on (last hit + window, or end of day + margin). */
  expiresAt: number;
  kind: LimitRule['kind'];
  windowMs: number;
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

  consume(rules: readonly LimitRule[], now: number = Date.now()): LimitDecision {
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

  /**
   * Raise the partitions of `rules` to at least the counts another limiter
   * decided (`decision.states`, same order as the enforced rules): the shadow
   * kept while Redis answers, so that if it fails, limiting in process starts
   * from what every instance had used, not from zero. Missing sliding units are
   * recorded at `now` — later than they were taken, so the in-process limit is
   * never looser than the shared one (it may be stricter for one window).
   */
  align(rules: readonly LimitRule[], decision: LimitDecision, now: number = Date.now()): void {
    const active = enforcedRules(rules);
    active.forEach((rule, i) => {
      const state = decision.states[i];
      if (!state || state.name !== rule.name) return;
      const shared = Math.min(rule.limit, state.limit - state.remaining);
      const key = storageKey(rule, now);
      const held = this.count(rule, key, now);
      if (held >= shared) return;
      const entry = this.take(rule, key, now);
      if (rule.kind === 'utc-day') entry.count = shared;
      else for (let n = held + 1; n < shared; n++) this.take(rule, key, now);
    });
  }

  /** Every live partition (after pruning), for pushing to the shared limiter. */
  held(now: number = Date.now()): HeldPartition[] {
    const out: HeldPartition[] = [];
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt <= now) continue;
      out.push({ key, kind: entry.kind, hits: [...entry.hits], count: entry.count, expiresAt: entry.expiresAt, windowMs: entry.windowMs });
    }
    return out;
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
      entry = { hits: [], count: 0, expiresAt: now, kind: rule.kind, windowMs: rule.windowMs };
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
