/**
 * `/api/v1/auth/*`: sign-in for people by e-mail one-time code, the current
 * session, sign-out. The session cookie is HttpOnly and SameSite=Lax; the
 * CSRF token is also set in a readable cookie for the dashboard's scripts.
 * The requester for the per-requester sign-in limits is `request.ip` (the
 * proxy's X-Forwarded-For only when TRUST_PROXY names that proxy).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { DomainError } from '../../errors.js';
import type { SignedIn, SignInService } from '../../identity/sign-in-service.js';
import { csrfCookie, sessionCookie } from '../plugins/auth.js';
import { errorResponses, Session as SessionView, SignInStarted, StartSignInBody, VerifySignInBody } from '../schemas.js';
import type { App } from '../types.js';

const tags = ['Sign-in'];

/** `Cache-Control: no-store` on a response (a route's onSend hook). */
function noStore(_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void): void {
  reply.header('cache-control', 'no-store');
  done(null, payload);
}

export function signInRoutes(app: App, signIn: SignInService, secureCookies: boolean): void {
  const cookieBase = { path: '/', sameSite: 'lax' as const, secure: secureCookies };

  // Responses that carry the CSRF token or set the session must never be stored by a cache. A hook
  // of these routes only (errors included): an application-wide hook ran, as a promise, on every
  // request of the service, queries included.
  const onSend = noStore;

  function setSessionCookies(reply: FastifyReply, session: SignedIn): void {
    reply.setCookie(sessionCookie, session.sessionToken, { ...cookieBase, httpOnly: true, expires: session.expiresAt });
    reply.setCookie(csrfCookie, session.csrfToken, { ...cookieBase, httpOnly: false, expires: session.expiresAt });
  }

  app.post(
    '/api/v1/auth/email/start',
    {
      onSend,
      schema: {
        tags,
        summary: 'E-mail a one-time sign-in code',
        description:
          'Always 202 with the same body for a valid address: whether or not it has an account, codes are pending, or its mail budget (5 codes per 10 minutes) is spent, in which case no further mail is sent. Earlier codes stay valid. 429 only when this client started too many sign-ins.',
        body: StartSignInBody,
        response: { 202: SignInStarted, ...errorResponses(422, 429) },
      },
    },
    async (request, reply) => {
      const { expiresInSeconds } = await signIn.requestCode(request.body.email, request.ip);
      return reply.code(202).send({ sent: true, expiresInSeconds });
    },
  );

  app.post(
    '/api/v1/auth/email/verify',
    {
      onSend,
      schema: {
        tags,
        summary: 'Exchange the code for a session',
        description:
          'Any of the address\'s pending codes works once, and signing in uses them all up. Every failure is the same 400 invalid_code (it does not say whether a code is pending); 429 when this client sent too many wrong codes.',
        body: VerifySignInBody,
        response: { 200: SessionView, ...errorResponses(400, 422, 429) },
      },
    },
    async (request, reply) => {
      const session = await signIn.verifyCode(request.body.email, request.body.code, request.ip);
      setSessionCookies(reply, session);
      return { account: { accountId: session.account.accountId, email: session.account.email }, csrfToken: session.csrfToken };
    },
  );

  app.get(
    '/api/v1/auth/session',
    { onSend, schema: { tags, summary: 'The signed-in account', response: { 200: SessionView, ...errorResponses(401) } } },
    async (request) => {
      const session = await signIn.session(request.cookies[sessionCookie] ?? '');
      if (!session) throw new DomainError('unauthorized', 'Not signed in.');
      return { account: { accountId: session.account.accountId, email: session.account.email }, csrfToken: session.csrfToken };
    },
  );

  app.post(
    '/api/v1/auth/sign-out',
    { onSend, schema: { tags, summary: 'End the session', response: { 204: Type.Null() } } },
    async (request, reply) => {
      const token = request.cookies[sessionCookie];
      if (token) await signIn.signOut(token);
      reply.clearCookie(sessionCookie, cookieBase).clearCookie(csrfCookie, cookieBase);
      return reply.code(204).send(null);
    },
  );
}
