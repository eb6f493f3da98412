/**
 * JSON request bodies, parsed by Fastify's own parser (prototype-poisoning
 * checks included) after one linear scan that refuses nesting deeper than
 * `maxJsonDepth`. `JSON.parse` itself copes with a 100,000-deep array, but
 * everything after it that walks the value — validation, `structuredClone`,
 * `JSON.stringify` — recurses and overflows the stack. No API body needs more
 * than a few levels; uploaded JSON files are read by the extractor, not here.
 */
import type { FastifyInstance } from 'fastify';

export const maxJsonDepth = 256;

/** A client error Fastify's error handler turns into `400 bad_request` with this message. */
class TooDeepError extends Error {
  readonly statusCode = 400;
  readonly code = 'GW_JSON_TOO_DEEP';
  constructor() {
    super(`The JSON body nests objects or arrays more than ${maxJsonDepth} levels deep.`);
  }
}

/** The deepest nesting of `[` and `{` outside strings; stops counting once past `limit`. */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Replaces the application-wide `application/json` parser; register before any route or child scope. */
export function registerJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (jsonDepthExceeds(text, maxJsonDepth)) {
      done(new TooDeepError(), undefined);
      return;
    }
    parse(request, text, done);
  });
}
