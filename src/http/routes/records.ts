/** `/api/v1/knowledge-bases/{ragId}/records[/{recordId}]`: list (paged) and delete one. */
import { Type } from 'typebox';
import type { KnowledgeService } from '../../knowledge/knowledge-service.js';
import { accountOf } from '../plugins/auth.js';
import { accountSecurity, defaultPageSize, errorResponses, KnowledgeRecord, pageOf, RagIdParams, RecordParams, RecordsQuery } from '../schemas.js';
import type { App } from '../types.js';

const tags = ['Records'];
const security = accountSecurity;

export function recordRoutes(app: App, knowledge: KnowledgeService): void {
  app.get(
    '/api/v1/knowledge-bases/:ragId/records',
    {
      onRequest: app.requireAccount('kb:read'),
      schema: {
        tags,
        security,
        summary: 'List records, oldest first',
        params: RagIdParams,
        querystring: RecordsQuery,
        response: { 200: pageOf(KnowledgeRecord), ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => {
      const page = await knowledge.listRecords(accountOf(request), request.params.ragId, { ...request.query, limit: request.query.limit ?? defaultPageSize });
      return { items: page.items.map(({ ragId: _rag, ...record }) => record), nextCursor: page.nextCursor };
    },
  );

  app.delete(
    '/api/v1/knowledge-bases/:ragId/records/:recordId',
    {
      onRequest: app.requireAccount('kb:write'),
      schema: { tags, security, summary: 'Delete one record', params: RecordParams, response: { 204: Type.Null(), ...errorResponses(401, 404) } },
    },
    async (request, reply) => {
      await knowledge.deleteRecord(accountOf(request), request.params.ragId, request.params.recordId);
      return reply.code(204).send(null);
    },
  );
}
