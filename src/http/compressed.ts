/**
 * Static files served compressed without compressing per request: a file's brotli and gzip
 * forms are made once (zlib's asynchronous functions run on libuv's thread pool, not the event
 * loop), kept in memory, and chosen per request from `Accept-Encoding`. Every answer carries
 * `Vary: Accept-Encoding` and an ETag naming its encoding, so caches keep the forms apart.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export type Encoding = 'br' | 'gzip' | 'identity';

/**
 * The encoding to answer with, from `Accept-Encoding` (RFC 9110 §12.5.3): the offered one with the
 * highest q-value, brotli before gzip on a tie; `identity` when neither is acceptable.
 */
export function negotiateEncoding(header: string | string[] | undefined, offered: readonly Encoding[] = ['br', 'gzip']): Encoding {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  const q = new Map<string, number>();
  for (const part of value.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(weight) ? weight : 0);
  }
  let best: Encoding = 'identity';
  let bestWeight = 0;
  for (const encoding of offered) {
    if (encoding === 'identity') continue;
    const weight = q.get(encoding) ?? (encoding === 'gzip' ? q.get('x-gzip') : undefined) ?? q.get('*') ?? 0;
    if (weight > bestWeight) {
      best = encoding;
      bestWeight = weight;
    }
  }
  return best;
}

export interface CompressedFile {
  identity: Buffer;
  /** Present only when smaller than the identity form. */
  br?: Buffer;
  gzip?: Buffer;
  /** Hash of the identity bytes; the ETag of each form adds its encoding. */
  hash: string;
}

/** Hashes and compresses `body` once (off the event loop). Forms that are not smaller are dropped. */
export async function compressFile(body: Buffer): Promise<CompressedFile> {
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        // Quality 11 is slow on multi-megabyte files (the OCR core) for a percent or two; 9 is close and fast.
        [zlib.constants.BROTLI_PARAM_QUALITY]: body.length > 512 * 1024 ? 9 : 11,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzip(body, { level: 9 }),
  ]);
  return {
    identity: body,
    ...(br.length < body.length ? { br } : {}),
    ...(gz.length < body.length ? { gzip: gz } : {}),
    hash: createHash('sha256').update(body).digest('base64url').slice(0, 27),
  };
}

/** A file's identity form only (while its compressed forms are being made, or when not worth it). */
export function uncompressedFile(body: Buffer): CompressedFile {
  return { identity: body, hash: createHash('sha256').update(body).digest('base64url').slice(0, 27) };
}

/**
 * Sends the form of `file` the request accepts, with `Vary`, `Content-Encoding`, a per-form ETag
 * and `Content-Length`; answers `304` when `If-None-Match` names that ETag. Other headers
 * (type, caching) are the caller's.
 */
export function sendCompressed(request: FastifyRequest, reply: FastifyReply, file: CompressedFile): FastifyReply {
  const offered = (['br', 'gzip'] as const).filter((e) => file[e] !== undefined);
  const encoding = negotiateEncoding(request.headers['accept-encoding'], offered);
  const body = encoding === 'identity' ? file.identity : (file[encoding] ?? file.identity);
  const etag = encoding === 'identity' ? `"${file.hash}"` : `"${file.hash}-${encoding}"`;
  reply.header('vary', 'Accept-Encoding').header('etag', etag);
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  if (ifNoneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.header('content-length', body.length).send(body);
}

function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
