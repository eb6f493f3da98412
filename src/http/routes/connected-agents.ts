/**
 * `/api/v1/account/connected-agents[/…]`: the signed-in person's connected agents — OAuth clients
 * with their grants, account API keys, adopted anonymous agents — and revoking each (issue 15,
 * item 7; docs/agents.md "Connected agents"). Session only: an agent's bearer credential, even one
 * acting for the account, may neither list nor revoke the others (403). Writes echo the CSRF token.
 */
import { Type } from 'typebox';
import type { ConnectedAgentsService } from '../../identity/connected-agents/connected-agents-service.js';
import { accountOf } from '../plugins/auth.js';
import { ConnectedAgents, errorResponses } from '../schemas.js';
import type { App } from '../types.js';

const tags = ['Connected agents'];
const security = [{ session: [] }];
const base = '/api/v1/account/connected-agents';
// Client ids may be URLs (Client ID Metadata Documents), hence the length.
const ClientParams = Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 2048 }) });
const GrantParams = Type.Object({ grantId: Type.String({ minLength: 1, maxLength: 128 }) });
const KeyParams = Type.Object({ keyId: Type.String({ minLength: 1, maxLength: 128 }) });
const revoked = { 204: Type.Null(), ...errorResponses(401, 403, 404) };
const immediately = 'Takes effect at once on every instance: the next request with any credential of what was revoked is refused (401).';

export function connectedAgentRoutes(app: App, connected: ConnectedAgentsService): void {
  const onRequest = app.requireSession();

  app.get(
    base,
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'List the agents connected to your account',
        description:
          'OAuth clients holding live grants for your account (each with its grants), your account API keys, and the anonymous agents you adopted. A grant is live while it is not revoked and still holds a working credential. Session only (403 for a bearer credential).',
        response: { 200: ConnectedAgents, ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return connected.list(accountOf(request));
    },
  );

  app.delete(
    `${base}/clients/:clientId`,
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Disconnect a client: revoke all its grants for your account',
        description: `Revokes every grant the client holds for your account, spends its pending authorization codes and unbinds it from your account, so it needs your consent again. ${immediately}`,
        params: ClientParams,
        response: revoked,
      },
    },
    async (request, reply) => {
      await connected.revokeClient(accountOf(request), request.params.clientId);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    `${base}/grants/:grantId`,
    {
      onRequest,
      schema: { tags, security, summary: 'Revoke one grant (its access tokens, refresh tokens and account key)', description: immediately, params: GrantParams, response: revoked },
    },
    async (request, reply) => {
      await connected.revokeGrant(accountOf(request), request.params.grantId);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    `${base}/account-keys/:keyId`,
    {
      onRequest,
      schema: { tags, security, summary: 'Revoke an account API key (with the grant it belongs to)', description: immediately, params: KeyParams, response: revoked },
    },
    async (request, reply) => {
      await connected.revokeAccountKey(accountOf(request), request.params.keyId);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    `${base}/adopted-agents/:clientId`,
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Revoke everything an adopted agent holds',
        description: `The agent stays listed as adopted and what it made stays in your account; it can no longer act. ${immediately}`,
        params: ClientParams,
        response: revoked,
      },
    },
    async (request, reply) => {
      await connected.revokeAdoptedAgent(accountOf(request), request.params.clientId);
      return reply.code(204).send(null);
    },
  );
}
