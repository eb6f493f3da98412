/**
 * The API reference: OpenAPI 3.1 generated from the route schemas at
 * `/openapi.json`, Swagger UI (served from our own origin) at `/docs`, and a
 * page per error code at `/docs/errors/{code}` — the `type` URLs of problem documents.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { Type } from 'typebox';
import { catalogue, type ErrorCode } from '../../errors.js';
import { sendProblem } from '../problem.js';
import { escapeHtml } from '../html.js';
import type { App } from '../types.js';
import { faviconSvg } from './web.js';

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · Groundwork</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1f2933}code{background:#f0f2f5;padding:.1em .3em;border-radius:3px}
table{border-collapse:collapse}td,th{padding:.3rem .6rem;border-bottom:1px solid #e4e7eb;text-align:left}@media(prefers-color-scheme:dark){body{background:#111418;color:#e4e7eb}code{background:#23272e}}</style>
</head><body>${body}</body></html>`;
}

/** Swagger UI in the site's look: its colours, font and a header link back to the site. */
const docsThemeCss = `:root{--bg:#f7f8fa;--surface:#fff;--text:#1f2933;--muted:#52606d;--border:#cbd2d9;--accent:#2454d6;--focus:#f0b429;color-scheme:light}
body{margin:0;background:var(--bg);color:var(--text);font:16px/1.55 system-ui,sans-serif}
.swagger-ui,.swagger-ui .info .title,.swagger-ui .opblock-tag,.swagger-ui .opblock .opblock-summary-description,.swagger-ui table thead tr th,.swagger-ui .parameter__name,.swagger-ui .response-col_status{font-family:system-ui,sans-serif;color:var(--text)}
.swagger-ui .topbar{background:var(--surface);border-bottom:1px solid var(--border);padding:.6rem 0}
.swagger-ui .topbar .download-url-wrapper{display:none}
.swagger-ui .topbar a{max-width:none}.swagger-ui .topbar img{height:28px}
.gw-back{display:block;max-width:1460px;margin:0 auto;padding:.5rem 20px 0;font-weight:600}
.swagger-ui a,.gw-back{color:var(--accent)}
.swagger-ui .info a{color:var(--accent)}
.swagger-ui .btn.execute{background:var(--accent);border-color:var(--accent)}
.swagger-ui .opblock-tag{border-bottom-color:var(--border)}
.swagger-ui .scheme-container{background:var(--surface);box-shadow:none;border-bottom:1px solid var(--border)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
`;

/**
 * Names for Swagger UI's unnamed controls (axe: image-alt, label, select-name), applied as it
 * renders, and the link back to the site above the reference.
 */
const docsThemeJs = `(function () {
  function name(el, text) { if (!el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby')) el.setAttribute('aria-label', text); }
  function labelled(el) {
    var label = (el.id && document.querySelector('label[for="' + CSS.escape(el.id) + '"]')) || el.closest('label');
    return label && label.textContent.trim() !== '' && label.textContent.trim() !== el.textContent.trim();
  }
  function fix(root) {
    root.querySelectorAll('img:not([alt])').forEach(function (img) { img.setAttribute('alt', img.closest('.topbar') ? 'Groundwork API reference' : ''); });
    root.querySelectorAll('select').forEach(function (el) {
      if (labelled(el)) return;
      var row = el.closest('tr');
      var param = row && row.querySelector('.parameter__name');
      name(el, el.closest('.servers') ? 'Server' : el.closest('.content-type-wrapper, .response-control-media-type, .body-param-content-type') ? 'Media type' : param ? param.textContent.replace(/[*].*$/, '').trim() : 'Option');
    });
    root.querySelectorAll('input:not([type=hidden]), textarea').forEach(function (el) {
      if (labelled(el)) return;
      var row = el.closest('tr');
      var param = row && row.querySelector('.parameter__name');
      name(el, param ? param.textContent.replace(/[*].*$/, '').trim() : el.getAttribute('placeholder') || (el.closest('.operation-filter-input') ? 'Filter by tag' : el.tagName === 'TEXTAREA' ? 'Request body' : 'Value'));
    });
    if (!document.querySelector('.gw-back')) {
      var back = document.createElement('a');
      back.className = 'gw-back';
      back.href = '/';
      back.textContent = '\u2190 Back to Groundwork';
      document.body.insertBefore(back, document.body.firstChild);
    }
  }
  fix(document);
  new MutationObserver(function () { fix(document); }).observe(document.body, { childList: true, subtree: true });
})();
`;

export async function docsRoutes(app: App, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Groundwork API',
        version: '1.0.0',
        description:
          'Grounded knowledge-base answers, agent identity and utilities. Errors are RFC 9457 problem documents; see [the error catalogue](/docs/errors).',
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'gw_session', description: 'Dashboard session; writes also need the X-CSRF-Token header.' },
          bearer: { type: 'http', scheme: 'bearer', description: 'OAuth access token or account API key.' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'A knowledge-base query key (gw_live_…), tied to one knowledge base and its domain whitelist.' },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transform: ({ schema, url }) => {
      // Multipart request bodies are documented next to the JSON one (see routes/sources.ts).
      const record = schema as Record<string, unknown> | undefined;
      const multipart = record?.['x-multipart-body'];
      if (!record || !multipart) return { schema: record as never, url };
      const { 'x-multipart-body': _omit, body, ...rest } = record;
      const content = ((body as { content?: Record<string, unknown> } | undefined)?.content ?? {}) as Record<string, unknown>;
      return { schema: { ...rest, body: { content: { ...content, 'multipart/form-data': { schema: multipart } } } } as never, url };
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { validatorUrl: null, docExpansion: 'list', deepLinking: true } as never,
    // The site's icon as the top-bar logo, linking home.
    logo: { type: 'image/svg+xml', content: Buffer.from(faviconSvg), href: '/', target: '_self' },
    theme: {
      title: 'API reference · Groundwork',
      css: [{ filename: 'groundwork.css', content: docsThemeCss }],
      js: [{ filename: 'groundwork-a11y.js', content: docsThemeJs }],
      favicon: [{ filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(faviconSvg) }],
    },
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  // The REST API's resource identifier (RFC 9728, the api-catalog anchor) answers with where to read about it.
  app.get('/api/v1', { schema: { hide: true } }, async () => ({
    name: 'Groundwork API',
    version: '1.0',
    openapi: `${publicUrl}/openapi.json`,
    documentation: `${publicUrl}/docs`,
    resourceMetadata: `${publicUrl}/.well-known/oauth-protected-resource/api/v1`,
  }));

  app.get('/docs/errors', { schema: { hide: true } }, async (_request, reply) => {
    const rows = (Object.entries(catalogue) as [ErrorCode, (typeof catalogue)[ErrorCode]][])
      .map(([code, spec]) => `<tr><td><a href="/docs/errors/${code}"><code>${code}</code></a></td><td>${spec.status}</td><td>${escapeHtml(spec.title)}</td></tr>`)
      .join('');
    return reply
      .type('text/html; charset=utf-8')
      .send(page('Errors', `<h1>Error catalogue</h1><p>Every error is an RFC 9457 problem document whose <code>type</code> links here.</p><table><tr><th>code</th><th>status</th><th>title</th></tr>${rows}</table>`));
  });

  app.get(
    '/docs/errors/:code',
    { schema: { hide: true, params: Type.Object({ code: Type.String({ maxLength: 64 }) }) } },
    async (request, reply) => {
      const code = request.params.code as ErrorCode;
      if (!Object.hasOwn(catalogue, code)) return sendProblem(reply, publicUrl, 'not_found', 'No such error code.');
      const spec = catalogue[code];
      return reply
        .type('text/html; charset=utf-8')
        .send(
          page(
            spec.title,
            `<p><a href="/docs/errors">Error catalogue</a></p><h1>${escapeHtml(spec.title)}</h1><p>Code <code>${code}</code>, HTTP status ${spec.status}.</p><p>${escapeHtml(spec.help)}</p>`,
          ),
        );
    },
  );
}
