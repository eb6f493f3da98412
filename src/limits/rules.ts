/**
 * The product's rules built from configuration (product.md §2), so the HTTP
 * layer does not repeat window lengths. A limit of 0 yields a rule that
 * `consume` ignores.
 */
import type { LimitDecision, LimitRule, LimitState } from '../ports/rate-limiter.js';

export interface LimitSettings {
  queryRatePerMinute: number;
  queryQuotaPerDay: number;
  ipRatePerSecond: number;
}

/** Whole-service limit per client IP address. */
export function ipRule(settings: Pick<LimitSettings, 'ipRatePerSecond'>, clientKey: string): LimitRule {
  return { name: 'ip', key: clientKey, limit: settings.ipRatePerSecond, kind: 'sliding', windowMs: 1_000 };
}

/**
 * The whole-service rules for one request: its IP's bucket always, and for a
 * verified Web Bot Auth bot also the bot key's bucket (issue 11 item 8). In
 * addition, not instead: signing with many self-published keys from one
 * address gives no more than the address's own allowance, and one key used
 * from many addresses is bounded by the key's. Both are taken atomically.
 */
export function clientRules(settings: Pick<LimitSettings, 'ipRatePerSecond'>, client: { ip: string; botKey?: string | undefined }): LimitRule[] {
  const rules = [ipRule(settings, `ip:${client.ip}`)];
  if (client.botKey) rules.push({ name: 'bot', key: `bot:${client.botKey}`, limit: settings.ipRatePerSecond, kind: 'sliding', windowMs: 1_000 });
  return rules;
}

/** Per-knowledge-base query limits: 60 s sliding window, then the UTC-day quota. */
export function queryRules(settings: Pick<LimitSettings, 'queryRatePerMinute' | 'queryQuotaPerDay'>, ragId: string): LimitRule[] {
  return [
    { name: 'minute', key: ragId, limit: settings.queryRatePerMinute, kind: 'sliding', windowMs: 60_000 },
    { name: 'day', key: ragId, limit: settings.queryQuotaPerDay, kind: 'utc-day', windowMs: 0 },
  ];
}

/**
 * Visitors' feedback on answers per knowledge base and UTC day: feedback follows an answer, so a day
 * holds no more of it than the day's query quota allows questions. Without it feedback, which takes
 * no query limit, would be bounded by the per-address limit alone (docs/decisions.md, "Feedback on answers").
 */
export function feedbackRules(settings: Pick<LimitSettings, 'queryQuotaPerDay'>, ragId: string): LimitRule[] {
  return [{ name: 'feedback_day', key: ragId, limit: settings.queryQuotaPerDay, kind: 'utc-day', windowMs: 0 }];
}

/**
 * The owner's Playground questions, per account (not per knowledge base): a 60 s sliding window and
 * a UTC-day cap of their own, so trying the bot in the dashboard never spends the visitors' quota
 * (docs/playground.md).
 */
/** Imports from a URL an account may start per hour (IMPORTS_PER_HOUR; docs/ingestion.md §15). */
export function importRules(settings: { perHour: number }, accountId: string): LimitRule[] {
  return [{ name: 'import_hour', key: accountId, limit: settings.perHour, kind: 'sliding', windowMs: 3_600_000 }];
}

export function playgroundRules(settings: { playgroundQueriesPerMinute: number; playgroundQueriesPerDay: number }, accountId: string): LimitRule[] {
  return [
    { name: 'playground_minute', key: accountId, limit: settings.playgroundQueriesPerMinute, kind: 'sliding', windowMs: 60_000 },
    { name: 'playground_day', key: accountId, limit: settings.playgroundQueriesPerDay, kind: 'utc-day', windowMs: 0 },
  ];
}

/**
 * One decision from several `consume` calls made for the same request (e.g. the
 * ip limit in an onRequest hook, the query limits in the handler), so one set of
 * headers describes them all. The first refusal wins.
 */
export function combineDecisions(...decisions: LimitDecision[]): LimitDecision {
  // One loop (every limited query passes here): the first refusal, and every state in order.
  let refusedBy: LimitDecision | undefined;
  const states: LimitState[] = [];
  for (const d of decisions) {
    if (refusedBy === undefined && !d.allowed) refusedBy = d;
    for (const state of d.states) states.push(state);
  }
  return {
    allowed: refusedBy === undefined,
    refused: refusedBy?.refused,
    states,
    retryAfterMs: refusedBy?.retryAfterMs ?? 0,
  };
}
