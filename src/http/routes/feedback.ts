/**
 * `POST /api/v1/feedback`: a visitor's "Was this helpful?" on an answer (answer-feedback.ts),
 * authenticated by `X-API-Key` and the key's whitelist as a query is, counted as no query.
 * CORS as the query routes (its path is one of `queryPaths`).
 */
import { Type } from 'typebox';
import type { FeedbackService } from '../../knowledge/query/answer-feedback.js';
import { corsHeadersFor } from '../plugins/query-cors.js';
import { errorResponses, FeedbackBody } from '../schemas.js';
import type { App } from '../types.js';

export function feedbackRoutes(app: App, feedback: FeedbackService): void {
  app.post(
    '/api/v1/feedback',
    {
      schema: {
        tags: ['Query'],
        security: [{ apiKey: [] }],
        summary: 'Say whether an answer helped',
        description:
          "A visitor's feedback on an answer: the question as asked, `helpful`, and the answer's `sources[].recordId`. " +
          'The key and the caller\'s Origin/Referer are checked as for a query, but it counts as no query. ' +
          "The owner's usage report counts it per day and lists the questions whose answers were marked not helpful, with the records they cited. " +
          "A knowledge base takes at most its daily query quota of feedback a UTC day (then 429 `rate_limited`, limit `feedback_day`).",
        body: FeedbackBody,
        response: { 204: Type.Null({ description: 'Recorded (written with the usage, within seconds).' }), ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request, reply) => {
      const apiKey = request.headers['x-api-key'];
      await feedback.give({
        ...request.body,
        apiKey: typeof apiKey === 'string' ? apiKey : undefined,
        origin: request.headers.origin,
        referer: request.headers.referer,
      });
      return reply.code(204).headers(corsHeadersFor(request)).send(null);
    },
  );
}
