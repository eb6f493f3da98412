/**
 * Server-side GETs of URLs someone else chose (a bot's key directory, a web page to import), with
 * SSRF guards: https only (plain http only to a loopback host, and only under the development
 * policy); the host is resolved here and every address must be public (loopback too under the
 * development policy, see addresses.ts); the connection goes to the vetted addresses (a custom
 * `lookup`, so a second DNS answer cannot rebind it); redirects refused, or — when the caller
 * allows a few — followed only to the same host, each hop vetted again like the first URL;
 * content type, size and time caps (the time cap covers every hop). Resolver and connector are
 * injectable so tests never send traffic anywhere but loopback.
 *
 * The `GuardedFetchError` messages name the cause precisely (DNS, address class, errno, status);
 * each caller decides how much of it a client may see (Web Bot Auth: nothing, key-directory.ts).
 * `refused` marks the causes decided before any connection (scheme, credentials, address class).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isLoopbackHost } from '../config.js';
import { classifyAddress } from './addresses.js';

/** Why a guarded fetch did not return a usable answer. */
export class GuardedFetchError extends Error {
  constructor(
    message: string,
    /** The system error code behind it, when there is one (ENOTFOUND, ECONNREFUSED…). */
    readonly code?: string,
    /** Refused by the guard itself before any connection: scheme, credentials, host or address class. */
    readonly refused = false,
  ) {
    super(message);
    this.name = 'GuardedFetchError';
  }
}

export interface FetchPolicy {
  /** Development only: loopback hosts and addresses are allowed, and plain http to a loopback host. */
  allowLoopback: boolean;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface FetchedResponse {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

/** A response with the URL it finally came from (after any redirects followed). */
export interface GuardedResponse extends FetchedResponse {
  url: URL;
}

export interface ConnectRequest {
  url: URL;
  /** The vetted addresses; the connection must go to one of these and nowhere else. */
  addresses: ResolvedAddress[];
  headers: Record<string, string>;
  timeoutMs: number;
  maxBytes: number;
  /** What is fetched, for messages ("directory", "page"); default "target". */
  label?: string;
}

export type Connector = (request: ConnectRequest) => Promise<FetchedResponse>;

export interface GuardedFetchOptions {
  policy: FetchPolicy;
  /** Acceptable media types (without parameters). */
  accept: readonly string[];
  resolver?: Resolver | undefined;
  connector?: Connector | undefined;
  /** For every hop together. Default 3000. */
  timeoutMs?: number;
  maxBytes?: number;
  userAgent?: string;
  /** What is fetched, named in every message ("the directory answered 404"); default "target". */
  label?: string;
  /** Same-host redirects followed at most; default 0 (a redirect is refused). */
  maxRedirects?: number;
}

const refuse = (message: string, code?: string): never => {
  throw new GuardedFetchError(message, code, true);
};

const fail = (message: string, code?: string): never => {
  throw new GuardedFetchError(message, code);
};

const errnoOf = (err: unknown): string | undefined => {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/** Parses and checks the URL itself: scheme, credentials, host. */
export function vetUrl(raw: string | URL, policy: FetchPolicy, label = 'target'): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse(`the ${label} URL is not a URL`);
  }
  if (url.username || url.password) refuse(`the ${label} URL must not carry credentials`);
  const loopbackHost = isLoopbackHost(url.hostname);
  if (url.protocol === 'http:') {
    if (!(policy.allowLoopback && loopbackHost)) refuse(`the ${label} URL must use https (plain http only to loopback in development)`);
  } else if (url.protocol !== 'https:') refuse(`the ${label} URL must use https`);
  if (loopbackHost && !policy.allowLoopback) refuse(`loopback ${label} hosts are allowed only in development`);
  url.hash = '';
  return url;
}

/** Resolves the host (IP literals as they are) and refuses it unless every address is allowed. */
export async function vetAddresses(url: URL, policy: FetchPolicy, resolver: Resolver, label = 'target'): Promise<ResolvedAddress[]> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  if (literal) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await resolver(host);
    } catch (err) {
      const code = errnoOf(err);
      return fail(`the ${label} host ${host} does not resolve${code ? ` (${code})` : ''}`, code);
    }
  }
  if (addresses.length === 0) fail(`the ${label} host ${host} does not resolve`);
  for (const { address } of addresses) {
    const kind = classifyAddress(address);
    if (kind === 'public' && url.protocol === 'https:') continue;
    if (kind === 'loopback' && policy.allowLoopback) continue;
    refuse(`the ${label} host ${host} resolves to a ${kind === 'public' ? 'non-loopback' : kind} address, which is not allowed`);
  }
  return addresses;
}

export const nodeConnector: Connector = ({ url, addresses, headers, timeoutMs, maxBytes, label = 'target' }) =>
  new Promise((resolve, reject) => {
    const pinned = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      const first = addresses[0];
      if (options.all) callback(null, addresses);
      else callback(null, first?.address, first?.family);
    }) as unknown as LookupFunction;
    const transport = url.protocol === 'https:' ? https : http;
    const tooLarge = () => new GuardedFetchError(`the ${label} is larger than ${maxBytes} bytes`, 'EFBIG');
    const request = transport.request(
      {
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers,
        agent: false,
        lookup: pinned,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const pairs: [string, string][] = [];
        for (let i = 0; i + 1 < response.rawHeaders.length; i += 2) pairs.push([response.rawHeaders[i] ?? '', response.rawHeaders[i + 1] ?? '']);
        if (status !== 200) {
          // Not read: the caller refuses it, or follows the redirect it names.
          request.destroy();
          resolve({ status, headers: pairs, body: Buffer.alloc(0) });
          return;
        }
        // Refused for its size: settled at once, so an 'end' of what was already buffered cannot
        // resolve it as an empty 200 (a small response arrives whole before it is destroyed).
        let oversize = false;
        const refuseSize = () => {
          oversize = true;
          request.destroy(tooLarge());
        };
        if (Number(response.headers['content-length'] ?? 0) > maxBytes) {
          refuseSize();
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (oversize) return;
          size += chunk.length;
          if (size > maxBytes) refuseSize();
          else chunks.push(chunk);
        });
        response.on('end', () => {
          if (!oversize) resolve({ status, headers: pairs, body: Buffer.concat(chunks) });
        });
        response.on('error', (err) => request.destroy(err));
      },
    );
    const timer = setTimeout(() => request.destroy(new GuardedFetchError(`the ${label} did not answer within ${timeoutMs} ms`, 'ETIMEDOUT')), timeoutMs);
    request.on('close', () => clearTimeout(timer));
    request.on('error', (err) => {
      clearTimeout(timer);
      reject(err instanceof GuardedFetchError ? err : new GuardedFetchError(`the ${label} could not be fetched (${errnoOf(err) ?? 'error'})`, errnoOf(err)));
    });
    request.end();
  });

function withDeadline<T>(promise: Promise<T>, ms: number, label: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new GuardedFetchError(`the ${label} did not answer within ${ms} ms`, 'ETIMEDOUT')), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

const headerOf = (response: FetchedResponse, name: string): string | undefined => response.headers.find(([n]) => n.toLowerCase() === name)?.[1];

/** The media type of a response, lowercased, without parameters ('' when none). */
export function mediaTypeOf(response: FetchedResponse): string {
  return (headerOf(response, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * A guarded GET answered with whatever status the server gave (a 404 or 503 is returned, not
 * thrown), after following at most `maxRedirects` same-host redirects. Only a 200's body is read.
 */
export async function guardedRequest(raw: string | URL, options: GuardedFetchOptions): Promise<GuardedResponse> {
  const timeoutMs = options.timeoutMs ?? 3000;
  const maxBytes = options.maxBytes ?? 64 * 1024;
  const label = options.label ?? 'target';
  const maxRedirects = options.maxRedirects ?? 0;
  let url = vetUrl(raw, options.policy, label);
  const host = url.hostname;
  return withDeadline(
    (async () => {
      const headers = {
        accept: options.accept.join(', '),
        'accept-encoding': 'identity',
        'user-agent': options.userAgent ?? 'Groundwork/1.0',
      };
      for (let hop = 0; ; hop++) {
        const addresses = await vetAddresses(url, options.policy, options.resolver ?? systemResolver, label);
        const response = await (options.connector ?? nodeConnector)({ url, addresses, headers, timeoutMs, maxBytes, label });
        if (response.status < 300 || response.status >= 400 || response.status === 304) return { ...response, url };
        if (maxRedirects === 0) return fail(`the ${label} answered a redirect (${response.status}); redirects are not followed`);
        if (hop >= maxRedirects) return fail(`the ${label} redirected more than ${maxRedirects} times`);
        const location = headerOf(response, 'location');
        if (!location) return fail(`the ${label} answered a redirect (${response.status}) without a Location`);
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          return fail(`the ${label} redirected to something that is not a URL`);
        }
        if (next.hostname !== host) return refuse(`the ${label} redirected to another host (${next.hostname}); only same-host redirects are followed`);
        // Every hop is vetted like the first URL: scheme, credentials, then its addresses (above).
        url = vetUrl(next, options.policy, label);
      }
    })(),
    timeoutMs,
    label,
  );
}

/** A guarded GET that must answer 200 with one of the accepted media types, within the size cap. */
export async function guardedGet(raw: string | URL, options: GuardedFetchOptions): Promise<GuardedResponse> {
  const maxBytes = options.maxBytes ?? 64 * 1024;
  const label = options.label ?? 'target';
  const response = await guardedRequest(raw, options);
  if (response.status !== 200) fail(`the ${label} answered ${response.status}`);
  if (response.body.length > maxBytes) fail(`the ${label} is larger than ${maxBytes} bytes`, 'EFBIG');
  const type = mediaTypeOf(response);
  if (!options.accept.includes(type)) fail(`the ${label} has content type "${type || 'none'}"`);
  return response;
}
