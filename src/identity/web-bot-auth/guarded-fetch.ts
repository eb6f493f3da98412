/**
 * GET of a bot's key directory with SSRF guards: https only (plain http only
 * to a loopback host, and only under the development policy); the host is
 * resolved here and every address must be public (loopback too under the
 * development policy); the connection goes to the vetted addresses (a custom
 * `lookup`, so a second DNS answer cannot rebind it); no redirects; 200 only;
 * content type, size and time caps. Resolver and connector are injectable so
 * tests never send traffic anywhere but loopback.
 *
 * The `DirectoryFetchError` messages here name the cause precisely (DNS,
 * address class, errno, status) for the server's debug log; the client only
 * ever gets `DIRECTORY_UNAVAILABLE` (key-directory.ts).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isLoopbackHost } from '../../config.js';
import { classifyAddress } from './addresses.js';
import { DirectoryFetchError } from './errors.js';

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

export interface ConnectRequest {
  url: URL;
  /** The vetted addresses; the connection must go to one of these and nowhere else. */
  addresses: ResolvedAddress[];
  headers: Record<string, string>;
  timeoutMs: number;
  maxBytes: number;
}

export type Connector = (request: ConnectRequest) => Promise<FetchedResponse>;

export interface GuardedFetchOptions {
  policy: FetchPolicy;
  /** Acceptable media types (without parameters). */
  accept: readonly string[];
  resolver?: Resolver | undefined;
  connector?: Connector | undefined;
  timeoutMs?: number;
  maxBytes?: number;
  userAgent?: string;
}

const refuse = (message: string, code?: string): never => {
  throw new DirectoryFetchError(message, code);
};

const errnoOf = (err: unknown): string | undefined => {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/** Parses and checks the URL itself: scheme, credentials, host. */
export function vetUrl(raw: string | URL, policy: FetchPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('the directory URL is not a URL');
  }
  if (url.username || url.password) refuse('the directory URL must not carry credentials');
  const loopbackHost = isLoopbackHost(url.hostname);
  if (url.protocol === 'http:') {
    if (!(policy.allowLoopback && loopbackHost)) refuse('the directory URL must use https (plain http only to loopback in development)');
  } else if (url.protocol !== 'https:') refuse('the directory URL must use https');
  if (loopbackHost && !policy.allowLoopback) refuse('loopback directory hosts are allowed only in development');
  url.hash = '';
  return url;
}

/** Resolves the host (IP literals as they are) and refuses it unless every address is allowed. */
export async function vetAddresses(url: URL, policy: FetchPolicy, resolver: Resolver): Promise<ResolvedAddress[]> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  if (literal) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await resolver(host);
    } catch (err) {
      const code = errnoOf(err);
      return refuse(`the directory host ${host} does not resolve${code ? ` (${code})` : ''}`, code);
    }
  }
  if (addresses.length === 0) refuse(`the directory host ${host} does not resolve`);
  for (const { address } of addresses) {
    const kind = classifyAddress(address);
    if (kind === 'public' && url.protocol === 'https:') continue;
    if (kind === 'loopback' && policy.allowLoopback) continue;
    refuse(`the directory host ${host} resolves to a ${kind === 'public' ? 'non-loopback' : kind} address, which is not allowed`);
  }
  return addresses;
}

export const nodeConnector: Connector = ({ url, addresses, headers, timeoutMs, maxBytes }) =>
  new Promise((resolve, reject) => {
    const pinned = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      const first = addresses[0];
      if (options.all) callback(null, addresses);
      else callback(null, first?.address, first?.family);
    }) as unknown as LookupFunction;
    const transport = url.protocol === 'https:' ? https : http;
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
          // Not followed, not read: the caller refuses it.
          request.destroy();
          resolve({ status, headers: pairs, body: Buffer.alloc(0) });
          return;
        }
        if (Number(response.headers['content-length'] ?? 0) > maxBytes) {
          request.destroy(new DirectoryFetchError(`the directory is larger than ${maxBytes} bytes`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) request.destroy(new DirectoryFetchError(`the directory is larger than ${maxBytes} bytes`));
          else chunks.push(chunk);
        });
        response.on('end', () => resolve({ status, headers: pairs, body: Buffer.concat(chunks) }));
        response.on('error', (err) => request.destroy(err));
      },
    );
    const timer = setTimeout(() => request.destroy(new DirectoryFetchError(`the directory did not answer within ${timeoutMs} ms`, 'ETIMEDOUT')), timeoutMs);
    request.on('close', () => clearTimeout(timer));
    request.on('error', (err) => {
      clearTimeout(timer);
      reject(err instanceof DirectoryFetchError ? err : new DirectoryFetchError(`the directory could not be fetched (${errnoOf(err) ?? 'error'})`, errnoOf(err)));
    });
    request.end();
  });

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DirectoryFetchError(`the directory did not answer within ${ms} ms`, 'ETIMEDOUT')), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

export async function guardedGet(raw: string | URL, options: GuardedFetchOptions): Promise<FetchedResponse> {
  const timeoutMs = options.timeoutMs ?? 3000;
  const maxBytes = options.maxBytes ?? 64 * 1024;
  const url = vetUrl(raw, options.policy);
  return withDeadline(
    (async () => {
      const addresses = await vetAddresses(url, options.policy, options.resolver ?? systemResolver);
      const headers = {
        accept: options.accept.join(', '),
        'accept-encoding': 'identity',
        'user-agent': options.userAgent ?? 'Groundwork-WebBotAuth/1.0',
      };
      const response = await (options.connector ?? nodeConnector)({ url, addresses, headers, timeoutMs, maxBytes });
      if (response.status >= 300 && response.status < 400) refuse(`the directory answered a redirect (${response.status}); redirects are not followed`);
      if (response.status !== 200) refuse(`the directory answered ${response.status}`);
      if (response.body.length > maxBytes) refuse(`the directory is larger than ${maxBytes} bytes`);
      const type = (response.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      if (!options.accept.includes(type)) refuse(`the directory has content type "${type || 'none'}"`);
      return response;
    })(),
    timeoutMs,
  );
}
