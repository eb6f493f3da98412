/**
 * The API description (product.md §4): `/openapi.json` is OpenAPI 3.1 and
 * documents every `/api/v1/` route the app serves; `/docs` is a readable
 * reference served entirely from our own origin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.js';
import { startTestServer } from './helpers.js';

type Operation = {
  summary?: string;
  parameters?: { in: string; name: string; required?: boolean; schema?: { default?: unknown } }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  security?: Record<string, string[]>[];
};
type OpenApi = {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};

/** The routes the API tests exercise, as OpenAPI paths. */
const exercised: [string, string][] = [
  ['post', '/api/v1/auth/email/start'],
  ['post', '/api/v1/auth/email/verify'],
  ['get', '/api/v1/auth/session'],
  ['post', '/api/v1/auth/sign-out'],
  ['post', '/api/v1/knowledge-bases'],
  ['get', '/api/v1/knowledge-bases'],
  ['get', '/api/v1/knowledge-bases/{ragId}'],
  ['patch', '/api/v1/knowledge-bases/{ragId}'],
  ['delete', '/api/v1/knowledge-bases/{ragId}'],
  ['post', '/api/v1/knowledge-bases/{ragId}/sources'],
  ['get', '/api/v1/knowledge-bases/{ragId}/sources'],
  ['delete', '/api/v1/knowledge-bases/{ragId}/sources/{sourceId}'],
  ['get', '/api/v1/knowledge-bases/{ragId}/records'],
  ['delete', '/api/v1/knowledge-bases/{ragId}/records/{recordId}'],
  ['get', '/healthz'],
  ['get', '/readyz'],
  ['get', '/metrics'],
];

/** Every route the running app serves, from Fastify's route tree, as [method, OpenAPI path]. */
function servedRoutes(server: TestServer): [string, string][] {
  const stack: string[] = [];
  const routes: [string, string][] = [];
  for (const line of server.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│├└─ ]*)(\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    stack[depth - 1] = match[2] ?? '';
    const path = stack.join('').replace(/:(\w+)/g, '{$1}');
    for (const method of (match[3] ?? '').split(',').map((m) => m.trim().toLowerCase())) {
      if (method && method !== 'head' && method !== 'options') routes.push([method, path]);
    }
  }
  return routes;
}

let server: TestServer;
let doc: OpenApi;

beforeAll(async () => {
  server = await startTestServer();
  const response = await fetch(`${server.baseUrl}/openapi.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  doc = (await response.json()) as OpenApi;
});
afterAll(() => server?.stop());

const operations = () => Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method, path, op }) as const));

describe('happy path', () => {
  it('is an OpenAPI 3.1 document for version 1.0 of the API', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ title: 'Groundwork API', version: '1.0.0' });
  });

  it('reads the served routes correctly (self-check of the route-tree parser)', () => {
    const served = servedRoutes(server);
    for (const route of exercised) expect(served).toContainEqual(route);
    expect(served).toContainEqual(['get', '/docs/errors/{code}']);
  });

  it('documents every route the API tests exercise', () => {
    for (const [method, path] of exercised) {
      expect(doc.paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeDefined();
      expect(doc.paths[path]?.[method]?.summary, `${method.toUpperCase()} ${path} has a summary`).toBeTruthy();
    }
  });

  it('documents every /api/v1/ route the app serves, and nothing it does not serve', () => {
    const served = servedRoutes(server).filter(([, path]) => path.startsWith('/api/v1/'));
    const documented = operations()
      .filter(({ path }) => path.startsWith('/api/v1/'))
      .map(({ method, path }) => [method, path] as [string, string]);
    expect(served.length).toBeGreaterThanOrEqual(14);
    const key = ([method, path]: [string, string]) => `${method.toUpperCase()} ${path}`;
    expect(documented.map(key).sort()).toEqual(served.map(key).sort());
  });

  it('documents the upload as both multipart/form-data (field `file`) and JSON {name, text, format}', () => {
    const upload = doc.paths['/api/v1/knowledge-bases/{ragId}/sources']?.post;
    const content = upload?.requestBody?.content ?? {};
    expect(Object.keys(content).sort()).toEqual(['application/json', 'multipart/form-data']);
    expect(content['multipart/form-data']?.schema).toMatchObject({
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary' }, name: { type: 'string' } },
    });
    expect(content['application/json']?.schema).toMatchObject({
      type: 'object',
      required: ['name', 'text'],
      properties: { name: { type: 'string' }, text: { type: 'string' }, format: expect.any(Object) },
    });
    expect(Object.keys(upload?.responses ?? {}).sort()).toEqual(['201', '401', '404', '409', '413', '415', '422', '429', '503']);
  });

  it('declares the session cookie and bearer schemes, and uses them on every management route', () => {
    expect(doc.components.securitySchemes).toMatchObject({
      session: { type: 'apiKey', in: 'cookie', name: 'gw_session' },
      bearer: { type: 'http', scheme: 'bearer' },
    });
    for (const { method, path, op } of operations().filter(({ path }) => path.startsWith('/api/v1/knowledge-bases'))) {
      expect(op.security, `${method} ${path}`).toEqual([{ session: [] }, { bearer: [] }]);
      expect(Object.keys(op.responses), `${method} ${path} documents 401`).toContain('401');
    }
  });

  it('documents the API’s error responses as the Problem schema', () => {
    // (/readyz answers 503 with its own check report, not a problem document.)
    for (const { op } of operations().filter(({ path }) => path.startsWith('/api/v1/'))) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        const schemas = Object.values(response.content ?? {}).map((c) => c.schema);
        expect(schemas).toContainEqual({ $ref: '#/components/schemas/Problem' });
      }
    }
    expect(doc.components.schemas.Problem).toMatchObject({ required: ['type', 'title', 'status', 'detail', 'code', 'requestId'] });
  });

  it('every $ref resolves to a component', () => {
    const refs: string[] = [];
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) {
          if (key === '$ref' && typeof inner === 'string') refs.push(inner);
          else walk(inner);
        }
      }
    };
    walk(doc.paths);
    walk(doc.components);
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(doc.components.schemas[ref.slice('#/components/schemas/'.length)], ref).toBeDefined();
    }
  });

  it('paging parameters with a default are optional', () => {
    for (const { method, path, op } of operations()) {
      for (const parameter of op.parameters ?? []) {
        if (parameter.in === 'query' && parameter.schema?.default !== undefined) {
          expect(parameter.required ?? false, `${method} ${path} ?${parameter.name}`).toBe(false);
        }
      }
    }
  });
});

describe('errors', () => {
  it('the document is not served under a path that pretends to be a route', async () => {
    const response = await fetch(`${server.baseUrl}/api/v1/openapi.json`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    await response.arrayBuffer();
  });
});

describe('security', () => {
  it('/docs serves HTML from our own origin: no external scripts, styles or frames', async () => {
    const response = await fetch(`${server.baseUrl}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    const references = [...html.matchAll(/<(script|link|iframe|img)\b[^>]*\b(?:src|href)\s*=\s*["']([^"']+)["']/gi)].map((m) => m[2] as string);
    expect(references.length).toBeGreaterThan(2);
    for (const reference of references) {
      const url = new URL(reference, `${server.baseUrl}/docs/`);
      expect(url.origin, reference).toBe(server.baseUrl);
      const asset = await fetch(url);
      expect(asset.status, reference).toBe(200);
      await asset.arrayBuffer(); // read it all, or the server waits for this response at shutdown
    }
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)[a-z0-9.-]+\.[a-z]{2,}/i);
  });

  it('the docs page loads its API description from our origin', async () => {
    const initializer = await (await fetch(`${server.baseUrl}/docs/static/swagger-initializer.js`)).text();
    expect(initializer).not.toMatch(/url:\s*["']https?:/);
    expect(initializer).toMatch(/"validatorUrl":null/);
    const json = await fetch(`${server.baseUrl}/docs/json`);
    expect(json.status).toBe(200);
    expect(((await json.json()) as OpenApi).paths).toEqual(doc.paths);
  });

  it('the document does not list internal or development routes', () => {
    const paths = Object.keys(doc.paths);
    expect(paths).not.toContain('/dev/outbox');
    expect(paths.some((p) => p.startsWith('/docs'))).toBe(false);
  });
});
