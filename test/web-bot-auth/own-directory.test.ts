/**
 * The service's own key directory: media type, JWKS with kid = thumbprint,
 * Content-Digest, a binding response signature that verifies with the
 * published key, CORS and caching; the key survives restarts; and the
 * service can sign a request to itself with that key (its directory then goes
 * through the same guarded fetch as any bot's).
 */
import { component, createSignatureSync } from 'http-message-sig';
import type { JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentDigestMatches, DIRECTORY_MEDIA_TYPE, parseKeyDirectory, verifyDirectoryResponse } from '../../src/identity/web-bot-auth/directory.js';
import { signerFor, thumbprint } from '../../src/identity/web-bot-auth/jwk.js';
import { KEY_PURPOSE } from '../../src/identity/web-bot-auth/own-directory.js';
import { DIRECTORY_PATH } from '../../src/identity/web-bot-auth/signature-agent.js';
import { type LoggedServer, startLoggedServer } from './harness.js';

let server: LoggedServer;
beforeAll(async () => {
  server = await startLoggedServer();
});
afterAll(() => server?.stop());

describe('GET /.well-known/http-message-signatures-directory', () => {
  it('publishes a signed JWKS whose binding signature verifies with the published key', async () => {
    const response = await fetch(`${server.baseUrl}${DIRECTORY_PATH}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(DIRECTORY_MEDIA_TYPE);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const body = await response.text();
    const doc = JSON.parse(body) as { keys: (JWK & { kid: string })[] };
    expect(doc.keys).toHaveLength(1);
    const [published] = doc.keys;
    expect(published).toMatchObject({ kty: 'OKP', crv: 'Ed25519', use: 'sig' });
    expect(published).not.toHaveProperty('d');
    expect(published?.kid).toBe(await thumbprint(published as JWK));

    expect(contentDigestMatches(response.headers.get('content-digest') ?? '', body)).toBe(true);
    const input = response.headers.get('signature-input') ?? '';
    expect(input).toMatch(/^binding=\("@authority";req "content-digest"\);created=\d+;expires=\d+;keyid="[\w-]+";tag="http-message-signatures-directory"$/);
    const keys = await parseKeyDirectory(body);
    const result = await verifyDirectoryResponse(
      { targetUri: `${server.baseUrl}${DIRECTORY_PATH}`, headers: [...response.headers.entries()], body },
      keys,
      Math.floor(Date.now() / 1000),
    );
    expect(result).toEqual({ signed: true, verified: [published?.kid], failures: [] });
  });

  it('keeps the same key across requests and stores one active key', async () => {
    const kid = async () => ((await (await fetch(`${server.baseUrl}${DIRECTORY_PATH}`)).json()) as { keys: { kid: string }[] }).keys[0]?.kid;
    expect(await kid()).toBe(await kid());
    const stored = await server.store.signingKeys.listSigningKeys(KEY_PURPOSE);
    expect(stored.filter((k) => k.retiredAt === null)).toHaveLength(1);
    expect(stored[0]?.kid).toBe(await kid());
  });

  it('lets the service sign a request to itself with its own key, checked through its own directory', async () => {
    const [own] = await server.store.signingKeys.listSigningKeys(KEY_PURPOSE);
    if (!own) throw new Error('no key');
    const created = Math.floor(Date.now() / 1000);
    const agentHeader = `self="${server.baseUrl}"`;
    const fields = createSignatureSync(
      { kind: 'request', method: 'GET', targetUri: `${server.baseUrl}/docs/errors`, fields: [{ name: 'signature-agent', value: agentHeader }] },
      {
        components: ['@authority', component('signature-agent', { key: 'self' })],
        parameters: { created, expires: created + 60, keyid: own.kid, tag: 'web-bot-auth' },
        signer: signerFor(own.privateJwk as JWK),
      },
    );
    const response = await fetch(`${server.baseUrl}/docs/errors`, {
      headers: { 'signature-agent': agentHeader, 'signature-input': fields.signatureInput, signature: fields.signature },
    });
    expect(response.status).toBe(200);
    const logs = server.logs();
    expect(logs.find((l) => l.msg === 'bot verified')?.bot).toEqual({ agent: server.baseUrl, keyid: own.kid });
    expect(logs.some((l) => l.msg === 'bot key directory fetched, signature verified' && l.agent === server.baseUrl)).toBe(true);
  });
});
