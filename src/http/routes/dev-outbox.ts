/**
 * The development outbox: mail that would have been sent, readable in the
 * browser (HTML) or by tests (JSON). Registered only in development mode
 * (loopback PUBLIC_URL or NODE_ENV=development, never production).
 */
import type { OutboxMailer } from '../../adapters/mail/outbox-mailer.js';
import { escapeHtml } from '../html.js';
import type { App } from '../types.js';

export function devOutboxRoutes(app: App, outbox: OutboxMailer): void {
  app.get('/dev/outbox', { schema: { hide: true } }, async (request, reply) => {
    const messages = outbox.list();
    reply.header('cache-control', 'no-store');
    if (!request.headers.accept?.includes('text/html')) return { messages };
    const items = messages
      .map((m) => `<article><h2>${escapeHtml(m.subject)}</h2><p>To ${escapeHtml(m.to)} · ${escapeHtml(m.sentAt)}</p><pre>${escapeHtml(m.text)}</pre></article>`)
      .join('');
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Development outbox</title><style>body{font:16px/1.5 system-ui;max-width:46rem;margin:2rem auto;padding:0 1rem}pre{white-space:pre-wrap;background:#f4f5f7;padding:1rem}</style></head><body><h1>Development outbox</h1><p>Mail is not sent in development: it lands here. This page does not exist in production.</p>${items || '<p>No mail yet.</p>'}</body></html>`,
      );
  });
}
