/**
 * Verifies one Web Bot Auth request signature (RFC 9421 with the Web Bot Auth
 * profile): picks the signature tagged `web-bot-auth`, checks the profile
 * (covered components, created/expires, keyid), finds the key in the agent's
 * directory by its RFC 7638 thumbprint, verifies with `http-message-sig`, and
 * finally refuses a nonce seen before. Pure apart from the injected key
 * resolver and replay store; the clock is a parameter.
 */
import { createHash } from 'node:crypto';
import { isSignatureError, type RequestDescriptor, SignatureErrorCode, verifySignature } from 'http-message-sig';
import type { JWK } from 'jose';
import { type BareItem, type InnerList, type Item, parseDictionary, Token } from 'structured-headers';
import type { ReplayStore } from '../../ports/replay.js';
import { BotAuthError } from './errors.js';
import { verifierFor } from './jwk.js';
import { type AgentEntry, parseSignatureAgent, type SignatureAgentHeader } from './signature-agent.js';

export const WEB_BOT_AUTH_TAG = 'web-bot-auth';
export const ALGORITHMS = ['ed25519', 'rsa-pss-sha512'] as const;

/** The request as received: target URI (our public origin + path) and raw header pairs. */
export interface SignedRequest {
  method: string;
  targetUri: string;
  headers: readonly (readonly [string, string])[];
  /** The sender's address, for the per-client key-directory fetch budget. */
  client?: string | undefined;
}

/** Methods a nonce-less ("pre-signed") signature may be used for without covering the method and path. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A signature without a nonce can be sent again until it expires (the drafts'
 * pre-signed mode; `@method` and `@path` are optional in the profile). That is
 * tolerated for reads, but a write must be bound to what it does: without a
 * nonce, a POST, PUT, PATCH or DELETE signature must cover `"@method"` and the
 * path (`"@path"` or `"@target-uri"`), so it cannot be replayed on another
 * method or path (issue 11 item 8).
 */
function checkNonceless(selected: Selected, method: string): void {
  if (SAFE_METHODS.has(method.toUpperCase())) return;
  const bare = (name: string) => selected.components.some((c) => c.name === name && c.params.size === 0);
  if (bare('@method') && (bare('@path') || bare('@target-uri'))) return;
  fail('insufficient_coverage', 'a signature without a nonce must cover "@method" and "@path" (or "@target-uri") to be used for a write');
}

/** The agent's public key with this thumbprint, or undefined. Throws `BotAuthError('directory_unavailable')` when the directory cannot be read. */
export type BotKeyResolver = (agent: AgentEntry, keyid: string) => Promise<JWK | undefined>;

export interface VerifyBotOptions {
  /** Seconds since the epoch. */
  now: number;
  resolveKey: BotKeyResolver;
  replay?: ReplayStore | undefined;
  /** Tolerance for a `created` slightly in the future (default 5 s). */
  clockSkewSeconds?: number;
  /** Longest accepted `expires - created` (default 24 h). */
  maxValiditySeconds?: number;
}

export interface VerifiedBot {
  agent: AgentEntry;
  keyid: string;
  label: string;
  algorithm: string;
  created: number;
  expires: number;
  nonce: string | undefined;
}

interface Selected {
  label: string;
  components: { name: string; params: Map<string, BareItem> }[];
  params: Map<string, BareItem>;
}

function header(request: SignedRequest, name: string): string | undefined {
  const values = request.headers.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v.trim());
  return values.length > 0 ? values.join(', ') : undefined;
}

function fail(reason: BotAuthError['reason'], message: string): never {
  throw new BotAuthError(reason, message);
}

/** The first signature whose parameters carry `tag="web-bot-auth"` (other signatures on the request are not ours to judge). */
export function selectWebBotAuthSignature(signatureInput: string): Selected {
  let dictionary: Map<string, Item | InnerList>;
  try {
    dictionary = parseDictionary(signatureInput);
  } catch {
    return fail('malformed', 'Signature-Input is not a structured-field dictionary');
  }
  for (const [label, member] of dictionary) {
    const [items, params] = member;
    if (!Array.isArray(items) || params.get('tag') !== WEB_BOT_AUTH_TAG) continue;
    const components = items.map(([name, componentParams]) => {
      if (typeof name !== 'string') return fail('malformed', 'Signature-Input components must be strings');
      return { name, params: componentParams };
    });
    return { label, components, params };
  }
  return fail('wrong_tag', `no signature in Signature-Input has tag="${WEB_BOT_AUTH_TAG}"`);
}

function integer(params: Map<string, BareItem>, name: string): number {
  const value = params.get(name);
  if (typeof value !== 'number' || !Number.isInteger(value)) return fail('malformed', `the signature must have an integer "${name}" parameter`);
  return value;
}

function optionalString(params: Map<string, BareItem>, name: string, max: number): string | undefined {
  const value = params.get(name);
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > max)
    return fail('malformed', `the "${name}" parameter must be a string of at most ${max} characters`);
  return value;
}

/** The agent whose directory holds the key: the `Signature-Agent` member the signature covers. */
function coveredAgent(selected: Selected, agents: SignatureAgentHeader): AgentEntry {
  const bare = (name: string) => selected.components.some((c) => c.name === name && c.params.size === 0);
  if (!bare('@authority') && !bare('@target-uri')) return fail('insufficient_coverage', 'the signature must cover "@authority" (or "@target-uri")');
  const covered = selected.components.find((c) => c.name === 'signature-agent');
  if (!covered) return fail('insufficient_coverage', 'the signature must cover the Signature-Agent header');
  const key = covered.params.get('key');
  if (agents.form === 'legacy') {
    if (key !== undefined) return fail('malformed', 'the signature names a Signature-Agent member but the header is a plain string');
    return agents.entry;
  }
  if (key === undefined) {
    const [only, ...others] = [...agents.members.values()];
    if (!only || others.length > 0) return fail('insufficient_coverage', 'the signature must name the Signature-Agent member it covers (;key=)');
    return only;
  }
  const member = typeof key === 'string' || key instanceof Token ? agents.members.get(key.toString()) : undefined;
  if (!member) return fail('malformed', `Signature-Agent has no member "${String(key)}"`);
  return member;
}

function mapLibraryError(err: unknown): BotAuthError {
  if (err instanceof BotAuthError) return err;
  if (!isSignatureError(err)) throw err;
  if (err.code === SignatureErrorCode.ResolverFailed && err.cause instanceof BotAuthError) return err.cause;
  if (err.code === SignatureErrorCode.VerificationFailed) return new BotAuthError('bad_signature', 'the signature does not verify with the key');
  if (err.code === SignatureErrorCode.AlgorithmMismatch || /algorithm/i.test(err.message)) {
    return new BotAuthError('unsupported_algorithm', `the signature algorithm is not usable: ${err.message}`);
  }
  return new BotAuthError('malformed', err.message);
}

export function replayKey(keyid: string, nonce: string): string {
  return `wba:${createHash('sha256').update(`${keyid}\n${nonce}`).digest('base64url')}`;
}

export async function verifyBotRequest(request: SignedRequest, options: VerifyBotOptions): Promise<VerifiedBot> {
  const skew = options.clockSkewSeconds ?? 5;
  const maxValidity = options.maxValiditySeconds ?? 86_400;
  const { now } = options;
  const signatureInput = header(request, 'signature-input');
  const signature = header(request, 'signature');
  if (signatureInput === undefined || signature === undefined)
    return fail('missing_signature', 'Signature and Signature-Input are required with Signature-Agent');
  const selected = selectWebBotAuthSignature(signatureInput);
  const agentHeader = header(request, 'signature-agent');
  if (agentHeader === undefined) return fail('missing_agent', 'a Web Bot Auth signature needs a Signature-Agent header naming the key directory');
  const agent = coveredAgent(selected, parseSignatureAgent(agentHeader));

  const keyid = optionalString(selected.params, 'keyid', 256) ?? fail('malformed', 'the signature must have a "keyid" parameter');
  const nonce = optionalString(selected.params, 'nonce', 512);
  if (nonce === undefined) checkNonceless(selected, request.method);
  const created = integer(selected.params, 'created');
  const expires = integer(selected.params, 'expires');
  if (expires < created) return fail('malformed', '"expires" is before "created"');
  if (created > now + skew) return fail('not_yet_valid', '"created" is in the future');
  if (expires < now) return fail('expired', 'the signature has expired');
  if (expires - created > maxValidity) return fail('validity_too_long', `the signature is valid for more than ${maxValidity} seconds`);

  // Only the covered fields go to the library: it refuses non-ASCII values in any field it is given.
  const wanted = new Set(['signature', 'signature-input', ...selected.components.map((c) => c.name)]);
  const descriptor: RequestDescriptor = {
    kind: 'request',
    method: request.method,
    targetUri: request.targetUri,
    fields: request.headers.filter(([name]) => wanted.has(name.toLowerCase())).map(([name, value]) => ({ name, value })),
  };
  let algorithm: string;
  try {
    const verified = await verifySignature(descriptor, {
      label: selected.label,
      policy: { algorithms: ALGORITHMS, requiredComponents: [], requiredParameters: ['created', 'expires', 'keyid', 'tag'], clockSkew: skew, now },
      resolveVerifier: async () => {
        const jwk = await options.resolveKey(agent, keyid);
        if (!jwk) return fail('unknown_key', "no key with this keyid (JWK thumbprint) is in the agent's directory");
        return verifierFor(jwk) ?? fail('unsupported_algorithm', 'the key is not an Ed25519 or RSA key');
      },
    });
    algorithm = verified.algorithm;
  } catch (err) {
    throw mapLibraryError(err);
  }
  if (nonce !== undefined && options.replay) {
    const fresh = await options.replay.claim(replayKey(keyid, nonce), (expires - now + skew) * 1000);
    if (!fresh) return fail('replayed', 'this nonce was already used');
  }
  return { agent, keyid, label: selected.label, algorithm, created, expires, nonce };
}
