/**
 * Sitemaps (sitemaps.org 0.9): a `<urlset>` lists pages, a `<sitemapindex>` lists sitemaps; both
 * name them in `<loc>`. Read with htmlparser2 in XML mode (no DOM, entities decoded, namespace
 * prefixes ignored). Pure: which of the URLs are fetched is web-import-service.ts's business.
 *
 * A sitemap may be 10 MB and is read on the HTTP thread: in 64 KB pieces, pausing every few
 * milliseconds (time-slices.ts), and no deeper than MAX_SITEMAP_DEPTH elements, because
 * htmlparser2 shifts and searches its array of open elements at every tag (time quadratic in the
 * depth: 80,000 nested elements took 0.5 s).
 */
import { Parser } from 'htmlparser2';
import { Slices } from '../../time-slices.js';

export type SitemapKind = 'urlset' | 'sitemapindex';

export interface ParsedSitemap {
  kind: SitemapKind;
  /** The `<loc>` values in document order, trimmed, empty ones dropped. */
  locs: string[];
}

const localName = (name: string) => name.slice(name.lastIndexOf(':') + 1).toLowerCase();

/** The name of the document's root element (lowercase, no prefix), or undefined when there is none. */
export function rootElement(text: string): string | undefined {
  let root: string | undefined;
  const parser = new Parser(
    {
      onopentag: (name) => {
        root ??= localName(name);
        parser.pause();
      },
    },
    { xmlMode: true },
  );
  // The root element comes after at most a prolog, comments and a doctype.
  parser.write(text.slice(0, 64 * 1024));
  return root;
}

/** Deepest element nesting a sitemap is read to: a page's `<loc>` is at depth 3, an image's or a video's a level or two below. */
export const MAX_SITEMAP_DEPTH = 16;

const CHUNK = 64 * 1024;

/** A sitemap that nests elements deeper than MAX_SITEMAP_DEPTH: not read further. */
export class SitemapTooDeep extends Error {
  constructor() {
    super(`the sitemap nests elements more than ${MAX_SITEMAP_DEPTH} levels deep`);
  }
}

/**
 * The sitemap in `text`, or undefined when its root element is neither `<urlset>` nor
 * `<sitemapindex>`; throws SitemapTooDeep. `slices` paces the reading (other requests run between
 * its pieces).
 */
export async function parseSitemap(text: string, slices = new Slices()): Promise<ParsedSitemap | undefined> {
  const root = rootElement(text);
  if (root !== 'urlset' && root !== 'sitemapindex') return undefined;
  const locs: string[] = [];
  let depth = 0;
  let tooDeep = false;
  let inLoc = false;
  let current = '';
  const parser = new Parser(
    {
      onopentag: (name) => {
        if (++depth > MAX_SITEMAP_DEPTH) {
          tooDeep = true;
          parser.pause();
          return;
        }
        // Only <loc> directly in an entry (<url> or <sitemap>) at depth 3: not an image's or a video's.
        if (localName(name) === 'loc' && depth === 3) {
          inLoc = true;
          current = '';
        }
      },
      ontext: (data) => {
        if (inLoc) current += data;
      },
      onclosetag: (name) => {
        if (inLoc && localName(name) === 'loc') {
          inLoc = false;
          const loc = current.trim();
          if (loc) locs.push(loc);
        }
        depth--;
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  for (let at = 0; at < text.length; at += CHUNK) {
    parser.write(text.slice(at, at + CHUNK));
    if (tooDeep) throw new SitemapTooDeep();
    await slices.maybe();
  }
  parser.end();
  return { kind: root, locs };
}
