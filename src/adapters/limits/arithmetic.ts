/**
 * Pure arithmetic shared by both limiters, so that they report identical
 * numbers for identical histories. A backend only has to say, per rule, how
 * many units the window holds after the decision and (sliding only) the
 * timestamp of the "pivot" entry whose expiry frees the next slot.
 *
 * Sliding log semantics: a unit taken at t occupies the window during
 * [t, t + windowMs); at now = t + windowMs it has left (entries with
 * t <= now - windowMs are pruned). Exact, at O(limit) memory per key, which is
 * fine for the small limits here (research guide B2).
 */
import type { LimitDecision, LimitRule, LimitState } from '../../ports/rate-limiter.js';

export const DAY_MS = 86_400_000;

/**
 * A day counter outlives its day by this margin. The key names the UTC date, so
 * the margin never extends a quota; it only keeps a lagging instance (clock
 * skew) from recreating yesterday's counter at zero just after midnight.
 */
export const DAY_KEY_MARGIN_MS = 3_600_000;

/** The day `utcDayKey` last named, and its key: every day-quota decision asks, mostly for the same day. */
let lastDay = Number.NaN;
let lastDayKey = '';

/** `YYYY-MM-DD` of the UTC day holding `now`. */
export function utcDayKey(now: number): string {
  const day = Math.floor(now / DAY_MS);
  if (day !== lastDay) {
    // A time outside Date's range throws here, as before, and is not remembered.
    lastDayKey = new Date(now).toISOString().slice(0, 10);
    lastDay = day;
  }
  return lastDayKey;
}

/** The next 00:00:00.000 UTC strictly after `now`. JavaScript time has no leap seconds, so UTC days are exactly DAY_MS long. */
export function nextUtcMidnight(now: number): number {
  return (Math.floor(now / DAY_MS) + 1) * DAY_MS;
}

/** The rules to enforce: disabled ones (limit ≤ 0) dropped, the rest checked. */
export function enforcedRules(rules: readonly LimitRule[]): LimitRule[] {
  const seen = new Set<string>();
  const out: LimitRule[] = [];
  for (const rule of rules) {
    if (!(rule.limit > 0)) continue;
    if (!Number.isSafeInteger(rule.limit)) throw new RangeError(`limit ${rule.name}: limit must be an integer`);
    if (rule.kind === 'sliding' && !(Number.isSafeInteger(rule.windowMs) && rule.windowMs > 0)) {
      throw new RangeError(`limit ${rule.name}: windowMs must be a positive integer`);
    }
    const id = `${rule.name}\u0000${rule.key}`;
    // The same partition twice in one call would be counted once but charged twice.
    if (seen.has(id)) throw new RangeError(`limit ${rule.name}: key given twice in one call`);
    seen.add(id);
    out.push(rule);
  }
  return out;
}

/** What a backend observed for one rule. */
export interface Observation {
  /** Units in the window (or day) after the decision. */
  count: number;
  /** Sliding only: time of the entry at index max(0, count − limit) in ascending order; undefined when empty. */
  pivot?: number | undefined;
}

/** Index of the pivot in the ascending log: the entry whose expiry brings the count below the limit. */
export function pivotIndex(count: number, limit: number): number {
  return Math.max(0, count - limit);
}

export function limitState(rule: LimitRule, seen: Observation, now: number): LimitState {
  const remaining = Math.max(0, rule.limit - seen.count);
  if (rule.kind === 'utc-day') {
    return { name: rule.name, limit: rule.limit, remaining, resetMs: nextUtcMidnight(now) - now, windowSeconds: DAY_MS / 1000 };
  }
  const resetMs = seen.pivot === undefined ? rule.windowMs : Math.max(1, seen.pivot + rule.windowMs - now);
  return { name: rule.name, limit: rule.limit, remaining, resetMs, windowSeconds: Math.ceil(rule.windowMs / 1000) };
}

/** Assemble the decision from per-rule observations (same order as `rules`). */
export function decide(rules: readonly LimitRule[], seen: readonly Observation[], allowed: boolean, now: number): LimitDecision {
  const states = rules.map((rule, i) => limitState(rule, seen[i] ?? { count: 0 }, now));
  if (allowed) return { allowed, states, retryAfterMs: 0 };
  let refused: LimitState | undefined;
  rules.forEach((rule, i) => {
    const state = states[i];
    if (state && (seen[i]?.count ?? 0) >= rule.limit && (!refused || state.resetMs > refused.resetMs)) refused = state;
  });
  return { allowed, refused, states, retryAfterMs: refused?.resetMs ?? 0 };
}
