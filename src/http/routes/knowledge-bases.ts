/** `/api/v1/knowledge-bases[/{ragId}]`: create, list, read, update, delete (product.md §4). */
import type { KnowledgeService } from '../../knowledge/knowledge-service.js';
import type { KnowledgeBase } from '../../knowledge/model.js';
import { accountOf } from '../plugins/auth.js';
import {
  accountSecurity,
  CreateKnowledgeBaseBody,
  errorResponses,
  KnowledgeBase as KnowledgeBaseSchema,
  KnowledgeBaseList,
  RagIdParams,
  UpdateKnowledgeBaseBody,
} from '../schemas.js';
import type { App } from '../types.js';
import { Type } from 'typebox';

const tags = ['Knowledge bases'];
const security = accountSecurity;

export function knowledgeBaseView(knowledge: KnowledgeService, kb: KnowledgeBase) {
  const { ownerId: _owner, ...rest } = kb;
  return { ...rest, quota: knowledge.quotaOf(kb) };
}

export function knowledgeBaseRoutes(app: App, knowledge: KnowledgeService): void {
  const view = (kb: KnowledgeBase) => knowledgeBaseView(knowledge, kb);

  app.post(
    '/api/v1/knowledge-bases',
    {
      onRequest: app.requireAccount('kb:write'),
      schema: {
        tags,
        security,
        summary: 'Create a knowledge base',
        body: CreateKnowledgeBaseBody,
        response: { 201: KnowledgeBaseSchema, ...errorResponses(401, 409, 422) },
      },
    },
    async (request, reply) => {
      const kb = await knowledge.create(accountOf(request), request.body);
      return reply.code(201).header('location', `/api/v1/knowledge-bases/${kb.ragId}`).send(view(kb));
    },
  );

  app.get(
    '/api/v1/knowledge-bases',
    {
      onRequest: app.requireAccount('kb:read'),
      schema: {
        tags,
        security,
        summary: 'List your knowledge bases',
        response: { 200: KnowledgeBaseList, ...errorResponses(401) },
      },
    },
    async (request) => {
      const items = await knowledge.list(accountOf(request));
      return { items: items.map(view), limit: knowledge.limits.maxKnowledgeBases };
    },
  );

  app.get(
    '/api/v1/knowledge-bases/:ragId',
    {
      onRequest: app.requireAccount('kb:read'),
      schema: { tags, security, summary: 'Read a knowledge base', params: RagIdParams, response: { 200: KnowledgeBaseSchema, ...errorResponses(401, 404) } },
    },
    async (request) => view(await knowledge.get(accountOf(request), request.params.ragId)),
  );

  app.patch(
    '/api/v1/knowledge-bases/:ragId',
    {
      onRequest: app.requireAccount('kb:write'),
      schema: {
        tags,
        security,
        summary: 'Rename or re-theme a knowledge base',
        params: RagIdParams,
        body: UpdateKnowledgeBaseBody,
        response: { 200: KnowledgeBaseSchema, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => view(await knowledge.update(accountOf(request), request.params.ragId, request.body)),
  );

  app.delete(
    '/api/v1/knowledge-bases/:ragId',
    {
      onRequest: app.requireAccount('kb:write'),
      schema: {
        tags,
        security,
        summary: 'Delete a knowledge base with its sources, records and keys',
        params: RagIdParams,
        response: { 204: Type.Null(), ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      await knowledge.remove(accountOf(request), request.params.ragId);
      return reply.code(204).send(null);
    },
  );
}
