/**
 * Client authentication at the token, revocation and introspection endpoints
 * (RFC 6749 §2.3): `client_secret_basic` (Authorization: Basic, form-encoded
 * id and secret), `client_secret_post` (client_id + client_secret in the
 * body), or a public client naming itself with `client_id`. More than one
 * method in a request is refused. A failed authentication is 401
 * `invalid_client`, with `WWW-Authenticate: Basic` when Basic was used.
 */
import type { OAuthStore } from '../../ports/storage.js';
import { hashSecret, safeEqual } from '../../secrets.js';
import { OAuthError } from './errors.js';
import type { OAuthClient } from './model.js';

export type FormFields = Record<string, string | undefined>;

export interface CallingClient {
  client: OAuthClient;
  /** True when the client proved a secret (a confidential client). */
  authenticated: boolean;
}

function basicCredentials(header: string): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/]+=*)\s*$/i.exec(header);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

export class ClientAuthenticator {
  constructor(private readonly store: Pick<OAuthStore, 'getClient'>) {}

  /** The calling client, or undefined when the request names none. */
  async identify(authorization: string | undefined, body: FormFields): Promise<CallingClient | undefined> {
    const basic = authorization !== undefined && /^Basic\s/i.test(authorization);
    if (authorization !== undefined && !basic) {
      throw new OAuthError('invalid_client', 'Unsupported Authorization scheme; use Basic.', 401);
    }
    if (basic) {
      if (body.client_secret !== undefined)
        throw new OAuthError('invalid_request', 'Use one client authentication method, not Basic and client_secret together.');
      const credentials = basicCredentials(authorization as string);
      const challenge = { 'www-authenticate': 'Basic realm="groundwork"' };
      if (!credentials) throw new OAuthError('invalid_client', 'The Basic credentials are malformed.', 401, challenge);
      if (body.client_id !== undefined && body.client_id !== credentials.id)
        throw new OAuthError('invalid_request', 'client_id differs from the authenticated client.');
      return { client: await this.verifySecret(credentials.id, credentials.secret, challenge), authenticated: true };
    }
    const clientId = body.client_id;
    if (clientId === undefined) return undefined;
    if (body.client_secret !== undefined) return { client: await this.verifySecret(clientId, body.client_secret, {}), authenticated: true };
    const client = await this.store.getClient(clientId);
    if (!client) throw new OAuthError('invalid_client', 'Unknown client.', 401);
    if (client.secretHash !== null) throw new OAuthError('invalid_client', 'This client is confidential: authenticate with its secret.', 401);
    return { client, authenticated: false };
  }

  /** Like identify, but a client must be named. */
  async require(authorization: string | undefined, body: FormFields): Promise<CallingClient> {
    const caller = await this.identify(authorization, body);
    if (!caller) throw new OAuthError('invalid_client', 'Client authentication is required (Basic, client_secret_post, or client_id for public clients).', 401);
    return caller;
  }

  private async verifySecret(clientId: string, secret: string, challenge: Record<string, string>): Promise<OAuthClient> {
    const client = clientId.length <= 200 ? await this.store.getClient(clientId) : undefined;
    if (!client || client.secretHash === null || !safeEqual(client.secretHash, hashSecret(secret))) {
      throw new OAuthError('invalid_client', 'Client authentication failed.', 401, challenge);
    }
    return client;
  }
}
