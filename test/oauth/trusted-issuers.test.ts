/**
 * TRUSTED_ID_JAG_ISSUERS: the documented JSON format, one clear start-up
 * error naming the variable for every mistake, and an issuer whose keys are
 * fetched from its jwks_uri (plain http allowed only on loopback in development).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import type { TestServer } from '../support/server.js';
import { idpKey, mintIdJag, postJson, startOAuthServer, type IdpKey } from './helpers.js';

const load = (value: string, publicUrl = 'https://gw.example') => loadConfig({ PUBLIC_URL: publicUrl, TRUSTED_ID_JAG_ISSUERS: value });

describe('configuration', () => {
  it('reads issuers with a JWKS URL or inline keys', () => {
    const keys = { keys: [{ kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs' }] };
    const config = load(
      JSON.stringify([
        { issuer: 'https://idp.example', jwks_uri: 'https://idp.example/jwks' },
        { issuer: 'https://b.example', jwks: keys },
      ]),
    );
    expect(config.trustedIdJagIssuers).toEqual([
      { issuer: 'https://idp.example', jwksUri: 'https://idp.example/jwks' },
      { issuer: 'https://b.example', jwks: keys },
    ]);
    expect(load('').trustedIdJagIssuers).toEqual([]);
  });

  it.each([
    ['not JSON', '{nope', /JSON array/],
    ['an object instead of an array', '{"issuer":"https://a.example"}', /JSON array/],
    ['a missing issuer', '[{"jwks_uri":"https://a.example/jwks"}]', /issuer/],
    ['both key sources', '[{"issuer":"https://a.example","jwks_uri":"https://a.example/j","jwks":{"keys":[{"kty":"OKP"}]}}]', /exactly one/],
    ['no key source', '[{"issuer":"https://a.example"}]', /exactly one/],
    ['a plain-http JWKS URL', '[{"issuer":"https://a.example","jwks_uri":"http://a.example/jwks"}]', /https/],
    ['a private key', '[{"issuer":"https://a.example","jwks":{"keys":[{"kty":"OKP","crv":"Ed25519","x":"x","d":"d"}]}}]', /public keys only/],
    ['an unknown member', '[{"issuer":"https://a.example","jwks_uri":"https://a.example/j","audience":"x"}]', /unknown member/],
    [
      'a duplicate issuer',
      '[{"issuer":"https://a.example","jwks_uri":"https://a.example/j"},{"issuer":"https://a.example","jwks_uri":"https://a.example/k"}]',
      /twice/,
    ],
  ])('stops start-up on %s, naming the variable', (_name, value, message) => {
    let error: unknown;
    try {
      load(value);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe('TRUSTED_ID_JAG_ISSUERS');
    expect((error as Error).message).toMatch(/^Invalid configuration: TRUSTED_ID_JAG_ISSUERS /);
    expect((error as Error).message).toMatch(message);
  });

  it('accepts plain http only for loopback issuers in development', () => {
    const value = '[{"issuer":"http://127.0.0.1:9000","jwks_uri":"http://127.0.0.1:9000/jwks"}]';
    expect(load(value, 'http://127.0.0.1:3000').trustedIdJagIssuers).toHaveLength(1);
    expect(() => load(value)).toThrow(ConfigError);
  });
});

describe('an issuer with a jwks_uri', () => {
  let idp: http.Server;
  let idpUrl: string;
  let key: IdpKey;
  let server: TestServer;
  let fetches = 0;

  beforeAll(async () => {
    key = await idpKey();
    idp = http.createServer((request, response) => {
      fetches++;
      if (request.url !== '/jwks') return response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [key.publicJwk] }));
    });
    await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
    idpUrl = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
    server = await startOAuthServer(await idpKey(), [{ issuer: idpUrl, jwks_uri: `${idpUrl}/jwks` }]);
  });
  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => idp?.close(resolve));
  });

  it('verifies ID-JAGs against the fetched keys, caching them', async () => {
    for (const subject of ['carol', 'dave']) {
      const assertion = await mintIdJag(key, server.baseUrl, { issuer: idpUrl, subject });
      const response = await postJson(server.baseUrl, '/oauth/register', {
        identity_type: 'identity_assertion',
        assertion_type: 'urn:ietf:params:oauth:token-type:id-jag',
        assertion,
      });
      expect(response.status).toBe(201);
    }
    expect(fetches).toBe(1);
  });
});
