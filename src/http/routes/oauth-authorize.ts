/**
 * `/oauth/authorize`: the sign-in and consent page of the authorization code
 * flow. GET validates the request and shows sign-in (e-mail code) or consent;
 * the forms POST back here with the original request in a hidden field (it
 * is validated again, never trusted) and a CSRF token. Approval answers
 * 302 `redirect_uri?code&state&iss`; denial `error=access_denied`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type AuthorizationRequest,
  AuthorizationPageError,
  AuthorizationRedirectError,
  type AuthorizationService,
} from '../../identity/oauth/authorization-service.js';
import type { CurrentSession, SignInService } from '../../identity/sign-in-service.js';
import { addFormParser } from '../form-body.js';
import { escapeHtml } from '../html.js';
import { checkFormCsrf, formCsrf, hidden, paragraph, sendPage } from '../page.js';
import { sessionCookie } from '../plugins/auth.js';
import { emailForm, type SignInFormContext, signInStep } from '../sign-in-form.js';
import type { App } from '../types.js';

const scopeText: Record<string, string> = {
  'kb:read': 'Query and search your knowledge bases',
  'kb:write': 'Create, change and delete your knowledge bases, records and keys',
  'tools:run': 'Run utilities on your behalf',
  mcp: 'Use the Groundwork MCP server',
};

/**
 * How the page names the client. A metadata-document client chose its own name, which nothing
 * verifies; the host serving its document is what identifies it, so that is shown too.
 */
function clientLabel(client: AuthorizationRequest['client']): string {
  const name = client.metadata.client_name ?? client.clientId;
  return client.kind === 'cimd' ? `${name} (${new URL(client.clientId).host})` : name;
}

export interface AuthorizeRouteOptions {
  publicUrl: string;
  secureCookies: boolean;
}

export async function oauthAuthorizeRoutes(
  app: App,
  authorization: AuthorizationService,
  signIn: SignInService,
  options: AuthorizeRouteOptions,
): Promise<void> {
  const { publicUrl, secureCookies } = options;

  /** Validates; on failure answers (error page or redirect to the client) and returns undefined. */
  async function validated(query: string, reply: FastifyReply): Promise<AuthorizationRequest | undefined> {
    try {
      return await authorization.validate(new URLSearchParams(query));
    } catch (error) {
      if (error instanceof AuthorizationPageError) {
        sendPage(
          reply,
          400,
          'This request cannot be completed',
          `${paragraph(error.message)}${paragraph('Go back to the application and try again.', 'note')}`,
        );
        return undefined;
      }
      if (error instanceof AuthorizationRedirectError) {
        reply.header('cache-control', 'no-store').redirect(error.location, 302);
        return undefined;
      }
      throw error;
    }
  }

  const session = (request: FastifyRequest) => signIn.session(request.cookies[sessionCookie] ?? '');

  function signInContext(query: string, csrf: string, client: AuthorizationRequest['client']): SignInFormContext {
    const name = clientLabel(client);
    return { action: '/oauth/authorize', hiddenFields: { request: query }, csrf, reason: `Sign in to Groundwork to let ${name} access your account.` };
  }

  function consent(reply: FastifyReply, request: AuthorizationRequest, query: string, current: CurrentSession, csrf: string) {
    const name = clientLabel(request.client);
    const items = request.scope
      .split(' ')
      .map((s) => `<li><code>${escapeHtml(s)}</code> — ${escapeHtml(scopeText[s] ?? s)}</li>`)
      .join('');
    const target = new URL(request.redirectUri);
    const body = `${paragraph(`${name} wants to access your Groundwork account${current.account.email ? ` (${current.account.email})` : ''}.`)}
<p>It asks to:</p><ul>${items}</ul>${paragraph(`For: ${request.resources.join(', ')}`, 'note')}
${paragraph(`After your answer you go back to ${target.protocol}//${target.host}.`, 'note')}
<form method="post" action="/oauth/authorize">${hidden('request', query)}${hidden('csrf', csrf)}
<button type="submit" name="action" value="approve">Allow</button><button type="submit" name="action" value="deny" class="secondary">Deny</button></form>`;
    return sendPage(reply, 200, 'Allow access?', body);
  }

  app.get('/oauth/authorize', { schema: { hide: true } }, async (request, reply) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    const authz = await validated(query, reply);
    if (!authz) return reply;
    const current = await session(request);
    const csrf = formCsrf(request, reply, current, secureCookies);
    if (!current) return sendPage(reply, 200, 'Sign in', emailForm(signInContext(query, csrf, authz.client)));
    return consent(reply, authz, query, current, csrf);
  });

  await app.register(async (scope) => {
    addFormParser(scope);
    scope.post('/oauth/authorize', { schema: { hide: true } }, async (request, reply) => {
      const form = request.body instanceof URLSearchParams ? request.body : new URLSearchParams();
      const query = form.get('request') ?? '';
      const authz = await validated(query, reply);
      if (!authz) return reply;
      const current = await session(request);
      if (!checkFormCsrf(request, current, form.get('csrf'), publicUrl)) {
        return sendPage(reply, 403, 'Please try again', paragraph('This form has expired or did not come from this site. Go back and reload the page.'));
      }
      const action = form.get('action');
      if (action === 'send_code' || action === 'verify_code') {
        const step = await signInStep(signIn, form, signInContext(query, formCsrf(request, reply, current, secureCookies), authz.client), reply, secureCookies);
        if (step.kind === 'page') return sendPage(reply, 200, 'Sign in', step.body);
        return reply.header('cache-control', 'no-store').redirect(`/oauth/authorize?${query}`, 303);
      }
      if (!current) return sendPage(reply, 401, 'Sign in', emailForm(signInContext(query, formCsrf(request, reply, current, secureCookies), authz.client)));
      if (action === 'approve') return reply.header('cache-control', 'no-store').redirect(await authorization.approve(authz, current.account.accountId), 302);
      if (action === 'deny') return reply.header('cache-control', 'no-store').redirect(authorization.deny(authz), 302);
      return consent(reply, authz, query, current, current.csrfToken);
    });
  });
}
