/**
 * A test server with an anonymous agent (its claimed access token and
 * account) and a confidential "service" client that agent's account
 * registered with its token as initial access token, allowed
 * client_credentials and jwt-bearer — the client the grant, revocation and
 * introspection tests authenticate as.
 */
import * as oauth from 'oauth4webapi';
import type { TestServer } from '../support/server.js';
import { discover, type IdpKey, idpKey, insecure, postJson, startOAuthServer } from './helpers.js';

export const jwtBearer = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export interface ServiceSetup {
  server: TestServer;
  as: oauth.AuthorizationServer;
  key: IdpKey;
  agentToken: string;
  agentAccount: string;
  service: oauth.Client;
}

export async function startWithServiceClient(): Promise<ServiceSetup> {
  const key = await idpKey();
  const server = await startOAuthServer(key);
  const as = await discover(server.baseUrl);
  const agent = await postJson(server.baseUrl, '/oauth/register', { identity_type: 'anonymous' });
  const claimed = await postJson(server.baseUrl, '/oauth/claim', { claim_id: agent.body.claim_id });
  const agentToken = claimed.body.access_token as string;
  const agentAccount = JSON.parse(Buffer.from(agentToken.split('.')[1] as string, 'base64url').toString()).sub as string;
  const registration = await oauth.dynamicClientRegistrationRequest(
    as,
    { grant_types: ['client_credentials', jwtBearer], client_name: 'Service' },
    { ...insecure, initialAccessToken: agentToken },
  );
  const service = await oauth.processDynamicClientRegistrationResponse(registration);
  return { server, as, key, agentToken, agentAccount, service };
}
