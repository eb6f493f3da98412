/** `GET /api/v1/knowledge-bases/{ragId}/usage`: queries per day, cache hits, unanswered questions with the words of each no record uses. */
import { Type } from 'typebox';
import type { UsageStore } from '../../ports/storage.js';
import { DomainError } from '../../errors.js';
import { accountOf } from '../plugins/auth.js';
import { accountSecurity as security, errorResponses, RagIdParams, UsageReport } from '../schemas.js';
import type { App } from '../types.js';

const tags = ['Usage'];

export interface UsageLimits {
  queryRatePerMinute: number;
  queryQuotaPerDay: number;
}

/** For each question, the words of it no record uses (QueryService.unknownWords). */
export type UnknownWords = (ragId: string, questions: readonly string[]) => Promise<string[][]>;

export function usageRoutes(app: App, usage: UsageStore, limits: UsageLimits, flush: () => Promise<void>, unknownWords: UnknownWords): void {
  app.get(
    '/api/v1/knowledge-bases/:ragId/usage',
    {
      onRequest: app.requireAccount('kb:read'),
      schema: {
        tags,
        security,
        summary: 'Queries per day, cache hits and unanswered questions',
        params: RagIdParams,
        querystring: Type.Object({ days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, default: 30 })) }, { additionalProperties: false }),
        response: { 200: UsageReport, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      // Counters are written in batches; a person looking at the page wants this instance's latest too.
      await flush();
      const since = new Date(Date.now() - ((request.query.days ?? 30) - 1) * 86_400_000).toISOString().slice(0, 10);
      const report = await usage.usage(accountOf(request), request.params.ragId, since, 50);
      if (!report) throw new DomainError('not_found', 'No such knowledge base in this account.');
      const totals = report.days.reduce(
        (sum, d) => ({ queries: sum.queries + d.queries, cacheHits: sum.cacheHits + d.cacheHits, unanswered: sum.unanswered + d.unanswered }),
        { queries: 0, cacheHits: 0, unanswered: 0 },
      );
      // A hint beside the report: should the index be unreadable now (PostgreSQL down), the report still comes, without it.
      const words = await unknownWords(request.params.ragId, report.unanswered.map((u) => u.question)).catch((error: unknown) => {
        request.log.warn({ err: error }, 'the words no record uses could not be found');
        return [] as string[][];
      });
      const unanswered = report.unanswered.map((u, i) => ({ ...u, unknownWords: words[i] ?? [] }));
      return { ...report, unanswered, totals, limits: { queriesPerMinute: limits.queryRatePerMinute, queriesPerDay: limits.queryQuotaPerDay } };
    },
  );

  app.delete(
    '/api/v1/knowledge-bases/:ragId/usage/unanswered',
    {
      onRequest: app.requireAccount('kb:write'),
      schema: {
        tags,
        security,
        summary: 'Dismiss an unanswered question',
        params: RagIdParams,
        querystring: Type.Object({ question: Type.String({ minLength: 1, maxLength: 500 }) }, { additionalProperties: false }),
        response: { 204: Type.Null(), ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      if (!(await usage.dismissUnanswered(accountOf(request), request.params.ragId, request.query.question))) {
        throw new DomainError('not_found', 'No such unanswered question.');
      }
      return reply.code(204).send(null);
    },
  );
}
