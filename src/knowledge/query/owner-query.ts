/**
 * Queries by the knowledge base's owner, for the agent surfaces (MCP, A2A):
 * the caller is an authenticated account rather than the holder of an
 * `X-API-Key`, so there is no key and no domain whitelist to check — the
 * knowledge base must belong to the account instead. The per-knowledge-base
 * limits (`queryRules`) are the same as on `/api/v1/query`: an agent shares
 * the minute window and the daily quota with the website widget. Answering
 * and searching are QueryService's own.
 */
import type { KnowledgeService } from '../knowledge-service.js';
import { type AdmittedQuery, checkedQuery, type QueryService } from './query-service.js';

export class OwnerQueries {
  constructor(
    private readonly knowledge: Pick<KnowledgeService, 'get'>,
    readonly queries: QueryService,
  ) {}

  /** Checks the query text, ownership (404 for anything not the account's) and the limits, in that order. */
  async admit(ownerId: string, ragId: string, rawQuery: string): Promise<AdmittedQuery> {
    const query = checkedQuery(rawQuery, 'query');
    const kb = await this.knowledge.get(ownerId, ragId);
    const decision = await this.queries.consumeLimits(kb.ragId);
    return { kb, query, conversation: [], caller: { kind: 'server' }, limits: decision };
  }

  /** The finished answer (the events collected), or undefined when `signal` aborted it first. */
  async answer(admitted: AdmittedQuery, requestId: string, signal: AbortSignal) {
    for await (const event of this.queries.answer(admitted, requestId, signal)) {
      if (event.type === 'done') return { answer: event.answer, sources: event.sources, grounded: event.grounded, cached: event.cached };
    }
    return undefined;
  }
}
