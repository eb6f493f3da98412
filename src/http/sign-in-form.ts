/**
 * The e-mail one-time-code sign-in as HTML forms, for pages that need a
 * signed-in person (consent, taking ownership of an agent's account). It
 * drives the same SignInService as the sign-in API; `hiddenFields` carry the
 * page's own state (e.g. the authorization request) through both steps.
 */
import type { FastifyReply } from 'fastify';
import { isDomainError } from '../errors.js';
import type { SignInService } from '../identity/sign-in-service.js';
import { escapeHtml } from './html.js';
import { errorLine, hidden, paragraph, setSessionCookies } from './page.js';

export interface SignInFormContext {
  /** Where the forms post. */
  action: string;
  hiddenFields: Record<string, string>;
  csrf: string;
  /** Why the person should sign in, shown above the form. */
  reason: string;
}

function fields(context: SignInFormContext): string {
  return Object.entries({ ...context.hiddenFields, csrf: context.csrf })
    .map(([name, value]) => hidden(name, value))
    .join('');
}

export function emailForm(context: SignInFormContext, error?: string): string {
  return `${paragraph(context.reason)}${errorLine(error)}<form method="post" action="${escapeHtml(context.action)}">${fields(context)}
<label for="email">E-mail address</label><input type="email" id="email" name="email" autocomplete="email" required maxlength="254">
<button type="submit" name="action" value="send_code">Send me a sign-in code</button></form>`;
}

export function codeForm(context: SignInFormContext, email: string, error?: string): string {
  return `${paragraph(`We sent a sign-in code to ${email}. It expires in 10 minutes.`)}${errorLine(error)}<form method="post" action="${escapeHtml(context.action)}">${fields(context)}${hidden('email', email)}
<label for="code">Sign-in code</label><input type="text" id="code" name="code" autocomplete="one-time-code" inputmode="text" required maxlength="20" autofocus>
<button type="submit" name="action" value="verify_code">Sign in</button></form>`;
}

export type SignInStep = { kind: 'page'; body: string } | { kind: 'signed_in' };

/** Handles `send_code` and `verify_code`; on success the session cookies are set on the reply. */
export async function signInStep(
  signIn: SignInService,
  form: URLSearchParams,
  context: SignInFormContext,
  reply: FastifyReply,
  secureCookies: boolean,
): Promise<SignInStep> {
  const email = (form.get('email') ?? '').trim();
  try {
    if (form.get('action') === 'send_code') {
      await signIn.requestCode(email, reply.request.ip);
      return { kind: 'page', body: codeForm(context, email) };
    }
    const session = await signIn.verifyCode(email, form.get('code') ?? '', reply.request.ip);
    setSessionCookies(reply, session, secureCookies);
    return { kind: 'signed_in' };
  } catch (error) {
    if (!isDomainError(error)) throw error;
    if (form.get('action') === 'send_code' || error.code === 'validation_failed') return { kind: 'page', body: emailForm(context, error.message) };
    return { kind: 'page', body: codeForm(context, email, error.message) };
  }
}
