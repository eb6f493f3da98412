/**
 * The domain whitelist of a knowledge-base key (product.md §5). Entries are
 * exact hosts (`shop.example.com`), subdomain wildcards (`*.example.com`,
 * which matches `a.example.com` and `a.b.example.com` but not `example.com`
 * itself), or `localhost` (only when listed). Ports and schemes do not
 * matter; hosts are compared in their ASCII (punycode) form, lower-case.
 *
 * A wildcard whose base is a public suffix (`*.com`, `*.co.uk`, `*.github.io`,
 * `*.herokuapp.com`) would let every site registered under it use the key, so
 * it is refused when a whitelist is saved and ignored when a request is
 * matched (a key saved before this rule, or a suffix added to the list later,
 * whitelists nothing through it). The Public Suffix List, ICANN and PRIVATE
 * sections, is the copy embedded in `tldts`: no download at run time.
 */
import { parse } from 'tldts';
import { DomainError } from '../../errors.js';

const hostLabel = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The ASCII host of a URL-ish string, or undefined when it has none. */
export function hostOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.hostname.replace(/\.$/, '').toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

export interface PublicSuffix {
  suffix: string;
  /** Where the rule comes from: the list's ICANN section, its PRIVATE section, or the default rule (`*`) for an unlisted top-level domain. */
  section: 'icann' | 'private' | 'default';
}

/** The public suffix `host` ends with, or undefined for an IP literal or a host the list cannot read. */
export function publicSuffixOf(host: string): PublicSuffix | undefined {
  const parsed = parse(host, { allowPrivateDomains: true, extractHostname: false });
  if (parsed.isIp || !parsed.publicSuffix) return undefined;
  return { suffix: parsed.publicSuffix, section: parsed.isPrivate ? 'private' : parsed.isIcann ? 'icann' : 'default' };
}

const sectionWords: Record<PublicSuffix['section'], string> = {
  icann: 'a public suffix (a registry under which anyone can register a domain)',
  private: 'a public suffix (a shared host under which anyone can have a site)',
  default: 'a top-level domain',
};

function validHost(host: string): boolean {
  if (host === 'localhost') return true;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[')) return true; // IP literals, exact only
  const labels = host.split('.');
  return labels.length >= 2 && labels.every((l) => hostLabel.test(l)) && !/^\d+$/.test(labels.at(-1) ?? '');
}

/**
 * Normalises one whitelist entry as people type it — `https://Shop.Example.com/`,
 * `*.example.com`, `bücher.de` — into `shop.example.com`, `*.example.com`,
 * `xn--bcher-kva.de`. Throws a validation error naming the entry otherwise.
 */
export function normaliseDomain(entry: string): string {
  const raw = entry.trim().toLowerCase();
  const wildcard = raw.startsWith('*.');
  const rest = wildcard ? raw.slice(2) : raw;
  const host = hostOf(rest.includes('://') ? rest : `http://${rest}`);
  const bad = () =>
    new DomainError('validation_failed', `"${entry}" is not a domain: use a host such as shop.example.com, *.example.com or localhost.`, {
      errors: [{ location: '/body/allowedDomains', message: `invalid domain "${entry}"` }],
    });
  // `user@host` is not a domain; `shop.example.com@evil.test` would otherwise whitelist evil.test.
  if (!host || rest.includes('@')) throw bad();
  if (wildcard && (rest.includes('://') || host === 'localhost' || /^[\d.]+$/.test(host) || host.startsWith('['))) throw bad();
  if (wildcard && host.split('.').every((l) => hostLabel.test(l))) {
    // `*.com`, `*.co.uk` or `*.github.io` would let anyone's site use the key (Public Suffix List, both sections).
    const suffix = publicSuffixOf(host);
    if (suffix?.suffix === host) {
      const message = `"${entry}" is refused: ${host} is ${sectionWords[suffix.section]}, so the wildcard would let every website under it use this key. List your own domain instead, such as *.your-site.${host}.`;
      throw new DomainError('validation_failed', message, {
        errors: [{ location: '/body/allowedDomains', message: `wildcard over the public suffix "${host}"`, entry, publicSuffix: host }],
      });
    }
  }
  if (!validHost(host)) throw bad();
  return wildcard ? `*.${host}` : host;
}

/** Normalised, de-duplicated whitelist; at most 50 entries. */
export function normaliseDomains(entries: string[]): string[] {
  const out = [...new Set(entries.map(normaliseDomain))];
  if (out.length > 50) throw new DomainError('validation_failed', 'A key can list at most 50 domains.');
  return out;
}

/**
 * Whether a request's host is allowed by the whitelist. A wildcard counts only
 * for a parent of `host` that is longer than the host's public suffix, exactly
 * the wildcards `candidatePatterns` lists: a stored `*.co.uk` allows nothing.
 */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (allowed.includes(h)) return true;
  if (!allowed.some((entry) => entry.startsWith('*.'))) return false;
  const wildcards = candidatePatterns(h).slice(1);
  return wildcards.some((pattern) => allowed.includes(pattern));
}

/**
 * Every whitelist entry that could allow `host`: the host itself and a
 * wildcard for each parent domain longer than the host's public suffix
 * (`a.b.shop.co.uk` → `*.b.shop.co.uk`, `*.shop.co.uk`; never `*.co.uk`).
 * Lets the store answer "is this origin whitelisted by any key?" with an
 * indexed lookup, and is the one definition of wildcard matching.
 */
export function candidatePatterns(host: string): string[] {
  const h = host.toLowerCase().replace(/\.$/, '');
  const out = [h];
  const suffix = publicSuffixOf(h);
  if (!suffix) return out;
  const labels = h.split('.');
  for (let i = 1; i < labels.length; i++) {
    const parent = labels.slice(i).join('.');
    if (parent.length <= suffix.suffix.length) break;
    out.push(`*.${parent}`);
  }
  return out;
}

export type CallerOrigin = { kind: 'server' } | { kind: 'browser'; host: string; origin: string } | { kind: 'invalid'; value: string };

/** Where a query comes from: `Origin`, else `Referer`; neither means a server-to-server call (product.md §5). */
export function callerOrigin(originHeader: string | undefined, refererHeader: string | undefined): CallerOrigin {
  const value = originHeader ?? refererHeader;
  if (value === undefined || value === '') return { kind: 'server' };
  // `Origin: null` (sandboxed iframes, file://) is a browser with no usable origin: never whitelisted.
  const host = hostOf(value);
  if (!host) return { kind: 'invalid', value };
  return { kind: 'browser', host, origin: new URL(value).origin };
}
