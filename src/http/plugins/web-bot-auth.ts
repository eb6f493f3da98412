/**
 * Web Bot Auth on every request (product.md §7). A request with none of
 * `Signature`, `Signature-Input`, `Signature-Agent` is untouched. Otherwise
 * the signature must be a valid, fresh Web Bot Auth signature: then the
 * request is attributed to its bot (`request.bot`, and `request.botKey` — the
 * key thumbprint — which gives it its own whole-service rate-limit bucket),
 * logged as `bot verified`, and every later log line of the request carries
 * `bot`. Anything else is refused with 401 `invalid_signature`; the refusal is
 * raised by a second onRequest hook (`refuseBadSignatures`), registered after the
 * IP limit's: the IP limit has counted the request against its IP (a flood of bad
 * signatures is rate limited like any other traffic), and no body is read yet.
 * `registerWebBotAuth` must be registered before the IP limit. (The refusal was a
 * preParsing hook, the only one of the app: one more hook runner per request.)
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../../errors.js';
import { BotAuthError, type SignedRequest, type WebBotAuth } from '../../identity/web-bot-auth/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified signed bot behind this request: its agent (key directory URL) and key thumbprint. */
    bot?: { agent: string; keyid: string };
    /** Why a Web Bot Auth signature on this request was refused (answered with 401 before parsing). */
    botAuthError?: BotAuthError;
  }
}

/** The request as the signer saw it: our public origin (never the Host header) plus the request target. */
export function signedRequestOf(request: FastifyRequest, publicUrl: string): SignedRequest {
  const raw = request.raw.rawHeaders;
  const headers: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) headers.push([raw[i] ?? '', raw[i + 1] ?? '']);
  const target = request.raw.url ?? '/';
  return { method: request.method, targetUri: `${publicUrl}${target.startsWith('/') ? target : '/'}`, headers, client: request.ip };
}

export function registerWebBotAuth(app: FastifyInstance, auth: WebBotAuth, publicUrl: string): void {
  // Callback form: the common case (no signature headers) costs no promise.
  app.addHook('onRequest', (request, reply, done) => {
    const { headers } = request;
    if (headers.signature === undefined && headers['signature-input'] === undefined && headers['signature-agent'] === undefined) return done();
    auth.verify(signedRequestOf(request, publicUrl)).then(
      (bot) => {
        request.bot = { agent: bot.agent.uri, keyid: bot.keyid };
        request.botKey = bot.keyid;
        // Every later line of this request (down to "request completed") names the bot.
        const log = request.log.child({ bot: request.bot });
        request.log = log;
        reply.log = log;
        log.info('bot verified');
        done();
      },
      (err: unknown) => {
        if (!(err instanceof BotAuthError)) return done(err as Error);
        request.botAuthError = err;
        request.log.info({ botAuth: { reason: err.reason, detail: err.message } }, 'bot signature refused');
        done();
      },
    );
  });
}

/** The refusal of a request whose signature `registerWebBotAuth` refused; register after the IP limit. */
export function refuseBadSignatures(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const err = request.botAuthError;
    // An error, not a reply: an error stops Fastify's lifecycle at once, whereas a reply sent from a hook
    // is only seen as sent once every onSend hook has run.
    if (err) return done(new DomainError('invalid_signature', `The Web Bot Auth signature was refused: ${err.message}.`, { reason: err.reason }));
    done();
  });
}
