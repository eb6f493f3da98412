/**
 * Authentication for the management API: `Authorization: Bearer` (an access
 * token for `{PUBLIC_URL}/api/v1` or an account key, through the one
 * `bearerAuth` hook) or, without an Authorization header, the dashboard's
 * session cookie (writes must echo the CSRF token). Routes opt in with
 * `onRequest: app.requireAccount('kb:write')`.
 */
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { DomainError } from '../../errors.js';
import { allScopes, type Principal, type Scope } from '../../identity/principal.js';
import type { SignInService } from '../../identity/sign-in-service.js';
import { safeEqual } from '../../secrets.js';
import { bearerAuth, principalOf, type TokenAuthenticator } from '../bearer-auth.js';

export const sessionCookie = 'gw_session';
export const csrfCookie = 'gw_csrf';
export const csrfHeader = 'x-csrf-token';

declare module 'fastify' {
  interface FastifyInstance {
    requireAccount(scope: Scope): onRequestAsyncHookHandler;
    /**
     * The dashboard's session only (writes echo the CSRF token): for what a person manages about
     * the agents acting for them, which an agent's own bearer credential must not reach.
     */
    requireSession(): onRequestAsyncHookHandler;
  }
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface AuthOptions {
  signIn: SignInService;
  publicUrl: string;
  /** The management API's resource identifier, `{PUBLIC_URL}/api/v1`: bearer tokens must name it. */
  resource: string;
  /** Resolves bearer credentials; without one, every bearer token is refused. */
  authenticator: TokenAuthenticator | undefined;
}

const noTokens: TokenAuthenticator = { authenticate: async () => undefined };

export function registerAuth(app: FastifyInstance, options: AuthOptions): void {
  const { signIn } = options;
  app.decorateRequest('principal', null);

  /** The session of a request without an Authorization header: the principal, or why it is refused. */
  async function fromSession(request: FastifyRequest): Promise<Principal | string> {
    const token = request.cookies[sessionCookie];
    if (!token) return 'Sign in, or send Authorization: Bearer <token>.';
    const session = await signIn.session(token);
    if (!session) return 'The session has expired. Sign in again.';
    if (!safeMethods.has(request.method)) {
      const sent = request.headers[csrfHeader];
      if (typeof sent !== 'string' || !safeEqual(sent, session.csrfToken)) {
        throw new DomainError('csrf_failed', `Send the ${csrfHeader} header with the value of the ${csrfCookie} cookie.`);
      }
    }
    return { accountId: session.account.accountId, via: 'session', scopes: new Set(allScopes) };
  }

  const hooks = new Map<Scope, onRequestAsyncHookHandler>();
  for (const scope of allScopes) {
    hooks.set(
      scope,
      bearerAuth({
        publicUrl: options.publicUrl,
        resource: options.resource,
        authenticator: options.authenticator ?? noTokens,
        scopes: [scope],
        otherwise: fromSession,
      }),
    );
  }
  app.decorate('requireAccount', (scope: Scope): onRequestAsyncHookHandler => hooks.get(scope) as onRequestAsyncHookHandler);

  const sessionOnly: onRequestAsyncHookHandler = async (request) => {
    if (request.headers.authorization !== undefined) {
      throw new DomainError('forbidden', 'This is for the signed-in person only: send the dashboard session cookie, not Authorization.');
    }
    const principal = await fromSession(request);
    if (typeof principal === 'string') throw new DomainError('unauthorized', principal);
    request.principal = principal;
  };
  app.decorate('requireSession', (): onRequestAsyncHookHandler => sessionOnly);
}

/** The authenticated caller's account id; only valid after `requireAccount`. */
export function accountOf(request: FastifyRequest): string {
  return principalOf(request).accountId;
}
