/**
 * `GET /api/v1/knowledge-bases/{ragId}/usage`: queries per day, cache hits, unanswered questions with the words of each no record
 * uses, visitors' feedback; and the dismissal of an unanswered question or of a question's feedback.
 */
import { Type } from 'typebox';
import { askedQuestion } from '../../knowledge/query/same-question.js';
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
        summary: "Queries per day, cache hits, unanswered questions and visitors' feedback",
        params: RagIdParams,
        querystring: Type.Object({ days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, default: 30 })) }, { additionalProperties: false }),
        response: { 200: UsageReport, ...errorResponses(401, 404) },
      },
    },
    (request) => reports.report(accountOf(request), request.params.ragId, request.query.days ?? 30),
  );

  // A question comes off the report's list once the owner has dealt with it.
  const dismissals = [
    { list: 'unanswered', summary: 'Dismiss an unanswered question', dismiss: reports.dismiss.bind(reports) },
    { list: 'feedback', summary: "Dismiss the feedback on a question (the report's `feedback[].question`)", dismiss: reports.dismissFeedback.bind(reports) },
  ];
  for (const { list, summary, dismiss } of dismissals) {
    app.delete(
      `/api/v1/knowledge-bases/:ragId/usage/${list}`,
      {
        onRequest: app.requireAccount('kb:write'),
        schema: {
          tags,
          security,
          summary,
          params: RagIdParams,
          querystring: Type.Object(
            {
              question: Type.String({ minLength: 1, maxLength: 500 }),
              askedAfter: Type.Optional(
                Type.String({ minLength: 1, maxLength: 500, description: "The entry's `askedAfter`, when the report lists one: a follow-up is named with the questions it was asked after." }),
              ),
            },
            { additionalProperties: false },
          ),
          response: { 204: Type.Null(), ...errorResponses(401, 404) },
        },
      },
      async (request, reply) => {
        await dismiss(accountOf(request), request.params.ragId, askedQuestion(request.query.question, request.query.askedAfter));
        return reply.code(204).send(null);
      },
    );
  }
}
