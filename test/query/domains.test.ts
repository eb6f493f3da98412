/**
 * Whitelist entries and the Public Suffix List (issue 11 item 8): a wildcard
 * whose base is a public suffix — ICANN (`*.com`, `*.co.uk`) or PRIVATE
 * (`*.github.io`, `*.herokuapp.com`) — is refused with a message naming the
 * suffix, and ignored on the matching side if one was stored before the rule.
 * Pure functions: no server, no network (tldts embeds the list).
 */
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/errors.js';
import { candidatePatterns, hostAllowed, normaliseDomain, normaliseDomains, publicSuffixOf } from '../../src/knowledge/keys/domains.js';

function refusal(entry: string): DomainError {
  try {
    normaliseDomain(entry);
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return err as DomainError;
  }
  throw new Error(`"${entry}" was accepted`);
}

describe('wildcards over a public suffix are refused', () => {
  it.each([
    ['*.com', 'com', /registry/],
    ['*.co.uk', 'co.uk', /registry/],
    ['*.CO.UK', 'co.uk', /registry/],
    ['*.github.io', 'github.io', /shared host/],
    ['*.herokuapp.com', 'herokuapp.com', /shared host/],
    ['*.blogspot.com', 'blogspot.com', /shared host/],
    ['*.xn--fiqs8s', 'xn--fiqs8s', /registry/],
    ['*.中国', 'xn--fiqs8s', /registry/],
    // A wildcard rule of the list (`*.kawasaki.jp`) makes every child a suffix too.
    ['*.x.kawasaki.jp', 'x.kawasaki.jp', /registry/],
  ])('%s: 422 naming the suffix %s and saying why', (entry, suffix, why) => {
    const err = refusal(entry);
    expect(err.code).toBe('validation_failed');
    expect(err.message).toContain(`"${entry}"`);
    expect(err.message).toContain(`${suffix} is `);
    expect(err.message).toMatch(why);
    expect(err.message).toMatch(/every website under it/);
    expect(err.extra.errors).toEqual([
      { location: '/body/allowedDomains', message: `wildcard over the public suffix "${suffix}"`, entry, publicSuffix: suffix },
    ]);
  });

  it('refuses the whole whitelist when one entry is such a wildcard', () => {
    expect(() => normaliseDomains(['shop.example.com', '*.github.io'])).toThrow(/github\.io is a public suffix/);
  });

  it('still refuses the other bad wildcards as "not a domain"', () => {
    for (const entry of ['*.localhost', '*.127.0.0.1', '*.[::1]', 'https://*.example.com']) expect(refusal(entry).message).toMatch(/is not a domain/);
  });
});

describe('everything else stays accepted', () => {
  it.each([
    ['*.shop.co.uk', '*.shop.co.uk'],
    ['*.alice.github.io', '*.alice.github.io'],
    ['*.example.com', '*.example.com'],
    ['*.app.herokuapp.com', '*.app.herokuapp.com'],
    // `!www.ck` is an exception to `*.ck`: www.ck is registrable.
    ['*.www.ck', '*.www.ck'],
    ['example.co.uk', 'example.co.uk'],
    ['alice.github.io', 'alice.github.io'],
    // An exact public suffix names one host only, so it is harmless.
    ['co.uk', 'co.uk'],
    ['localhost', 'localhost'],
    ['127.0.0.1', '127.0.0.1'],
    ['[::1]', '[::1]'],
    ['https://Shop.Example.co.uk:8443/', 'shop.example.co.uk'],
  ])('%s → %s', (entry, normalised) => {
    expect(normaliseDomain(entry)).toBe(normalised);
  });
});

describe('the matching side agrees', () => {
  it('names the suffix and its section of the list', () => {
    expect(publicSuffixOf('a.b.co.uk')).toEqual({ suffix: 'co.uk', section: 'icann' });
    expect(publicSuffixOf('alice.github.io')).toEqual({ suffix: 'github.io', section: 'private' });
    expect(publicSuffixOf('127.0.0.1')).toBeUndefined();
  });

  it('never lists a wildcard over the public suffix as a candidate', () => {
    expect(candidatePatterns('a.b.shop.co.uk')).toEqual(['a.b.shop.co.uk', '*.b.shop.co.uk', '*.shop.co.uk']);
    expect(candidatePatterns('x.alice.github.io')).toEqual(['x.alice.github.io', '*.alice.github.io']);
    expect(candidatePatterns('shop.example.com')).toEqual(['shop.example.com', '*.example.com']);
    expect(candidatePatterns('evil.co.uk')).toEqual(['evil.co.uk']);
    expect(candidatePatterns('127.0.0.1')).toEqual(['127.0.0.1']);
  });

  it('ignores a public-suffix wildcard stored before the rule, and keeps the others', () => {
    const legacy = ['*.co.uk', '*.github.io', '*.com', '*.shop.example.net'];
    for (const host of ['evil.co.uk', 'a.evil.co.uk', 'mallory.github.io', 'anything.com']) expect(hostAllowed(host, legacy), host).toBe(false);
    expect(hostAllowed('a.shop.example.net', legacy)).toBe(true);
  });

  it('matches ordinary wildcards and exact hosts as before', () => {
    const allowed = ['*.shop.co.uk', '*.alice.github.io', 'example.co.uk', 'localhost'];
    expect(hostAllowed('www.shop.co.uk', allowed)).toBe(true);
    expect(hostAllowed('a.b.shop.co.uk', allowed)).toBe(true);
    expect(hostAllowed('shop.co.uk', allowed)).toBe(false);
    expect(hostAllowed('evilshop.co.uk', allowed)).toBe(false);
    expect(hostAllowed('blog.alice.github.io', allowed)).toBe(true);
    expect(hostAllowed('bob.github.io', allowed)).toBe(false);
    expect(hostAllowed('EXAMPLE.co.uk.', allowed)).toBe(true);
    expect(hostAllowed('www.example.co.uk', allowed)).toBe(false);
    expect(hostAllowed('localhost', allowed)).toBe(true);
  });

  it('agrees with the candidate patterns for every host and entry tried', () => {
    const hosts = ['a.b.shop.co.uk', 'shop.co.uk', 'evil.co.uk', 'x.alice.github.io', 'bob.github.io', 'a.example.com', 'localhost', '127.0.0.1'];
    const entries = ['*.shop.co.uk', '*.co.uk', '*.alice.github.io', '*.github.io', '*.example.com', '*.com', 'localhost', '127.0.0.1', 'evil.co.uk'];
    for (const host of hosts)
      for (const entry of entries) expect(hostAllowed(host, [entry]), `${host} / ${entry}`).toBe(candidatePatterns(host).includes(entry));
  });
});
