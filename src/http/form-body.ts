/**
 * `application/x-www-form-urlencoded` bodies, for the OAuth endpoints (RFC
 * 6749 §3.2 mandates them at the token endpoint) and the HTML forms of the
 * consent and claim pages. Registered only inside those routes' scopes, so
 * the JSON management API keeps refusing form bodies.
 */
import type { FastifyInstance } from 'fastify';
import { invalidRequest } from '../identity/oauth/errors.js';

export const formBodyLimit = 64 * 1024;

export function addFormParser(scope: FastifyInstance): void {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: formBodyLimit }, (_request, body, done) => {
    done(null, new URLSearchParams(body as string));
  });
}

/**
 * Single-valued parameters (RFC 6749 §3.1: a parameter sent twice is an
 * error) plus every value of the repeatable `resource` (RFC 8707 §2).
 */
export function formFields(body: unknown): { fields: Record<string, string | undefined>; resources: string[] } {
  if (!(body instanceof URLSearchParams)) throw invalidRequest('The body must be application/x-www-form-urlencoded.');
  const fields: Record<string, string | undefined> = {};
  for (const [key, value] of body) {
    if (key === 'resource') continue;
    if (key in fields) throw invalidRequest(`The parameter ${key.slice(0, 50)} appears more than once.`);
    fields[key] = value;
  }
  return { fields, resources: body.getAll('resource') };
}
