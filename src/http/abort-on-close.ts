import type { FastifyReply } from 'fastify';

/** A signal that aborts when the client goes away before the response has been sent. */
export function abortOnClose(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}
