/**
 * `POST /api/v1/knowledge-bases/{ragId}/sources/import` against a real web site served on loopback
 * (node:http on 127.0.0.1, allowed by the development policy of the test server): a sitemap, a
 * robots.txt with a group for our token, three pages with navigation, header, footer, aside and a
 * form around their content. Imports, re-imports after a change, single pages, per-page failures,
 * and — on a server whose importer has the production policy and an injected resolver — URLs
 * refused before anything is sent.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compose } from '../../src/compose.js';
import { loadConfig } from '../../src/config.js';
import { buildApp, loggerOptions } from '../../src/http/app.js';
import { WebImportService } from '../../src/knowledge/web-import/web-import-service.js';
import type { Connector, Resolver } from '../../src/net/guarded-fetch.js';
import type { ImportReport, KnowledgeRecord, Source } from '../../src/sdk/api-schemas.js';
import { type Client, freePort, signedInClient, type TestServer } from '../support/server.js';
import { expectProblem, startTestServer } from './helpers.js';

const SLOTS = 12;
const PAGE_BYTES = 4096;

// ---- The web site ---------------------------------------------------------------------------

interface Site {
  origin: string;
  /** Path → [status, content type, body] (or a redirect's location). */
  routes: Map<string, { status: number; type?: string; body?: string; location?: string }>;
  /** Paths requested, with the User-Agent they came with. */
  hits: { path: string; userAgent: string }[];
  close(): Promise<void>;
}

function page(title: string, main: string): string {
  return `<!doctype html><html><head><title>${title}</title><style>body{color:red}</style><script>var tracking = "pixel";</script></head>
<body>
<header><a href="/">Acme Shop logo</a><nav><ul><li><a href="/">Home</a></li><li><a href="/products">All products</a></li></ul></nav></header>
<aside><p>Summer sale banner: everything must go</p></aside>
<main>${main}
<form action="/subscribe"><label for="e">Your e-mail for our newsletter</label><input id="e" name="email"><button>Subscribe</button></form>
</main>
<footer><p>Copyright Acme Shop Ltd, all rights reserved</p><nav><a href="/legal">Legal notice</a></nav></footer>
</body></html>`;
}

const boilerplate = /Home|All products|logo|Summer sale|newsletter|Subscribe|Copyright|Legal notice|tracking|color:red/;

const faq = page('FAQ — Acme', '<h1>FAQ</h1><h2>Do you ship abroad?</h2><p>Yes, we ship to every country in the European Union.</p>');
const shipping = (days: number) =>
  page('Shipping — Acme', `<h1>Shipping</h1><p>Orders leave our warehouse within two working days.</p><h2>Returns</h2><p>Returns are free for ${days} days.</p>`);
const about = page('About us — Acme', '<article><h1>About us</h1><p>Acme has sold garden tools in Lyon since 1998.</p></article>');

function sitemap(origin: string, paths: string[]): string {
  const entries = paths.map((p) => `<url><loc>${p.startsWith('http') ? p : `${origin}${p}`}</loc><lastmod>2026-01-01</lastmod></url>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries}</urlset>`;
}

async function serveSite(): Promise<Site> {
  const routes: Site['routes'] = new Map();
  const hits: Site['hits'] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site');
    hits.push({ path: url.pathname, userAgent: String(req.headers['user-agent'] ?? '') });
    const route = routes.get(url.pathname);
    if (!route) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    if (route.location) return void res.writeHead(route.status, { location: route.location }).end();
    res.writeHead(route.status, { 'content-type': route.type ?? 'text/html; charset=utf-8' }).end(route.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, routes, hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

// ---- The service ----------------------------------------------------------------------------

let server: TestServer;
let site: Site;
let alice: Client;

beforeAll(async () => {
  [server, site] = await Promise.all([
    startTestServer({ MAX_RECORDS_PER_KB: String(SLOTS), MAX_KNOWLEDGE_BASES: '20', IMPORT_MAX_PAGE_BYTES: String(PAGE_BYTES) }),
    serveSite(),
  ]);
  alice = await signedInClient(server.baseUrl);
  const { routes, origin } = site;
  // Our token's group is the one honoured: under `*` everything would be refused.
  routes.set('/robots.txt', { status: 200, type: 'text/plain', body: 'User-agent: *\nDisallow: /\n\nUser-agent: GroundworkImporter\nDisallow: /private\nAllow: /\n' });
  routes.set('/sitemap.xml', { status: 200, type: 'application/xml', body: sitemap(origin, ['/faq', '/shipping', '/about', '/private', 'https://elsewhere.example/page']) });
  routes.set('/faq', { status: 200, body: faq });
  routes.set('/shipping', { status: 200, body: shipping(30) });
  routes.set('/about', { status: 200, body: about });
  routes.set('/private', { status: 200, body: page('Private', '<p>Staff only: the alarm code is 1234.</p>') });
  routes.set('/contact', { status: 200, body: page('Contact — Acme', '<h1>Contact</h1><p>Call us on weekdays between nine and five.</p>') });
  routes.set('/old-contact', { status: 301, location: '/contact' });
  routes.set('/elsewhere', { status: 302, location: `http://localhost:${new URL(origin).port}/contact` });
  routes.set('/data.json', { status: 200, type: 'application/json', body: '{"a":1}' });
  routes.set('/big', { status: 200, body: page('Big', `<p>${'word '.repeat(PAGE_BYTES)}</p>`) });
});
afterAll(async () => {
  await Promise.all([server?.stop(), site?.close()]);
});

const base = (ragId: string) => `/api/v1/knowledge-bases/${ragId}`;

async function newKb(): Promise<string> {
  const created = await alice.post<{ ragId: string }>('/api/v1/knowledge-bases', { botName: 'Importer' });
  expect(created.status).toBe(201);
  return created.body.ragId;
}

async function importUrl(ragId: string, url: string): Promise<ImportReport> {
  const response = await alice.post<ImportReport>(`${base(ragId)}/sources/import`, { url });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

async function recordsOf(ragId: string): Promise<KnowledgeRecord[]> {
  const response = await alice.get<{ items: KnowledgeRecord[] }>(`${base(ragId)}/records?limit=100`);
  expect(response.status).toBe(200);
  return response.body.items;
}

async function sourcesOf(ragId: string): Promise<Source[]> {
  const response = await alice.get<{ items: Source[] }>(`${base(ragId)}/sources?limit=100`);
  expect(response.status).toBe(200);
  return response.body.items;
}

const byUrl = (report: ImportReport, pathname: string) => report.pages.find((p) => new URL(p.url).pathname === pathname);

describe('importing a sitemap', () => {
  let ragId: string;
  let first: ImportReport;

  beforeAll(async () => {
    ragId = await newKb();
    first = await importUrl(ragId, `${site.origin}/sitemap.xml`);
  });

  it('stores each allowed page as a source named by its title that remembers its URL, without the page furniture', async () => {
    expect(first.kind).toBe('sitemap');
    expect(first.pages.map((p) => [new URL(p.url).pathname, p.status])).toEqual([
      ['/faq', 'added'],
      ['/shipping', 'added'],
      ['/about', 'added'],
      ['/private', 'skipped'],
    ]);
    expect(first.ignored).toEqual({ otherHost: 1, overLimit: 0 });
    const sources = await sourcesOf(ragId);
    expect(sources.map((s) => [s.sourceName, s.url, s.format])).toEqual([
      ['FAQ — Acme', `${site.origin}/faq`, 'html'],
      ['Shipping — Acme', `${site.origin}/shipping`, 'html'],
      ['About us — Acme', `${site.origin}/about`, 'html'],
    ]);
    const records = await recordsOf(ragId);
    expect(records.length).toBe(first.totals.recordsAdded);
    expect(first.totals).toMatchObject({ pages: 4, added: 3, skipped: 1, failed: 0 });
    const text = records.map((r) => `${r.title ?? ''}\n${r.text}`).join('\n');
    expect(text).toContain('Yes, we ship to every country in the European Union.');
    expect(text).toContain('Returns are free for 30 days.');
    expect(text).toContain('Acme has sold garden tools in Lyon since 1998.');
    expect(text).not.toMatch(boilerplate);
    expect(first.quota).toEqual({ limit: SLOTS, used: records.length, available: SLOTS - records.length });
  });

  it('honours robots.txt: the disallowed page is skipped with the reason and never fetched', () => {
    expect(byUrl(first, '/private')).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/robots\.txt disallows it.*Disallow: \/private/) });
    expect(site.hits.some((h) => h.path === '/private')).toBe(false);
    expect(site.hits.filter((h) => h.path === '/robots.txt')).toHaveLength(1);
    // Every request named the service.
    expect(site.hits.every((h) => /^GroundworkImporter\/1\.0 \(.*Groundwork/.test(h.userAgent))).toBe(true);
  });

  it('re-imports by fingerprint: only the changed page changes, the others are left alone with their record ids', async () => {
    const before = await recordsOf(ragId);
    const sourceIds = Object.fromEntries((await sourcesOf(ragId)).map((s) => [new URL(s.url ?? '').pathname, s.sourceId]));
    site.routes.set('/shipping', { status: 200, body: shipping(60) });
    const second = await importUrl(ragId, `${site.origin}/sitemap.xml`);
    expect(second.pages.map((p) => [new URL(p.url).pathname, p.status])).toEqual([
      ['/faq', 'unchanged'],
      ['/shipping', 'updated'],
      ['/about', 'unchanged'],
      ['/private', 'skipped'],
    ]);
    // The shipping page kept its unchanged section and replaced the changed one.
    expect(byUrl(second, '/shipping')).toMatchObject({ sourceId: sourceIds['/shipping'], records: { added: 1, removed: 1, kept: 1, duplicate: 0 } });
    const after = await recordsOf(ragId);
    const of = (records: KnowledgeRecord[], sourceId: string | undefined) =>
      records.filter((r) => r.sourceId === sourceId).map((r) => ({ id: r.recordId, text: r.text }));
    for (const unchanged of ['/faq', '/about']) expect(of(after, sourceIds[unchanged])).toEqual(of(before, sourceIds[unchanged]));
    const shippingAfter = of(after, sourceIds['/shipping']).map((r) => r.text);
    expect(shippingAfter.join('\n')).toContain('Returns are free for 60 days.');
    expect(shippingAfter.join('\n')).not.toContain('30 days');
    // The section that did not change is the same record as before.
    const keptBefore = of(before, sourceIds['/shipping']).find((r) => r.text.includes('warehouse'));
    expect(of(after, sourceIds['/shipping']).find((r) => r.text.includes('warehouse'))?.id).toBe(keptBefore?.id);
    expect(await sourcesOf(ragId)).toHaveLength(3);
  });

  it('reports pages gone from the sitemap without deleting them', async () => {
    site.routes.set('/sitemap.xml', { status: 200, type: 'application/xml', body: sitemap(site.origin, ['/faq', '/shipping']) });
    try {
      const third = await importUrl(ragId, `${site.origin}/sitemap.xml`);
      expect(third.pages.map((p) => p.status)).toEqual(['unchanged', 'unchanged']);
      expect(third.notInSitemap).toEqual([expect.objectContaining({ url: `${site.origin}/about`, sourceName: 'About us — Acme' })]);
      expect((await sourcesOf(ragId)).map((s) => s.sourceName)).toContain('About us — Acme');
    } finally {
      site.routes.set('/sitemap.xml', { status: 200, type: 'application/xml', body: sitemap(site.origin, ['/faq', '/shipping', '/about', '/private']) });
    }
  });
});

describe('importing a sitemap index', () => {
  it('reads its same-host sitemaps one level deep and imports their pages', async () => {
    site.routes.set('/sitemap-index.xml', {
      status: 200,
      type: 'text/xml',
      body: `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <sitemap><loc>${site.origin}/sitemap.xml</loc></sitemap>
        <sitemap><loc>${site.origin}/nested-index.xml</loc></sitemap>
        <sitemap><loc>https://elsewhere.example/sitemap.xml</loc></sitemap></sitemapindex>`,
    });
    site.routes.set('/nested-index.xml', {
      status: 200,
      type: 'application/xml',
      body: `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${site.origin}/deeper.xml</loc></sitemap></sitemapindex>`,
    });
    const ragId = await newKb();
    const report = await importUrl(ragId, `${site.origin}/sitemap-index.xml`);
    expect(report.kind).toBe('sitemap');
    expect(report.pages.map((p) => [new URL(p.url).pathname, p.status])).toEqual([
      ['/nested-index.xml', 'failed'],
      ['/faq', 'added'],
      ['/shipping', 'added'],
      ['/about', 'added'],
      ['/private', 'skipped'],
    ]);
    expect(byUrl(report, '/nested-index.xml')?.reason).toMatch(/one level deep/);
    expect(report.ignored.otherHost).toBeGreaterThanOrEqual(1);
    expect(site.hits.some((h) => h.path === '/deeper.xml')).toBe(false);
  });

  it('reports a sitemap nested too deep as a failed page, and imports nothing from it', async () => {
    site.routes.set('/deep-sitemap.xml', { status: 200, type: 'application/xml', body: `<urlset><url><loc>${site.origin}/faq</loc></url>${'<x>'.repeat(1_000_000)}</urlset>` });
    const ragId = await newKb();
    const report = await importUrl(ragId, `${site.origin}/deep-sitemap.xml`);
    expect(report.kind).toBe('sitemap');
    expect(report.pages.map((p) => [new URL(p.url).pathname, p.status])).toEqual([['/deep-sitemap.xml', 'failed']]);
    expect(byUrl(report, '/deep-sitemap.xml')?.reason).toMatch(/more than 16 levels deep/);
    expect(await recordsOf(ragId)).toEqual([]);
  });
});

describe('importing one page', () => {
  it('adds the page, following a same-host redirect; importing it again leaves it unchanged', async () => {
    const ragId = await newKb();
    const report = await importUrl(ragId, `${site.origin}/old-contact`);
    expect(report.kind).toBe('page');
    expect(report.pages).toEqual([
      expect.objectContaining({ url: `${site.origin}/old-contact`, status: 'added', title: 'Contact — Acme', records: { added: 1, duplicate: 0, removed: 0, kept: 0 } }),
    ]);
    const [record] = await recordsOf(ragId);
    expect(record?.text).toContain('Call us on weekdays between nine and five.');
    expect(record?.text).not.toMatch(boilerplate);
    expect((await importUrl(ragId, `${site.origin}/old-contact`)).pages[0]?.status).toBe('unchanged');
  });

  it.each([
    ['/data.json', /content type "application\/json"/],
    ['/missing', /answered 404/],
    ['/big', new RegExp(`larger than ${PAGE_BYTES} bytes`)],
    ['/elsewhere', /redirected to another host \(localhost\)/],
  ])('reports %s as a failed page with a clear reason and stores nothing', async (pathname, reason) => {
    const ragId = await newKb();
    const report = await importUrl(ragId, `${site.origin}${pathname}`);
    expect(report.pages).toEqual([expect.objectContaining({ status: 'failed', reason: expect.stringMatching(reason) })]);
    expect(report.totals).toMatchObject({ pages: 1, failed: 1, recordsAdded: 0 });
    expect(await sourcesOf(ragId)).toEqual([]);
  });

  it('fails a page that does not fit the quota with the upload’s error, storing nothing of it', async () => {
    const ragId = await newKb();
    const filler = JSON.stringify(Array.from({ length: SLOTS - 1 }, (_, i) => ({ question: `What is filler ${i}?`, answer: `Filler ${i} is nothing.` })));
    const pasted = await alice.post<{ added: number }>(`${base(ragId)}/sources`, { name: 'filler', text: filler, format: 'json' });
    expect(pasted.body.added).toBe(SLOTS - 1);
    const report = await importUrl(ragId, `${site.origin}/shipping`);
    expect(report.pages).toEqual([
      expect.objectContaining({ status: 'failed', code: 'quota_exceeded', reason: 'The upload has 2 new records but only 1 of 12 slots are free. Nothing was stored.' }),
    ]);
    expect((await sourcesOf(ragId)).map((s) => s.sourceName)).toEqual(['filler']);
    expect(report.quota).toEqual({ limit: SLOTS, used: SLOTS - 1, available: 1 });
  });

  it('refuses a URL that is not one, or not http(s), with 422', async () => {
    const ragId = await newKb();
    const ftp = await alice.post(`${base(ragId)}/sources/import`, { url: 'ftp://example.com/sitemap.xml' });
    expect(expectProblem(ftp, 422, 'url_not_allowed', server.baseUrl).detail).toMatch(/https/);
    expectProblem(await alice.post(`${base(ragId)}/sources/import`, { url: 'not a url' }), 422, 'url_not_allowed');
    expectProblem(await alice.post(`${base(ragId)}/sources/import`, {}), 422, 'validation_failed');
    const anonymous = await fetch(`${server.baseUrl}${base(ragId)}/sources/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.origin}/faq` }),
    });
    expect(anonymous.status).toBe(401);
  });
});

describe('the production fetch policy', () => {
  let stop: (() => Promise<void>) | undefined;
  let client: Client;
  let ragId: string;
  const resolver = vi.fn<Resolver>(async (hostname) => {
    if (hostname === 'intranet.shop.example') return [{ address: '10.1.2.3', family: 4 }];
    if (hostname === 'metadata.shop.example') return [{ address: '93.184.216.34', family: 4 }, { address: '169.254.169.254', family: 4 }];
    throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  });
  // Nothing may ever be sent: every URL below is refused before a connection.
  const connector = vi.fn<Connector>(async () => {
    throw new Error('no connection may be made');
  });

  beforeAll(async () => {
    // A real server whose importer has the production policy (its sign-in still uses the development outbox).
    const port = await freePort();
    const config = loadConfig({
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'gw-import-')),
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'silent',
      IP_RATE_PER_SECOND: '0',
      SECRET_KEY: 'test-secret-key-test-secret-key-0123456789',
    });
    const composition = await compose(config, pino(loggerOptions('silent') as pino.LoggerOptions));
    composition.deps.webImport = new WebImportService(composition.deps.knowledge, {
      ...config.webImport,
      policy: { allowLoopback: false },
      userAgent: 'GroundworkImporter/1.0',
      resolver,
      connector,
    });
    const app = await buildApp(composition.deps);
    await app.listen({ port, host: '127.0.0.1' });
    stop = async () => {
      await app.close();
      await composition.close();
    };
    client = await signedInClient(config.publicUrl);
    const created = await client.post<{ ragId: string }>('/api/v1/knowledge-bases', { botName: 'Prod' });
    ragId = created.body.ragId;
  });
  afterAll(async () => {
    await stop?.();
  });

  it.each([
    ['https://10.0.0.7/sitemap.xml', /public addresses/],
    ['https://intranet.shop.example/sitemap.xml', /public addresses/],
    ['https://metadata.shop.example/', /public addresses/],
    ['https://missing.shop.example/', /public addresses/],
    [`${'http'}://127.0.0.1:9/`, /https/],
    ['https://localhost/', /loopback/],
    ['https://user:secret@shop.example/', /credentials/],
  ])('refuses %s before any connection, naming no address', async (url, why) => {
    const response = await client.post(`/api/v1/knowledge-bases/${ragId}/sources/import`, { url });
    const problem = expectProblem(response, 422, 'url_not_allowed');
    expect(problem.detail).toMatch(why);
    expect(String(problem.detail)).not.toMatch(/10\.|169\.254|ENOTFOUND|secret/);
    expect(connector).not.toHaveBeenCalled();
  });
});

describe('imports per account and hour', () => {
  let capped: TestServer;
  beforeAll(async () => {
    capped = await startTestServer({ IMPORTS_PER_HOUR: '2' });
  });
  afterAll(() => capped?.stop());

  it('refuses the import past IMPORTS_PER_HOUR with 429 naming the limit; another account still imports', async () => {
    const [bob, carol] = await Promise.all([signedInClient(capped.baseUrl), signedInClient(capped.baseUrl)]);
    const kbOf = async (client: Client) => (await client.post<{ ragId: string }>('/api/v1/knowledge-bases', { botName: 'Hourly' })).body.ragId;
    const [bobKb, carolKb] = await Promise.all([kbOf(bob), kbOf(carol)]);
    const start = (client: Client, ragId: string) => client.post(`/api/v1/knowledge-bases/${ragId}/sources/import`, { url: `${site.origin}/faq` });
    expect((await start(bob, bobKb)).status).toBe(200);
    expect((await start(bob, bobKb)).status).toBe(200);
    const refused = await start(bob, bobKb);
    expect(expectProblem(refused, 429, 'rate_limited')).toMatchObject({ limit: 'import_hour' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await start(carol, carolKb)).status).toBe(200);
  });
});
