/**
 * The one RFC 6750 credential parser and challenge builder
 * (src/http/bearer-auth.ts), without a server: what counts as a bearer token,
 * what is malformed (401 invalid_token), what is a bad request (400
 * invalid_request), and the shape of every challenge.
 */
import { describe, expect, it } from 'vitest';
import { bearerChallenge, parseBearer, resourceMetadataUrl } from '../../src/http/bearer-auth.js';

const one = (authorization: string) => parseBearer({ authorization: [authorization] });

describe('parseBearer: accepted', () => {
  it.each([
    ['a JWT', 'Bearer eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2ln', 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2ln'],
    ['an account key', `Bearer gw_acct_${'A-b_9'.repeat(8)}`, `gw_acct_${'A-b_9'.repeat(8)}`],
    ['every b64token character and trailing padding', 'Bearer Az09-._~+/==', 'Az09-._~+/=='],
    ['the scheme in lower case', 'bearer abc', 'abc'],
    ['the scheme in mixed case', 'BeArEr abc', 'abc'],
    ['several spaces after the scheme (1*SP)', 'Bearer    abc', 'abc'],
    ['a tab after the scheme', 'Bearer\tabc', 'abc'],
    ['surrounding whitespace (not part of the field value)', '  Bearer abc \t', 'abc'],
  ])('%s', (_name, header, token) => {
    expect(one(header)).toEqual({ kind: 'token', token });
  });
});

describe('parseBearer: malformed (401 invalid_token)', () => {
  it.each([
    ['the scheme alone', 'Bearer'],
    ['the scheme and spaces', 'Bearer    '],
    ['two credentials', 'Bearer abc def'],
    ['two credentials separated by a comma', 'Bearer abc, Bearer def'],
    ['a character outside b64token', 'Bearer abc$def'],
    ['a quote', 'Bearer "abc"'],
    ['padding in the middle', 'Bearer ab=c'],
    ['only padding', 'Bearer =='],
    ['a non-ASCII character', 'Bearer abcé'],
    ['a comma after the token', 'Bearer abc,'],
  ])('%s', (_name, header) => {
    expect(one(header)).toEqual({ kind: 'malformed' });
  });
});

describe('parseBearer: no bearer credential', () => {
  it('answers none without an Authorization header or with an empty one', () => {
    expect(parseBearer({ authorization: [] })).toEqual({ kind: 'none' });
    expect(one('')).toEqual({ kind: 'none' });
    expect(one('   ')).toEqual({ kind: 'none' });
  });

  it.each([['Basic dXNlcjpwYXNz'], ['gw_acct_abc'], ['Bearerabc'], ['DPoP abc']])('answers other_scheme for %s', (header) => {
    expect(one(header)).toEqual({ kind: 'other_scheme' });
  });
});

describe('parseBearer: more than one credential or method (400 invalid_request)', () => {
  it('refuses two Authorization headers, even if both are valid', () => {
    expect(parseBearer({ authorization: ['Bearer abc', 'Bearer abc'] })).toMatchObject({ kind: 'invalid_request' });
    expect(parseBearer({ authorization: ['Basic dXNlcjpwYXNz', 'Bearer abc'] })).toMatchObject({ kind: 'invalid_request' });
  });

  it('refuses a token in the URL, alone or beside the header', () => {
    const both = parseBearer({ authorization: ['Bearer abc'], queryToken: true });
    expect(both).toMatchObject({ kind: 'invalid_request', description: expect.stringMatching(/not also in the URL/) });
    const urlOnly = parseBearer({ authorization: [], queryToken: true });
    expect(urlOnly).toMatchObject({ kind: 'invalid_request', description: expect.stringMatching(/does not accept it in the URL/) });
  });
});

describe('bearerChallenge', () => {
  const resource = 'https://gw.example/api/mcp';
  const metadata = 'https://gw.example/.well-known/oauth-protected-resource/api/mcp';

  it('names the RFC 9728 metadata URL of the resource, path after the well-known suffix', () => {
    expect(resourceMetadataUrl(resource)).toBe(metadata);
    expect(resourceMetadataUrl('https://gw.example/api/v1')).toBe('https://gw.example/.well-known/oauth-protected-resource/api/v1');
    expect(resourceMetadataUrl('https://gw.example')).toBe('https://gw.example/.well-known/oauth-protected-resource');
  });

  it('without a token: resource_metadata and the scope to ask for, no error', () => {
    expect(bearerChallenge({ resource, scope: 'mcp' })).toBe(`Bearer resource_metadata="${metadata}", scope="mcp"`);
    expect(bearerChallenge({ resource })).toBe(`Bearer resource_metadata="${metadata}"`);
  });

  it('with an error: error, error_description, resource_metadata, scope, in that order', () => {
    expect(bearerChallenge({ resource, error: 'invalid_token', description: 'Expired.' })).toBe(
      `Bearer error="invalid_token", error_description="Expired.", resource_metadata="${metadata}"`,
    );
    expect(bearerChallenge({ resource, error: 'insufficient_scope', description: 'Needs kb:write.', scope: 'kb:write' })).toBe(
      `Bearer error="insufficient_scope", error_description="Needs kb:write.", resource_metadata="${metadata}", scope="kb:write"`,
    );
  });

  it('keeps only the characters RFC 6750 §3 allows inside the quotes', () => {
    const challenge = bearerChallenge({ resource, error: 'invalid_token', description: 'a "quoted" \\ line\r\nbreak é' });
    expect(challenge).toBe(`Bearer error="invalid_token", error_description="a quoted  linebreak ", resource_metadata="${metadata}"`);
  });
});
