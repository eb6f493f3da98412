/**
 * Files the browser tools load at run time that Vite does not bundle (OCR worker, WASM core and
 * English language data), served from our own origin out of the npm packages that ship them:
 * no CDN, nothing fetched from elsewhere. Only the names in the allow-list are served; every other
 * path under the prefix is a 404, so no request can reach another file.
 *
 * The worker and cores are served brotli- or gzip-compressed to clients that accept it. Each file
 * is read and compressed once, on its first request, off the event loop (src/http/compressed.ts),
 * and kept in memory; until that is done the file is streamed as it is. The language data is
 * gzipped already (tesseract.js gunzips it itself) and is always sent as it is.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { ocrAssetBase, ocrAssets } from '../../tools/shared/ai-ocr-assets.js';
import { type CompressedFile, compressFile, sendCompressed } from '../compressed.js';
import type { App } from '../types.js';

const require = createRequire(import.meta.url);

interface ServedFile {
  file: string;
  type: string;
  compressible: boolean;
  /** Set once the compressed forms are ready; `pending` while they are being made. */
  compressed?: CompressedFile;
  pending?: Promise<void>;
}

/** URL path → file on disk, resolved once at start-up (a missing package fails loudly then, not per request). */
function resolveAssets(): Map<string, ServedFile> {
  const served = new Map<string, ServedFile>();
  for (const asset of ocrAssets) {
    served.set(`${ocrAssetBase}/${asset.path}`, {
      file: require.resolve(asset.specifier),
      type: asset.type,
      compressible: asset.type !== 'application/gzip',
    });
  }
  return served;
}

export async function toolAssetRoutes(app: App): Promise<void> {
  const served = resolveAssets();
  app.get(`${ocrAssetBase}/*`, { schema: { hide: true } }, async (request, reply) => {
    const asset = served.get(request.url.split('?')[0] ?? '');
    if (!asset) return reply.callNotFound();
    reply
      // The URLs carry no version, so a week rather than "immutable": an upgrade reaches browsers within days.
      .header('cache-control', 'public, max-age=604800')
      .header('x-content-type-options', 'nosniff')
      .type(asset.type);
    if (asset.compressed) return sendCompressed(request, reply, asset.compressed);
    if (asset.compressible) {
      asset.pending ??= fs.promises
        .readFile(asset.file)
        .then(compressFile)
        .then(
          (compressed) => {
            asset.compressed = compressed;
          },
          (err: unknown) => {
            request.log.warn({ err, file: asset.file }, 'compressing a tool asset failed; serving it uncompressed');
            asset.pending = undefined;
          },
        );
      // The answer will depend on Accept-Encoding once the compressed forms exist.
      reply.header('vary', 'Accept-Encoding');
    }
    const stat = await fs.promises.stat(asset.file);
    return reply.header('content-length', stat.size).send(fs.createReadStream(asset.file));
  });
}
