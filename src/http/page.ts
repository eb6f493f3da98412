/**
 * Server-rendered pages of the OAuth flows (consent, claim): one plain,
 * accessible layout in the dashboard's look (its stylesheet, linked, never
 * inline), every value escaped, no scripts. Forms carry a CSRF
 * token: the session's when the person is signed in, otherwise a random
 * value also set in an HttpOnly SameSite=Strict cookie (double submit).
 * Pages are not cacheable and cannot be framed (clickjacking).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CurrentSession, SignedIn } from '../identity/sign-in-service.js';
import { safeEqual } from '../secrets.js';
import { escapeHtml } from './html.js';
import { csrfCookie, sessionCookie } from './plugins/auth.js';

export const formCsrfCookie = 'gw_form';

/** The pages share the dashboard's stylesheet and header (served by routes/web.ts, with a fallback when the web build is missing). */
const stylesheet = '/web/pages.css';

export function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark"><title>${escapeHtml(title)} · Groundwork</title><link rel="stylesheet" href="${stylesheet}"></head>
<body><a class="skip" href="#main">Skip to content</a><header class="topbar"><div class="topbar-inner"><a class="brand" href="/">Groundwork</a></div></header>
<main id="main" class="narrow page" tabindex="-1"><div class="card"><h1>${escapeHtml(title)}</h1>${body}</div></main></body></html>`;
}

export const hidden = (name: string, value: string): string => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;
export const paragraph = (text: string, className?: string): string => `<p${className ? ` class="${className}"` : ''}>${escapeHtml(text)}</p>`;
export const errorLine = (text: string | undefined): string => (text ? `<p class="notice error" role="alert">${escapeHtml(text)}</p>` : '');

export function sendPage(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header('content-security-policy', "default-src 'none'; style-src 'self'; frame-ancestors 'none'; base-uri 'none'")
    .type('text/html; charset=utf-8')
    .send(layout(title, body));
}

/** The CSRF token to embed in this page's forms (setting the double-submit cookie when there is no session). */
export function formCsrf(request: FastifyRequest, reply: FastifyReply, session: CurrentSession | undefined, secure: boolean): string {
  if (session) return session.csrfToken;
  const existing = request.cookies[formCsrfCookie];
  if (existing && /^[A-Za-z0-9_-]{32}$/.test(existing)) return existing;
  const token = randomBytes(24).toString('base64url');
  reply.setCookie(formCsrfCookie, token, { path: '/', httpOnly: true, sameSite: 'strict', secure, maxAge: 3600 });
  return token;
}

/** Whether the form's `csrf` field matches, and the request comes from our own origin when the browser says. */
export function checkFormCsrf(request: FastifyRequest, session: CurrentSession | undefined, sent: string | null, publicUrl: string): boolean {
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== publicUrl) return false;
  const expected = session ? session.csrfToken : request.cookies[formCsrfCookie];
  return typeof sent === 'string' && typeof expected === 'string' && expected.length > 0 && safeEqual(sent, expected);
}

/** The session cookies, exactly as the sign-in API sets them. */
export function setSessionCookies(reply: FastifyReply, session: SignedIn, secure: boolean): void {
  const base = { path: '/', sameSite: 'lax' as const, secure };
  reply.setCookie(sessionCookie, session.sessionToken, { ...base, httpOnly: true, expires: session.expiresAt });
  reply.setCookie(csrfCookie, session.csrfToken, { ...base, httpOnly: false, expires: session.expiresAt });
}
