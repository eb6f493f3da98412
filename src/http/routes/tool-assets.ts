/**
 * Files the browser tools load at run time that Vite does not bundle (OCR worker, WASM core and
 * English language data), served from our own origin out of the npm packages that ship them:
 * no CDN, nothing fetched from elsewhere. Only the names in the allow-list are served; every other
 * path under the prefix is a 404, so no request can reach another file.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { ocrAssetBase, ocrAssets } from '../../tools/shared/ai-ocr-assets.js';
import type { App } from '../types.js';

const require = createRequire(import.meta.url);

interface ServedFile {
  file: string;
  type: string;
}

/** URL path → file on disk, resolved once at start-up (a missing package fails loudly then, not per request). */
function resolveAssets(): Map<string, ServedFile> {
  const served = new Map<string, ServedFile>();
  for (const asset of ocrAssets) served.set(`${ocrAssetBase}/${asset.path}`, { file: require.resolve(asset.specifier), type: asset.type });
  return served;
}

export async function toolAssetRoutes(app: App): Promise<void> {
  const served = resolveAssets();
  app.get(`${ocrAssetBase}/*`, { schema: { hide: true } }, async (request, reply) => {
    const asset = served.get(request.url.split('?')[0] ?? '');
    if (!asset) return reply.callNotFound();
    const stat = await fs.promises.stat(asset.file);
    return (
      reply
        // The URLs carry no version, so a week rather than "immutable": an upgrade reaches browsers within days.
        .header('cache-control', 'public, max-age=604800')
        .header('x-content-type-options', 'nosniff')
        .header('content-length', stat.size)
        .type(asset.type)
        .send(fs.createReadStream(asset.file))
    );
  });
}
