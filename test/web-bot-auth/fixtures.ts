/**
 * Keys and vectors from standards.md §6: the RFC 9421 B.1.4 Ed25519 test key
 * (also the Web Bot Auth drafts' key), and a signer for test bots built on
 * http-message-sig's own `createSignature` and WebCrypto signer.
 */
import { randomBytes, webcrypto as nodeWebcrypto } from 'node:crypto';
import { component, createSignature, type SignatureComponent, webcrypto } from 'http-message-sig';
import type { JWK } from 'jose';
import { generateEd25519, type PublicJwk, thumbprint } from '../../src/identity/web-bot-auth/jwk.js';

export const rfcPublicJwk: PublicJwk = { kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs' };
export const rfcPrivateJwk: JWK = { ...rfcPublicJwk, d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU' } as JWK;
export const rfcKeyid = 'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U';

export interface TestBot {
  publicJwk: PublicJwk;
  privateJwk: JWK;
  keyid: string;
  key: nodeWebcrypto.CryptoKey;
}

export async function newBot(): Promise<TestBot> {
  const { publicJwk, privateJwk } = generateEd25519();
  const key = await nodeWebcrypto.subtle.importKey('jwk', privateJwk as nodeWebcrypto.JsonWebKey, { name: 'Ed25519' }, false, ['sign']);
  return { publicJwk, privateJwk, keyid: await thumbprint(publicJwk), key };
}

export interface SignOptions {
  /** The URL the signature is made for (its authority is what gets signed). */
  url: string;
  method?: string;
  /** `Signature-Agent` value; the dictionary form `agent1="…"` unless `legacy`. */
  agentUrl: string;
  legacy?: boolean;
  created?: number;
  expires?: number;
  nonce?: string | null;
  keyid?: string;
  tag?: string;
  components?: SignatureComponent[];
}

/** Web Bot Auth headers for a request, signed with http-message-sig. */
export async function signRequest(bot: TestBot, options: SignOptions): Promise<Record<string, string>> {
  const now = Math.floor(Date.now() / 1000);
  const created = options.created ?? now;
  const signatureAgent = options.legacy ? `"${options.agentUrl}"` : `agent1="${options.agentUrl}"`;
  const components = options.components ?? ['@authority', options.legacy ? 'signature-agent' : component('signature-agent', { key: 'agent1' })];
  const nonce = options.nonce === null ? undefined : (options.nonce ?? randomBytes(64).toString('base64url'));
  const fields = await createSignature(
    { kind: 'request', method: options.method ?? 'GET', targetUri: options.url, fields: [{ name: 'signature-agent', value: signatureAgent }] },
    {
      label: 'sig1',
      components,
      parameters: {
        created,
        expires: options.expires ?? created + 300,
        keyid: options.keyid ?? bot.keyid,
        alg: 'ed25519',
        nonce,
        tag: options.tag ?? 'web-bot-auth',
      },
      signer: webcrypto.signer(bot.key),
    },
  );
  return { 'signature-agent': signatureAgent, 'signature-input': fields.signatureInput, signature: fields.signature };
}
