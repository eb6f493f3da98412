/**
 * Turns every failure into a problem document: domain errors by their code,
 * Fastify's own errors (validation, body parsing, size limits, multipart) by
 * their status, anything unexpected into a 500 whose detail says nothing of
 * the cause (the log has it, under the request id).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitHeaders } from '../../limits/headers.js';
import type { LimitDecision } from '../../ports/rate-limiter.js';
import { combineDecisions } from '../../limits/rules.js';
import { type ErrorCode, isDomainError } from '../../errors.js';
import { isStoreUnavailable } from '../../ops/store-outage.js';
import { isMultipartBody } from '../multipart-body.js';
import { sendProblem } from '../problem.js';
import { escapeHtml } from '../html.js';
import { sendPage } from '../page.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The limit a 413 on this route names, when it is not the route's body limit (see `limitOf`). */
    limitBytes?: number;
  }
}

const byStatus: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'unsupported_media_type',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

export function registerErrorHandling(app: FastifyInstance, publicUrl: string, uploadMaxBytes: number): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // A query route that ended before its handler took the client's limit (a malformed body, a failed
    // validation) takes it now: the request counts, and a client over its limit is told that first.
    const pending = request.clientLimit;
    if (pending && !pending.taken) {
      return pending.take().then(
        () => handle(error, request, reply),
        (refusal: unknown) => handle(isDomainError(refusal) ? (refusal as unknown as FastifyError) : error, request, reply),
      );
    }
    return handle(error, request, reply);
  });

  function handle(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
    if (isDomainError(error)) {
      // RFC 6750 §3: a 401 names the scheme the client should use.
      if (error.code === 'unauthorized') reply.header('www-authenticate', 'Bearer realm="groundwork"');
      const retryAfterMs = error.extra.retryAfterMs;
      if (typeof retryAfterMs === 'number' && retryAfterMs > 0 && !reply.hasHeader('retry-after')) {
        reply.header('retry-after', String(Math.ceil(retryAfterMs / 1000)));
      }
      if (error.context?.rateLimit) {
        const decisions = [request.ipLimit, error.context.rateLimit as LimitDecision].filter((d): d is LimitDecision => d !== undefined);
        reply.headers(rateLimitHeaders(combineDecisions(...decisions)));
      }
      return sendProblem(reply, publicUrl, error.code, error.message, error.extra);
    }
    if (error.validation) {
      const context = error.validationContext ?? 'body';
      const errors = error.validation.map((v) => ({
        location: `/${context}${v.instancePath}`,
        message: v.message ?? 'is invalid',
        ...(v.params && 'missingProperty' in v.params ? { missing: v.params.missingProperty } : {}),
        ...(v.params && 'additionalProperty' in v.params ? { unexpected: v.params.additionalProperty } : {}),
      }));
      const first = errors[0];
      const detail = first ? `${first.location} ${first.message}${first.missing ? ` (${String(first.missing)})` : ''}${first.unexpected ? ` (${String(first.unexpected)})` : ''}` : 'The request is invalid.';
      return sendProblem(reply, publicUrl, 'validation_failed', detail, { errors });
    }
    if (isStoreUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', String(storeRetryAfterSeconds));
      return sendProblem(reply, publicUrl, 'service_unavailable', 'The database cannot be reached right now. Try again shortly.', {
        retryAfterMs: storeRetryAfterSeconds * 1000,
      });
    }
    if (isMalformedMultipart(error, request)) {
      return sendProblem(reply, publicUrl, 'bad_request', 'The multipart body is malformed or ended early; send it again as multipart/form-data with the boundary its Content-Type names.');
    }
    const status = error.statusCode ?? 500;
    const code = byStatus[status];
    if (code && status < 500) {
      const extra = status === 413 ? { limitBytes: limitOf(error, request, uploadMaxBytes) } : {};
      return sendProblem(reply, publicUrl, code, clientMessage(error, status), extra);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, publicUrl, 'internal_error', 'Something went wrong on our side. Quote the request id when you report it.');
  }

  app.setNotFoundHandler((request, reply) => {
    if (wantsHtmlPage(request)) {
      const path = request.url.split('?')[0] ?? '/';
      return sendPage(
        reply,
        404,
        'Page not found',
        `<p>There is no page at <code>${escapeHtml(path.slice(0, 200))}</code>.</p>` +
          '<p><a href="/">Home</a> · <a href="/dashboard">Dashboard</a> · <a href="/tools">Free tools</a> · <a href="/docs">API reference</a></p>',
      );
    }
    return sendProblem(reply, publicUrl, 'not_found', `Nothing is at ${request.method} ${request.url.split('?')[0]}.`);
  });
}

/**
 * A person's browser asking for a page (GET/HEAD naming `text/html` in Accept) outside the
 * API and OAuth paths gets an HTML 404; every other client gets the JSON problem document.
 */
function wantsHtmlPage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0] ?? '/';
  if (/^\/(api|oauth)(\/|$)/.test(path) || path.startsWith('/.well-known/')) return false;
  const accept = request.headers.accept ?? '';
  return /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept) && !/(^|,)\s*text\/html\s*;\s*q=0(\.0*)?\s*(,|$)/i.test(accept);
}

/** How long a client should wait after a database outage (the pool's connection timeout is 5 s). */
const storeRetryAfterSeconds = 5;

/**
 * busboy's errors for a body that does not follow its multipart Content-Type
 * (no or bad boundary, truncated parts). They are plain `Error`s without a
 * status, thrown while a route reads the parts.
 */
const multipartMessages = /^(Multipart: Boundary not found|Boundary required|Unexpected end of multipart data|\w+ terminated early due to unexpected end of multipart data|The needle (cannot be an empty|cannot have a length bigger))/;

function isMalformedMultipart(error: FastifyError, request: FastifyRequest): boolean {
  return error.statusCode === undefined && isMultipartBody(request) && multipartMessages.test(error.message);
}

/**
 * The limit a 413 names: the upload limit for a file, else the route's own
 * limit (`config.limitBytes` where the route declares one a person can act on,
 * otherwise its body limit) — not the upload limit for, say, a 2 MB JSON body
 * sent to a route that takes 1 MB.
 */
function limitOf(error: FastifyError, request: FastifyRequest, uploadMaxBytes: number): number {
  if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') return uploadMaxBytes;
  return request.routeOptions.config?.limitBytes ?? request.routeOptions.bodyLimit ?? uploadMaxBytes;
}

/** Fastify's client-error messages are safe to show, but we phrase the common ones for people. */
function clientMessage(error: FastifyError, status: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return `The body is not valid JSON: ${error.message}`;
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return 'The body or file is larger than the limit.';
    case 'GW_JSON_TOO_DEEP':
      return error.message;
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'This content type is not accepted here. Send application/json or multipart/form-data.';
    default:
      return status === 400 ? `The request could not be read: ${error.message}` : error.message;
  }
}
