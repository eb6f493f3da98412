/** `/api/v1/knowledge-bases/{ragId}/keys[/{keyId}]`: the API Keys tab's endpoints (product.md §4). */
import { Type } from 'typebox';
import type { ApiKeyService } from '../../knowledge/keys/api-key-service.js';
import type { ApiKey } from '../../knowledge/model.js';
import { accountOf } from '../plugins/auth.js';
import { accountSecurity as security, ApiKeyList, ApiKey as ApiKeyView, CreatedKey, CreateKeyBody, errorResponses, RagIdParams, UpdateKeyBody } from '../schemas.js';
import type { App } from '../types.js';

const tags = ['API keys'];
const KeyParams = Type.Object({ ragId: Type.String({ maxLength: 64 }), keyId: Type.String({ maxLength: 64 }) });

export function apiKeyRoutes(app: App, keys: ApiKeyService): void {
  const view = ({ ragId: _rag, ...key }: ApiKey) => key;

  app.post(
    '/api/v1/knowledge-bases/:ragId/keys',
    {
      onRequest: app.requireAccount('kb:write'),
      schema: {
        tags,
        security,
        summary: 'Generate a live query key (a secret key is shown once; a publishable one is listed again)',
        params: RagIdParams,
        body: CreateKeyBody,
        response: { 201: CreatedKey, ...errorResponses(401, 404, 422) },
      },
    },
    async (request, reply) => {
      const created = await keys.create(accountOf(request), request.params.ragId, request.body);
      return reply.code(201).header('cache-control', 'no-store').send({ key: view(created.key), apiKey: created.secret });
    },
  );

  app.get(
    '/api/v1/knowledge-bases/:ragId/keys',
    {
      onRequest: app.requireAccount('kb:read'),
      schema: {
        tags,
        security,
        summary: 'List live keys (prefix only; the full key of publishable keys)',
        description:
          'Revoked keys are gone. A secret key is listed by its prefix only; a publishable (widget) key also carries `apiKey`, its full key, because it is public by nature (docs/widget-keys.md).',
        params: RagIdParams,
        response: { 200: ApiKeyList, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const items = (await keys.list(accountOf(request), request.params.ragId)).map(view);
      // Full publishable keys travel here: no cache keeps them.
      reply.header('cache-control', 'no-store');
      return { items };
    },
  );

  app.patch(
    '/api/v1/knowledge-bases/:ragId/keys/:keyId',
    {
      onRequest: app.requireAccount('kb:write'),
      schema: {
        tags,
        security,
        summary: "Change a key's name or domain whitelist",
        params: KeyParams,
        body: UpdateKeyBody,
        response: { 200: ApiKeyView, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => view(await keys.update(accountOf(request), request.params.ragId, request.params.keyId, request.body)),
  );

  app.delete(
    '/api/v1/knowledge-bases/:ragId/keys/:keyId',
    {
      onRequest: app.requireAccount('kb:write'),
      schema: { tags, security, summary: 'Revoke a key (at once, on every instance)', params: KeyParams, response: { 204: Type.Null(), ...errorResponses(401, 404) } },
    },
    async (request, reply) => {
      await keys.revoke(accountOf(request), request.params.ragId, request.params.keyId);
      return reply.code(204).send(null);
    },
  );
}
