/**
 * The pieces of import from a URL: robots.txt rules (RFC 9309 matching), sitemaps, page titles,
 * what the HTML extractor drops, and the fetcher against real loopback servers — robots.txt
 * missing, failing or unreachable, and redirects (same host only, each hop vetted, a few at most).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractHtml } from '../../src/knowledge/extraction/html.js';
import { parseRobots, robotsVerdict } from '../../src/knowledge/web-import/robots.js';
import { MAX_SITEMAP_DEPTH, parseSitemap, rootElement, SitemapTooDeep } from '../../src/knowledge/web-import/sitemap.js';
import { Slices } from '../../src/time-slices.js';
import { pageTitle } from '../../src/knowledge/web-import/title.js';
import { WebFetcher } from '../../src/knowledge/web-import/web-fetch.js';
import { guardedGet } from '../../src/net/guarded-fetch.js';

const allowed = (robots: string, path: string) => robotsVerdict(parseRobots(robots), new URL(path, 'https://shop.example')).allowed;

describe('robots.txt', () => {
  const robots = [
    'User-agent: *',
    'Disallow: /',
    '',
    'User-agent: OtherBot',
    'User-agent: groundworkimporter # our token, in any case',
    'Disallow: /private',
    'Allow: /private/press',
    'Disallow: /*.pdf$',
    'Disallow: /search?',
    'Disallow:',
  ].join('\n');

  it('follows the group of our token rather than *, longest match first', () => {
    expect(allowed(robots, '/faq')).toBe(true);
    expect(allowed(robots, '/private')).toBe(false);
    expect(allowed(robots, '/private/staff.html')).toBe(false);
    expect(allowed(robots, '/private/press/2026')).toBe(true);
    expect(allowed(robots, '/files/price.pdf')).toBe(false);
    expect(allowed(robots, '/files/price.pdf?v=2')).toBe(true);
    expect(allowed(robots, '/search?q=hat')).toBe(false);
    expect(allowed(robots, '/search')).toBe(true);
  });

  it('falls back to *, lets Allow win a tie, and allows everything without rules', () => {
    expect(allowed('User-agent: *\nDisallow: /shop\nAllow: /shop\n', '/shop/hat')).toBe(true);
    expect(allowed('User-agent: *\nDisallow: /a\n', '/a/b')).toBe(false);
    expect(allowed('User-agent: *\nDisallow: /a\n', '/b')).toBe(true);
    expect(allowed('', '/anything')).toBe(true);
    expect(allowed('User-agent: SomeoneElse\nDisallow: /\n', '/anything')).toBe(true);
    expect(robotsVerdict(parseRobots('User-agent: *\nDisallow: /x\n'), new URL('https://s.example/x'))).toEqual({
      allowed: false,
      reason: 'robots.txt disallows it for GroundworkImporter ("Disallow: /x")',
    });
  });

  it('matches hostile wildcard patterns in linear time', () => {
    const hostile = `User-agent: *\nDisallow: /${'*a'.repeat(200)}b\n`;
    expect(allowed(hostile, `/${'a'.repeat(5000)}`)).toBe(true);
  });
});

describe('sitemaps and titles', () => {
  it('reads the page URLs of a urlset, not those of images, and the sitemaps of an index', async () => {
    const urlset = `<?xml version="1.0"?><!-- generated --><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
      <url><loc> https://shop.example/a?x=1&amp;y=2 </loc><image:image><image:loc>https://cdn.example/a.png</image:loc></image:image></url>
      <url><loc>https://shop.example/b</loc></url></urlset>`;
    expect(await parseSitemap(urlset)).toEqual({ kind: 'urlset', locs: ['https://shop.example/a?x=1&y=2', 'https://shop.example/b'] });
    const index = '<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:sitemap><sm:loc>https://shop.example/s1.xml</sm:loc></sm:sitemap></sm:sitemapindex>';
    expect(await parseSitemap(index)).toEqual({ kind: 'sitemapindex', locs: ['https://shop.example/s1.xml'] });
    expect(await parseSitemap('<rss><channel/></rss>')).toBeUndefined();
    expect(rootElement('<!doctype html><html><body></body></html>')).toBe('html');
  });

  it(`reads a sitemap ${MAX_SITEMAP_DEPTH} elements deep and refuses one nested deeper, without reading the rest`, async () => {
    const nested = (levels: number) => `<urlset><url><loc>https://shop.example/a</loc></url>${'<x>'.repeat(levels - 1)}</urlset>`;
    expect(await parseSitemap(nested(MAX_SITEMAP_DEPTH))).toEqual({ kind: 'urlset', locs: ['https://shop.example/a'] });
    await expect(parseSitemap(nested(MAX_SITEMAP_DEPTH + 1))).rejects.toBeInstanceOf(SitemapTooDeep);
    // Ten megabytes of nesting: refused after its first piece (htmlparser2 would take minutes over all of it).
    await expect(parseSitemap(`<urlset>${'<url>'.repeat(2_000_000)}`)).rejects.toThrow(/more than 16 levels deep/);
  });

  it('reads a large sitemap in pieces, letting other work run between them', async () => {
    const urls = 60_000;
    const big = `<urlset>${Array.from({ length: urls }, (_, i) => `<url><loc>https://shop.example/p/${i}</loc></url>`).join('')}</urlset>`;
    let pauses = 0;
    const everyPiece = new Slices(async () => {
      pauses++;
    }, 0);
    const sitemap = await parseSitemap(big, everyPiece);
    expect(sitemap?.locs).toHaveLength(urls);
    expect(pauses).toBe(Math.ceil(big.length / (64 * 1024)));
  });

  it('names a page by its title', () => {
    expect(pageTitle(Buffer.from('<html><head><title>\n Shipping &amp; returns </title></head><body><svg><title>icon</title></svg></body></html>'))).toBe('Shipping & returns');
    expect(pageTitle(Buffer.from('<html><body><svg><title>icon</title></svg><p>No title</p></body></html>'))).toBeNull();
  });

  it('drops forms and their controls from HTML, except a form wrapping the whole page', () => {
    const text = (html: string) => [...extractHtml(html)].map((d) => d.text).join('\n');
    const inMain = text('<body><main><p>Opening hours: nine to five.</p><form><label>E-mail for our newsletter</label><input><p>We never spam.</p><button>Go</button></form></main></body>');
    expect(inMain).toContain('Opening hours');
    expect(inMain).not.toMatch(/newsletter|spam|Go/);
    const webForms = text('<body><form id="form1"><div><h1>Prices</h1><p>Hats cost ten euros.</p><label>Search</label><input></div></form></body>');
    expect(webForms).toContain('Hats cost ten euros.');
    expect(webForms).not.toContain('Search');
  });
});

describe('fetching (loopback servers, development policy)', () => {
  const servers: http.Server[] = [];
  const development = { allowLoopback: true };
  const userAgent = 'GroundworkImporter/1.0';

  async function serve(handler: http.RequestListener): Promise<string> {
    const server = http.createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  let missing: string;
  let failing: string;
  let redirects: string;
  beforeAll(async () => {
    missing = await serve((_req, res) => res.writeHead(404).end());
    failing = await serve((req, res) => res.writeHead(req.url === '/robots.txt' ? 503 : 200, { 'content-type': 'text/html' }).end('<p>x</p>'));
    redirects = await serve((req, res) => {
      const port = (req.socket.address() as AddressInfo).port;
      const hop = Number(/^\/hop(\d+)$/.exec(req.url ?? '')?.[1] ?? -1);
      if (hop > 0) return void res.writeHead(302, { location: `/hop${hop - 1}` }).end();
      if (hop === 0) return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>arrived</p>');
      if (req.url === '/to-localhost') return void res.writeHead(301, { location: `http://localhost:${port}/hop0` }).end();
      if (req.url === '/to-metadata') return void res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      res.writeHead(404).end();
    });
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  });

  const fetcher = () => new WebFetcher({ policy: development, userAgent }, Date.now() + 60_000, 60_000);

  it('allows everything when robots.txt is missing, and nothing when it answers 5xx', async () => {
    expect(await fetcher().robotsFor(new URL(`${missing}/a`))).toEqual({ rules: [] });
    const failed = await fetcher().robotsFor(new URL(`${failing}/a`));
    expect(robotsVerdict(failed, new URL(`${failing}/a`))).toEqual({ allowed: false, reason: 'robots.txt answered 503, so the site is treated as disallowed' });
  });

  it('treats an unreachable robots.txt as disallowing the site', async () => {
    const closed = await serve(() => undefined);
    const port = new URL(closed).port;
    await new Promise((resolve) => servers.pop()?.close(resolve));
    const rules = await fetcher().robotsFor(new URL(`http://127.0.0.1:${port}/a`));
    expect(rules.disallowAll).toMatch(/robots\.txt could not be fetched \(.*ECONNREFUSED.*\)/);
  });

  it('follows up to three same-host redirects, and no further', async () => {
    const get = (path: string) => fetcher().get(new URL(`${redirects}${path}`), ['text/html'], 1024, 'page');
    const arrived = await get('/hop3');
    expect(arrived.body.toString()).toBe('<p>arrived</p>');
    expect(arrived.url.pathname).toBe('/hop0');
    await expect(get('/hop4')).rejects.toThrow(/redirected more than 3 times/);
  });

  it('refuses a redirect to another host, and vets every hop like the first URL', async () => {
    const get = (path: string) => fetcher().get(new URL(`${redirects}${path}`), ['text/html'], 1024, 'page');
    await expect(get('/to-localhost')).rejects.toThrow(/redirected to another host \(localhost\)/);
    await expect(get('/to-metadata')).rejects.toThrow(/another host/);
    // With the default of no redirects, the guard refuses the first one (Web Bot Auth's behaviour).
    await expect(guardedGet(`${redirects}/hop1`, { policy: development, accept: ['text/html'] })).rejects.toThrow(/redirects are not followed/);
  });

  it('starts no request once the import’s time is up', async () => {
    const late = new WebFetcher({ policy: development, userAgent }, Date.now() - 1, 120_000);
    expect(() => late.get(new URL(`${redirects}/hop0`), ['text/html'], 1024, 'page')).toThrow(/time limit \(120 s\) was reached/);
  });
});
