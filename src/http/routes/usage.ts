/** `GET /api/v1/knowledge-bases/{ragId}/usage`: queries per day, cache hits, unanswered questions with the words of each no record uses. */
import { Type } from 'typebox';
import type { UsageReports } from '../../knowledge/query/usage-reports.js';
import { accountOf } from '../plugins/auth.js';
import { accountSecurity as security, errorResponses, RagIdParams, UsageReport } from '../schemas.js';
import type { App } from '../types.js';

const tags = ['Usage'];

export function usageRoutes(app: App, reports: UsageReports): void {
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
    (request) => reports.report(accountOf(request), request.params.ragId, request.query.days ?? 30),
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
      await reports.dismiss(accountOf(request), request.params.ragId, request.query.question);
      return reply.code(204).send(null);
    },
  );
}
