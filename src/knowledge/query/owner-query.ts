/**
 * Queries by the knowledge base's owner: the agent surfaces (MCP, A2A) and the dashboard's
 * Playground. The caller is an authenticated account rather than the holder of an `X-API-Key`, so
 * there is no key and no domain whitelist to check — the knowledge base must belong to the account
 * instead (404 otherwise). Answering, searching and the answer cache are QueryService's own, so an
 * owner gets exactly the answer a visitor would.
 *
 * The limits differ by surface (docs/playground.md):
 * - agents (`admit`): the per-knowledge-base limits (`queryRules`) of `/api/v1/query`: an agent
 *   shares the minute window and the daily quota with the website widget, and its questions are
 *   visitors' questions in the usage statistics;
 * - the Playground (`admitPlayground`): the account's own Playground limits (`playgroundRules`),
 *   which leave the visitors' quota alone, and nothing in the usage statistics.
 */
import { DomainError } from '../../errors.js';
import { playgroundRules } from '../../limits/rules.js';
import type { LimitDecision, RateLimiter } from '../../ports/rate-limiter.js';
import type { KnowledgeService } from '../knowledge-service.js';
import { checkedConversation } from './conversation.js';
import { type AdmittedQuery, checkedQuery, type DoneEvent, type QueryService } from './query-service.js';

/** The Playground's own limits: questions per account, 0 for none. */
export interface PlaygroundLimits {
  playgroundQueriesPerMinute: number;
  playgroundQueriesPerDay: number;
}

/** What the Playground needs besides the queries: the one rate limiter (Redis when configured) and its settings. */
export interface PlaygroundLimiting {
  limiter: RateLimiter;
  limits: PlaygroundLimits;
  clock?: () => number;
}

/** A Playground question as the route receives it: the body of `/api/v1/query` without `ragId` (it is in the path). */
export interface PlaygroundQuestion {
  query: string;
  conversation?: unknown;
}

/**
 * A finished answer as the agent surfaces give it (the MCP tool's result, the A2A data part): the
 * `done` event's fields that say something, without the Playground's `unknownWords`.
 */
export function agentAnswer(done: DoneEvent) {
  return {
    answer: done.answer,
    sources: done.sources,
    grounded: done.grounded,
    cached: done.cached,
    ...(done.smallTalk ? { smallTalk: true } : {}),
    ...(done.suggestions ? { suggestions: done.suggestions } : {}),
  };
}

export class OwnerQueries {
  constructor(
    private readonly knowledge: Pick<KnowledgeService, 'get'>,
    readonly queries: QueryService,
    private readonly playground?: PlaygroundLimiting,
  ) {}

  /** Checks the query text, ownership (404 for anything not the account's) and the limits, in that order. */
  async admit(ownerId: string, ragId: string, rawQuery: string): Promise<AdmittedQuery> {
    const query = checkedQuery(rawQuery, 'query');
    const kb = await this.knowledge.get(ownerId, ragId);
    const decision = await this.queries.consumeLimits(kb.ragId);
    return { kb, query, conversation: [], caller: { kind: 'server' }, limits: decision };
  }

  /**
   * A Playground question: the query and conversation checked as `/api/v1/query` checks them, the
   * knowledge base the account's (404 otherwise), then one question from the account's Playground
   * limits — never from the knowledge base's visitor quota. Not recorded in the usage statistics; a
   * refusal comes with the words of the question no record uses (`unknownWords`).
   */
  async admitPlayground(ownerId: string, ragId: string, question: PlaygroundQuestion): Promise<AdmittedQuery> {
    if (!this.playground) throw new Error('OwnerQueries was built without the Playground limits');
    const query = checkedQuery(question.query, '/body/query');
    const conversation = checkedConversation(question.conversation, '/body/conversation');
    const kb = await this.knowledge.get(ownerId, ragId);
    const limits = await this.consumePlaygroundLimits(ownerId, this.playground);
    return { kb, query, conversation, caller: { kind: 'server' }, limits, recordUsage: false, explainRefusal: true };
  }

  private async consumePlaygroundLimits(accountId: string, playground: PlaygroundLimiting): Promise<LimitDecision> {
    const decision = await playground.limiter.consume(playgroundRules(playground.limits, accountId), (playground.clock ?? Date.now)());
    if (decision.allowed) return decision;
    const refused = decision.refused;
    throw new DomainError(
      'rate_limited',
      refused?.name === 'playground_day'
        ? `Your account has asked its ${refused.limit} Playground questions for today (UTC). Try again after midnight UTC; visitors' questions are not affected.`
        : `The Playground allows ${refused?.limit ?? 0} questions per minute. Try again in ${Math.ceil(decision.retryAfterMs / 1000)} s.`,
      { limit: refused?.name, retryAfterMs: decision.retryAfterMs },
      { rateLimit: decision },
    );
  }

  /** The finished answer (the events collected), or undefined when `signal` aborted it first. */
  async answer(admitted: AdmittedQuery, requestId: string, signal: AbortSignal) {
    for await (const event of this.queries.answer(admitted, requestId, signal)) {
      if (event.type === 'done') return agentAnswer(event);
    }
    return undefined;
  }
}
