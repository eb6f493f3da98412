/**
 * Authentication for the management API: the dashboard's session cookie
 * (writes must echo the CSRF token) or `Authorization: Bearer`. Routes opt in
 * with `preHandler: app.requireAccount('kb:write')`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { DomainError } from '../../errors.js';
import { allScopes, type BearerVerifier, type Principal, type Scope } from '../../identity/principal.js';
import type { SignInService } from '../../identity/sign-in-service.js';
import { safeEqual } from '../../secrets.js';

export const sessionCookie = 'gw_session';
export const csrfCookie = 'gw_csrf';
export const csrfHeader = 'x-csrf-token';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyInstance {
    requireAccount(scope: Scope): preHandlerAsyncHookHandler;
  }
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

export function registerAuth(app: FastifyInstance, signIn: SignInService, bearerVerifiers: BearerVerifier[]): void {
  app.decorateRequest('principal', null);

  async function authenticate(request: FastifyRequest): Promise<Principal> {
    const authorization = request.headers.authorization;
    if (authorization !== undefined) {
      const match = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(authorization);
      if (!match?.[1]) throw new DomainError('unauthorized', 'The Authorization header must be "Bearer <token>".');
      for (const verify of bearerVerifiers) {
        const principal = await verify(match[1]);
        if (principal) return principal;
      }
      throw new DomainError('unauthorized', 'The bearer token is invalid, expired or revoked.');
    }
    const token = request.cookies[sessionCookie];
    if (!token) throw new DomainError('unauthorized', 'Sign in, or send Authorization: Bearer <token>.');
    const session = await signIn.session(token);
    if (!session) throw new DomainError('unauthorized', 'The session has expired. Sign in again.');
    if (!safeMethods.has(request.method)) {
      const sent = request.headers[csrfHeader];
      if (typeof sent !== 'string' || !safeEqual(sent, session.csrfToken)) {
        throw new DomainError('csrf_failed', `Send the ${csrfHeader} header with the value of the ${csrfCookie} cookie.`);
      }
    }
    return { accountId: session.account.accountId, via: 'session', scopes: new Set(allScopes) };
  }

  app.decorate('requireAccount', (scope: Scope): preHandlerAsyncHookHandler => {
    return async function requireAccount(request: FastifyRequest, _reply: FastifyReply) {
      const principal = await authenticate(request);
      if (!principal.scopes.has(scope)) {
        throw new DomainError('forbidden', `This credential lacks the ${scope} scope.`, { requiredScope: scope });
      }
      request.principal = principal;
    };
  });
}

/** The authenticated caller's account id; only valid after `requireAccount`. */
export function accountOf(request: FastifyRequest): string {
  if (!request.principal) throw new DomainError('unauthorized', 'Authentication required.');
  return request.principal.accountId;
}
