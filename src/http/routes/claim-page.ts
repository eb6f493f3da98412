/**
 * `/claim?code=XXXX-XXXX`: the person's side of an agent registration (the
 * claim_uri). For a verified_email registration it asks for the e-mailed
 * confirmation code (prefilled when the mail's link carries it) and confirms;
 * for an anonymous agent it lets a signed-in person take ownership of the
 * agent's account: its knowledge bases join the person's account, and the
 * person chooses what the agent keeps — only what it made (preselected) or
 * the whole account (see ClaimService). Forms POST here with a CSRF token.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClaimPageState, ClaimService } from '../../identity/oauth/claim-service.js';
import type { AgentAccess } from '../../identity/oauth/model.js';
import type { CurrentSession, SignInService } from '../../identity/sign-in-service.js';
import { addFormParser } from '../form-body.js';
import { checkFormCsrf, errorLine, formCsrf, hidden, paragraph, sendPage } from '../page.js';
import { sessionCookie } from '../plugins/auth.js';
import { emailForm, type SignInFormContext, signInStep } from '../sign-in-form.js';
import type { App } from '../types.js';

export interface ClaimPageOptions {
  publicUrl: string;
  secureCookies: boolean;
}

/** `j…@example.com`: enough for the owner to recognise, little for anyone else holding the link. */
function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}…@${domain}`;
}

/** The consent choice, in plain words; the safe one comes first and is preselected. */
const accessChoice = `<fieldset><legend>What may the agent use afterwards?</legend>
<p><label><input type="radio" name="access" value="own" checked> <strong>Only what it made</strong> (recommended): the agent can see and change the knowledge bases it created, before and after today, and nothing else in your account.</label></p>
<p><label><input type="radio" name="access" value="account"> <strong>Everything in my account</strong>: the agent can read, change and delete all your knowledge bases and their keys, including the ones you made yourself.</label></p>
</fieldset>`;

/** Anything but an explicit "account" keeps the agent to what it made. */
const accessFrom = (value: string | null): AgentAccess => (value === 'account' ? 'account' : 'own');

export async function claimPageRoutes(app: App, claims: ClaimService, signIn: SignInService, options: ClaimPageOptions): Promise<void> {
  const { publicUrl, secureCookies } = options;
  const session = (request: FastifyRequest) => signIn.session(request.cookies[sessionCookie] ?? '');
  const title = 'Agent registration';

  function signInContext(code: string, csrf: string): SignInFormContext {
    return { action: '/claim', hiddenFields: { claim: code }, csrf, reason: "Sign in to take ownership of this agent's account." };
  }

  function render(
    reply: FastifyReply,
    state: ClaimPageState,
    code: string,
    csrf: string,
    current: CurrentSession | undefined,
    extra: { verification?: string; error?: string } = {},
  ): FastifyReply {
    switch (state.state) {
      case 'unknown':
        return sendPage(reply, 404, title, paragraph('This claim link is not valid. Check the code, or ask the agent for its claim link.'));
      case 'expired':
        return sendPage(reply, 410, title, paragraph('This claim link has expired. The agent has to register again.'));
      case 'locked':
        return sendPage(reply, 403, title, paragraph('Too many wrong codes were entered. The agent has to register again.'));
      case 'confirmed':
        return sendPage(
          reply,
          200,
          'Confirmed',
          paragraph(
            'The registration is confirmed. The agent can now claim its credentials; its account is the one you get when you sign in with this address.',
          ),
        );
      case 'adopted':
        return sendPage(reply, 200, title, paragraph("This agent's account already belongs to a person."));
      case 'external':
        return sendPage(
          reply,
          200,
          title,
          paragraph("This agent's identity is vouched for by its organisation's identity provider. There is nothing to confirm here."),
        );
      case 'confirm': {
        const body = `${paragraph(`An agent registered and named ${maskEmail(state.claim.email ?? '')} as its owner. Enter the confirmation code from the e-mail to confirm.`)}
${errorLine(extra.error)}<form method="post" action="/claim">${hidden('claim', code)}${hidden('csrf', csrf)}
<label for="verification">Confirmation code</label><input type="text" id="verification" name="verification" autocomplete="one-time-code" required maxlength="20" value="${extra.verification ? extra.verification.replace(/[^A-Za-z0-9-]/g, '').slice(0, 20) : ''}">
<button type="submit" name="action" value="confirm">Confirm</button></form>${paragraph('If you did not expect this, close the page: nothing happens without the code.', 'note')}`;
        return sendPage(reply, extra.error ? 400 : 200, 'Confirm an agent registration', body);
      }
      case 'adopt': {
        if (!current) return sendPage(reply, 200, 'Take ownership of an agent', emailForm(signInContext(code, csrf)));
        const body = `${paragraph(`You are signed in as ${current.account.email ?? current.account.accountId}.`)}
${paragraph("Taking ownership moves this agent's knowledge bases into your account, where you can see and manage them. The agent keeps working with the credentials it already has.")}
${errorLine(extra.error)}<form method="post" action="/claim">${hidden('claim', code)}${hidden('csrf', csrf)}
${accessChoice}
<button type="submit" name="action" value="adopt">Take ownership</button></form>`;
        return sendPage(reply, 200, 'Take ownership of an agent', body);
      }
    }
  }

  app.get('/claim', { schema: { hide: true } }, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const code = typeof query.code === 'string' ? query.code.slice(0, 32) : '';
    const current = await session(request);
    const csrf = formCsrf(request, reply, current, secureCookies);
    const verification = typeof query.verification === 'string' ? query.verification : undefined;
    return render(reply, await claims.pageState(code), code, csrf, current, verification ? { verification } : {});
  });

  await app.register(async (scope) => {
    addFormParser(scope);
    scope.post('/claim', { schema: { hide: true } }, async (request, reply) => {
      const form = request.body instanceof URLSearchParams ? request.body : new URLSearchParams();
      const code = (form.get('claim') ?? '').slice(0, 32);
      const current = await session(request);
      if (!checkFormCsrf(request, current, form.get('csrf'), publicUrl)) {
        return sendPage(reply, 403, 'Please try again', paragraph('This form has expired or did not come from this site. Go back and reload the page.'));
      }
      const action = form.get('action');
      if (action === 'confirm') {
        const outcome = await claims.confirm(code, form.get('verification') ?? '');
        if (outcome === 'wrong_code') {
          return render(reply, await claims.pageState(code), code, formCsrf(request, reply, current, secureCookies), current, { error: 'The code is wrong.' });
        }
      } else if (action === 'send_code' || action === 'verify_code') {
        const step = await signInStep(signIn, form, signInContext(code, formCsrf(request, reply, current, secureCookies)), reply, secureCookies);
        if (step.kind === 'page') return sendPage(reply, 200, 'Take ownership of an agent', step.body);
        return reply.header('cache-control', 'no-store').redirect(`/claim?code=${encodeURIComponent(code)}`, 303);
      } else if (action === 'adopt' && current) {
        const access = accessFrom(form.get('access'));
        if (await claims.adopt(code, current.account.accountId, access)) {
          const done =
            access === 'own'
              ? "The agent's knowledge bases are now in your account. The agent can use only the knowledge bases it made; the rest of your account stays out of its reach."
              : "The agent's knowledge bases are now in your account, and the agent can use everything in your account.";
          return sendPage(reply, 200, 'Done', paragraph(done));
        }
      }
      return render(reply, await claims.pageState(code), code, formCsrf(request, reply, current, secureCookies), current);
    });
  });
}
