/**
 * Sitemaps (sitemaps.org 0.9): a `<urlset>` lists pages, a `<sitemapindex>` lists sitemaps; both
 * name them in `<loc>`. Read with htmlparser2 in XML mode (no DOM, entities decoded, namespace
 * prefixes ignored). Pure: which of the URLs are fetched is web-import-service.ts's business.
 */
import { Parser } from 'htmlparser2';

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

/** The sitemap in `text`, or undefined when its root element is neither `<urlset>` nor `<sitemapindex>`. */
export function parseSitemap(text: string): ParsedSitemap | undefined {
  const root = rootElement(text);
  if (root !== 'urlset' && root !== 'sitemapindex') return undefined;
  const locs: string[] = [];
  let depth = 0;
  let inLoc = false;
  let current = '';
  const parser = new Parser(
    {
      onopentag: (name) => {
        depth++;
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
  parser.write(text);
  parser.end();
  return { kind: root, locs };
}
