/**
 * Multipart bodies outside the upload route. `@fastify/multipart` is registered only in the upload
 * route's scope (app.ts): registered for the whole application, its request hooks (a promise and a
 * 'close' listener each) ran on every request, queries included. Every other route accepts a
 * multipart body unread, as the plugin's own parser did, and `isMultipartBody` says what the
 * plugin's `request.isMultipart()` said, on any route.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Requests whose body the application-wide parser below accepted as multipart, unread. */
const unread = new WeakSet<FastifyRequest>();

/** The application-wide `multipart/form-data` parser: the body is left unread and undefined. */
export function acceptMultipartUnread(app: FastifyInstance): void {
  app.addContentTypeParser('multipart/form-data', (request, _payload, done) => {
    unread.add(request);
    done(null);
  });
}

/** Whether the request came with a multipart body (read by the upload route, unread elsewhere). */
export function isMultipartBody(request: FastifyRequest): boolean {
  return unread.has(request) || (typeof request.isMultipart === 'function' && request.isMultipart());
}
