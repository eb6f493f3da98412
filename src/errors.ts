/**
 * The one error catalogue. Every failure the service reports has a stable
 * snake_case code, an HTTP status and a title; the problem document's `type`
 * is `${PUBLIC_URL}/docs/errors/<code>` (RFC 9457 §3.1.1), rendered from this table.
 * OAuth endpoints use their own RFC 6749 bodies and do not go through here.
 */
export interface ErrorSpec {
  status: number;
  title: string;
  /** One sentence for the error's documentation page: when it happens and what to do. */
  help: string;
}

export const catalogue = {
  bad_request: {
    status: 400,
    title: 'Bad request',
    help: 'The request could not be read: malformed JSON, a missing body or a wrong content type. Fix the request and send it again.',
  },
  validation_failed: {
    status: 422,
    title: 'Validation failed',
    help: 'A field is missing, has the wrong type or is out of range. `errors` lists each problem with its location.',
  },
  unauthorized: {
    status: 401,
    title: 'Authentication required',
    help: 'Send a session cookie, `Authorization: Bearer <token or account key>`, or the `X-API-Key` the endpoint expects.',
  },
  invalid_signature: {
    status: 401,
    title: 'Invalid signature',
    help: "The request carries Web Bot Auth headers (`Signature-Agent`, `Signature-Input`, `Signature`) but the signature is missing, malformed, expired, replayed or does not verify with a key of the agent's directory; `reason` says which. Sign again with fresh `created`, `expires` and `nonce`, or send the request without these headers.",
  },
  forbidden: {
    status: 403,
    title: 'Forbidden',
    help: 'The credentials are valid but do not allow this action.',
  },
  csrf_failed: {
    status: 403,
    title: 'CSRF check failed',
    help: 'Cookie-authenticated writes must send the `X-CSRF-Token` header with the value of the `gw_csrf` cookie, from a page of the same origin.',
  },
  origin_not_allowed: {
    status: 403,
    title: 'Origin not allowed',
    help: "The page's domain is not on the key's whitelist. Add it on the API Keys tab (exact host, or *.example.com for subdomains).",
  },
  not_found: {
    status: 404,
    title: 'Not found',
    help: 'Nothing exists at this address, or it belongs to another account.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    help: 'The resource exists but does not accept this HTTP method.',
  },
  kb_limit_reached: {
    status: 409,
    title: 'Knowledge base limit reached',
    help: 'The account already has the maximum number of active knowledge bases. Delete one to free a slot.',
  },
  quota_exceeded: {
    status: 409,
    title: 'Record quota exceeded',
    help: 'The upload holds more new records than the knowledge base has free slots. Nothing was stored; `needed` and `available` give the counts.',
  },
  payload_too_large: {
    status: 413,
    title: 'Payload too large',
    help: 'The file or body is larger than the limit in `limitBytes`.',
  },
  too_many_records: {
    status: 413,
    title: 'Too many records',
    help: 'The upload would become more records (duplicates included) than one upload may hold, the limit in `maxRecords`. Nothing was stored; split the file or remove repeated entries.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    help: 'Upload `.json`, `.jsonl`, `.txt`, `.md`, `.csv`, `.pdf` or `.html` files, or send JSON with the expected content type.',
  },
  invalid_json: {
    status: 422,
    title: 'Invalid JSON',
    help: 'The uploaded JSON could not be parsed; `line` and `column` point at the first error.',
  },
  invalid_utf8: {
    status: 422,
    title: 'Not UTF-8 text',
    help: 'The file is not valid UTF-8 text; `offset` is the byte where decoding failed. Save it as UTF-8 and upload again.',
  },
  no_extractable_text: {
    status: 422,
    title: 'No extractable text',
    help: 'The file parsed but holds no text that can become a record.',
  },
  too_deeply_nested: {
    status: 422,
    title: 'Too deeply nested',
    help: 'The file nests JSON objects and arrays, or HTML elements, deeper than the extractor follows.',
  },
  url_not_allowed: {
    status: 422,
    title: 'URL not allowed',
    help: 'The URL to import was refused before any request was sent: it must be an https URL without credentials whose host resolves only to public addresses (plain http and loopback hosts only on a development server), or its host does not resolve. Nothing was fetched or stored.',
  },
  invalid_code: {
    status: 400,
    title: 'Invalid or expired code',
    help: 'The sign-in code is wrong, used or expired. Request a new one.',
  },
  too_many_attempts: {
    status: 429,
    title: 'Too many attempts',
    help: 'Too many wrong codes or requests. Wait `retryAfterMs` milliseconds, or request a new code.',
  },
  rate_limited: {
    status: 429,
    title: 'Rate limit exceeded',
    help: 'A rate limit was reached; `limit` names it and `Retry-After` says when to try again.',
  },
  not_ready: {
    status: 503,
    title: 'Not ready',
    help: 'A backing service (database or Redis) is unreachable.',
  },
  service_unavailable: {
    status: 503,
    title: 'Service unavailable',
    help: 'The database cannot be reached for the moment. Retry after the seconds in `Retry-After`; `/readyz` says when it is back.',
  },
  time_limit_exceeded: {
    status: 422,
    title: 'Time limit exceeded',
    help: 'The work took longer than the limit in `limitMs` and was ended. Send a smaller input.',
  },
  server_busy: {
    status: 503,
    title: 'Server busy',
    help: 'Too much work is queued right now. Retry after the seconds in `Retry-After`.',
  },
  client_closed_request: {
    status: 499,
    title: 'Client closed request',
    help: 'The client disconnected before the work was done (an upload waiting for, or being read by, an ingestion thread), so it was stopped and nothing was stored. The client never sees this answer; it appears in logs and metrics. Send the request again and keep the connection open.',
  },
  internal_error: {
    status: 500,
    title: 'Internal error',
    help: 'Something failed on our side. The `requestId` identifies the failure in our logs.',
  },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof catalogue;

/**
 * A failure the domain expects and can name. Carries the catalogue code, a
 * human detail, and extra members that go into the problem document as-is
 * (e.g. `line`, `column`, `needed`, `available`). Never holds secrets.
 */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly extra: Record<string, unknown>;
  /** What the HTTP layer may need beyond the body (e.g. the limiter decision behind a 429); never serialised. */
  readonly context: { rateLimit?: unknown } | undefined;

  constructor(code: ErrorCode, detail: string, extra: Record<string, unknown> = {}, context?: { rateLimit?: unknown }) {
    super(detail);
    this.name = 'DomainError';
    this.code = code;
    this.extra = extra;
    this.context = context;
  }

  get status(): number {
    return catalogue[this.code].status;
  }
}

export function isDomainError(value: unknown): value is DomainError {
  return value instanceof DomainError;
}
