/**
 * The test vectors of standards.md §6, with the clock injected: RFC 9421
 * B.2.6 (signature base and deterministic Ed25519 signature), the Web Bot
 * Auth request in both Signature-Agent forms, and the signed directory
 * response; plus RFC 7638 thumbprints.
 */
import { createSignatureSync, type RequestDescriptor, verifySignature } from 'http-message-sig';
import { describe, expect, it } from 'vitest';
import { contentDigest, directoryBody, signDirectoryResponse, verifyDirectoryResponse } from '../../src/identity/web-bot-auth/directory.js';
import { BotAuthError } from '../../src/identity/web-bot-auth/errors.js';
import { signerFor, thumbprint, verifierFor } from '../../src/identity/web-bot-auth/jwk.js';
import type { AgentEntry } from '../../src/identity/web-bot-auth/signature-agent.js';
import { type SignedRequest, type VerifyBotOptions, verifyBotRequest } from '../../src/identity/web-bot-auth/verify-request.js';
import { rfcKeyid, rfcPrivateJwk, rfcPublicJwk } from './fixtures.js';

describe('RFC 7638 thumbprints', () => {
  it('match the published values', async () => {
    expect(await thumbprint(rfcPublicJwk)).toBe(rfcKeyid);
    expect(await thumbprint({ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' })).toBe(
      'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k',
    );
  });
});

describe('RFC 9421 B.2.6', () => {
  const request: RequestDescriptor = {
    kind: 'request',
    method: 'POST',
    targetUri: 'https://example.com/foo?param=Value&Pet=dog',
    fields: [
      { name: 'Host', value: 'example.com' },
      { name: 'Date', value: 'Tue, 20 Apr 2021 02:07:55 GMT' },
      { name: 'Content-Type', value: 'application/json' },
      { name: 'Content-Digest', value: 'sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:' },
      { name: 'Content-Length', value: '18' },
    ],
  };
  const base = [
    '"date": Tue, 20 Apr 2021 02:07:55 GMT',
    '"@method": POST',
    '"@path": /foo',
    '"@authority": example.com',
    '"content-type": application/json',
    '"content-length": 18',
    '"@signature-params": ("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"',
  ].join('\n');
  const expected = 'wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==';

  it('builds the exact signature base and the deterministic signature', () => {
    let signedBase = '';
    const signer = signerFor(rfcPrivateJwk);
    const fields = createSignatureSync(request, {
      label: 'sig-b26',
      components: ['date', '@method', '@path', '@authority', 'content-type', 'content-length'],
      parameters: { created: 1618884473, keyid: 'test-key-ed25519' },
      signer: {
        algorithm: signer.algorithm,
        sign: (data) => {
          signedBase = new TextDecoder().decode(data);
          return signer.sign(data);
        },
      },
    });
    expect(signedBase).toBe(base);
    expect(fields.signature).toBe(`sig-b26=:${expected}:`);
    expect(fields.signatureInput).toBe(`sig-b26=${base.split('"@signature-params": ')[1]}`);
  });

  it('verifies the published signature with the public key (and not a tampered one)', async () => {
    const signed: RequestDescriptor = {
      ...request,
      fields: [
        ...request.fields,
        {
          name: 'Signature-Input',
          value: 'sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"',
        },
        { name: 'Signature', value: `sig-b26=:${expected}:` },
      ],
    };
    const verifier = verifierFor(rfcPublicJwk);
    if (!verifier) throw new Error('no verifier');
    const policy = { algorithms: ['ed25519'], requiredComponents: ['@authority'], requiredParameters: ['created'], now: 1618884473 + 10 };
    const ok = await verifySignature(signed, { policy, resolveVerifier: () => verifier });
    expect(ok.label).toBe('sig-b26');
    const tampered = { ...signed, targetUri: 'https://example.org/foo?param=Value&Pet=dog' };
    await expect(verifySignature(tampered, { policy, resolveVerifier: () => verifier })).rejects.toThrow(/verification failed/i);
  });
});

const agent = 'https://signature-agent.test';
const resolveKey: VerifyBotOptions['resolveKey'] = async (entry: AgentEntry, keyid: string) =>
  entry.uri === agent && keyid === rfcKeyid ? rfcPublicJwk : undefined;

function request(headers: [string, string][]): SignedRequest {
  return { method: 'GET', targetUri: 'https://example.com/', headers: [['Host', 'example.com'], ...headers] };
}

const dictionaryForm = request([
  ['Signature-Agent', 'agent2="https://signature-agent.test"'],
  [
    'Signature-Input',
    'sig2=("@authority" "signature-agent";key="agent2");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth"',
  ],
  ['Signature', 'sig2=:RdNFx5Bj6au3YgAMQL/RzmUlZE8QZLIaXGRpw985hWnwPfMxT228NMk6ehRS1PSl4e8PhbNZACSanGdhEwYCCg==:'],
]);

const legacyForm = request([
  ['Signature-Agent', '"https://signature-agent.test"'],
  [
    'Signature-Input',
    'sig2=("@authority" "signature-agent");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=1735693200;nonce="e8N7S2MFd/qrd6T2R3tdfAuuANngKI7LFtKYI/vowzk4lAZYadIX6wW25MwG7DCT9RUKAJ0qVkU0mEeLElW1qg==";tag="web-bot-auth"',
  ],
  ['Signature', 'sig2=:jdq0SqOwHdyHr9+r5jw3iYZH6aNGKijYp/EstF4RQTQdi5N5YYKrD+mCT1HA1nZDsi6nJKuHxUi/5Syp3rLWBA==:'],
]);

async function reason(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof BotAuthError) return err.reason;
    throw err;
  }
  return 'accepted';
}

describe('Web Bot Auth request vectors', () => {
  it('verifies the dictionary form (its 100-year validity needs the 24 h cap lifted)', async () => {
    const bot = await verifyBotRequest(dictionaryForm, { now: 1735689700, resolveKey, maxValiditySeconds: Number.POSITIVE_INFINITY });
    expect(bot).toMatchObject({ agent: { uri: agent, type: 'directory' }, keyid: rfcKeyid, label: 'sig2', algorithm: 'ed25519', created: 1735689600 });
    // With the default policy the same signature is refused for its window alone.
    expect(await reason(verifyBotRequest(dictionaryForm, { now: 1735689700, resolveKey }))).toBe('validity_too_long');
  });

  it('verifies the legacy sf-string form within its hour, and refuses it afterwards', async () => {
    const bot = await verifyBotRequest(legacyForm, { now: 1735689700, resolveKey });
    expect(bot).toMatchObject({ agent: { uri: agent, type: 'directory' }, keyid: rfcKeyid, expires: 1735693200 });
    expect(await reason(verifyBotRequest(legacyForm, { now: 1735693201, resolveKey }))).toBe('expired');
    expect(await reason(verifyBotRequest(legacyForm, { now: 1735689600 - 60, resolveKey }))).toBe('not_yet_valid');
  });

  it('refuses the vectors once anything covered changes', async () => {
    const otherHost = { ...legacyForm, targetUri: 'https://example.org/' };
    expect(await reason(verifyBotRequest(otherHost, { now: 1735689700, resolveKey }))).toBe('bad_signature');
    const otherAgent = {
      ...legacyForm,
      headers: legacyForm.headers.map(([n, v]): [string, string] => [n, n === 'Signature-Agent' ? '"https://signature-agent.test/"' : v]),
    };
    expect(await reason(verifyBotRequest(otherAgent, { now: 1735689700, resolveKey }))).toBe('unknown_key');
  });
});

describe('signed directory response vector', () => {
  const body =
    '{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U","x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs","use":"sig"}]}';
  const targetUri = 'https://signature-agent.test/.well-known/http-message-signatures-directory';
  const headers = {
    'content-digest': 'sha-256=:CADMT2aBdV/rqQr/NIru64ERQkCobVvllA4V0fLFDu0=:',
    'signature-input':
      'binding=("@authority";req "content-digest");created=1735689600;expires=4889289600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";tag="http-message-signatures-directory"',
    signature: 'binding=:l6P8R67tm3kujAxbHWio7ll01qrEZ0dKD/WWlGhNYEmTnFZM8Wt0VQ9zqGfvo7T/UMkBxsigzChM1Gpz7gOVBg==:',
  };

  it('is reproduced byte for byte by our directory signer', () => {
    const keys = [{ keyid: rfcKeyid, jwk: rfcPublicJwk, privateJwk: rfcPrivateJwk }];
    expect(directoryBody(keys)).toBe(body);
    expect(contentDigest(body)).toBe(headers['content-digest']);
    expect(signDirectoryResponse({ body, keys, targetUri, created: 1735689600, expires: 4889289600 })).toEqual(headers);
  });

  it('verifies, and a changed body or authority does not', async () => {
    const keys = [{ keyid: rfcKeyid, jwk: rfcPublicJwk }];
    const pairs = Object.entries(headers);
    expect(await verifyDirectoryResponse({ targetUri, headers: pairs, body }, keys, 1735689700)).toEqual({ signed: true, verified: [rfcKeyid], failures: [] });
    const changedBody = await verifyDirectoryResponse({ targetUri, headers: pairs, body: body.replace('sig', 'enc') }, keys, 1735689700);
    expect(changedBody.verified).toEqual([]);
    expect(changedBody.failures[0]).toMatch(/Content-Digest/);
    const otherHost = await verifyDirectoryResponse(
      { targetUri: 'https://evil.test/.well-known/http-message-signatures-directory', headers: pairs, body },
      keys,
      1735689700,
    );
    expect(otherHost.verified).toEqual([]);
  });
});
