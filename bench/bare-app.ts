/**
 * The baseline application: a bare Fastify 5 app with one POST JSON route at
 * the query endpoint's path. It validates the same body shape and serialises,
 * through a response schema, a fixed answer of the same shape and size as
 * Groundwork's, so the difference to Groundwork is the application's own
 * work. Served by bench/server-bare.ts and injected by bench/breakdown.ts.
 */
import Fastify, { type FastifyInstance } from 'fastify';

export interface BareAnswer {
  answer: string;
  sources: { sourceName: string; recordId: string; passage: string; score: number }[];
  grounded: boolean;
  cached: boolean;
  requestId: string;
}

export const fallbackAnswer: BareAnswer = {
  answer: 'Orders placed before 14:00 on a working day leave our warehouse the same day. Standard delivery takes 2 to 4 working days within the EU [1].',
  sources: [{ sourceName: 'faq.json', recordId: 'rec_0000000000000000000000', passage: 'How long does delivery take?', score: 4.2 }],
  grounded: true,
  cached: true,
  requestId: 'req-1',
};

export function buildBareApp(answer: BareAnswer = fallbackAnswer): FastifyInstance {
  const app = Fastify({ logger: false });
  app.post(
    '/api/v1/query',
    {
      schema: {
        body: {
          type: 'object',
          required: ['ragId', 'query'],
          additionalProperties: false,
          properties: { ragId: { type: 'string', minLength: 1, maxLength: 64 }, query: { type: 'string', maxLength: 20_000 } },
        },
        response: {
          200: {
            type: 'object',
            properties: {
              answer: { type: 'string' },
              sources: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: { sourceName: { type: 'string' }, recordId: { type: 'string' }, passage: { type: 'string' }, score: { type: 'number' } },
                },
              },
              grounded: { type: 'boolean' },
              cached: { type: 'boolean' },
              requestId: { type: 'string' },
            },
          },
        },
      },
    },
    async (request) => ({ ...answer, requestId: request.id }),
  );
  return app;
}
