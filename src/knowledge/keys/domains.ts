/**
 * The domain whitelist of a knowledge-base key (product.md §5). Entries are
 * exact hosts (`shop.example.com`), subdomain wildcards (`*.example.com`,
 * which matches `a.example.com` and `a.b.example.com` but not `example.com`
 * itself), or `localhost` (only when listed). Ports and schemes do not
 * matter; hosts are compared in their ASCII (punycode) form, lower-case.
 */
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
  if (!host || !validHost(host) || rest.includes('@')) throw bad();
  if (rest.includes('://') && wildcard) throw bad();
  // A wildcard must leave at least a registrable-looking domain (two labels): `*.com` would allow everyone.
  if (wildcard && (host === 'localhost' || host.split('.').length < 2 || /^[\d.]+$/.test(host))) throw bad();
  return wildcard ? `*.${host}` : host;
}

/** Normalised, de-duplicated whitelist; at most 50 entries. */
export function normaliseDomains(entries: string[]): string[] {
  const out = [...new Set(entries.map(normaliseDomain))];
  if (out.length > 50) throw new DomainError('validation_failed', 'A key can list at most 50 domains.');
  return out;
}

/** Whether a request's host is allowed by the whitelist. */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  for (const entry of allowed) {
    if (entry.startsWith('*.')) {
      if (h.endsWith(entry.slice(1)) && h.length > entry.length - 1) return true;
    } else if (h === entry) return true;
  }
  return false;
}

/**
 * Every whitelist entry that could allow `host`: the host itself and a
 * wildcard for each parent domain of two labels or more. Lets the store
 * answer "is this origin whitelisted by any key?" with an indexed lookup.
 */
export function candidatePatterns(host: string): string[] {
  const h = host.toLowerCase().replace(/\.$/, '');
  const labels = h.split('.');
  const out = [h];
  for (let i = 1; i <= labels.length - 2; i++) out.push(`*.${labels.slice(i).join('.')}`);
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
