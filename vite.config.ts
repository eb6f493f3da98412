/**
 * Vite build of the web pages (`src/web`): the home page and the dashboard
 * (a single-page app for `/dashboard*`). Output goes to `dist/web`; the
 * service serves it (src/http/routes/web.ts). Hashed assets live under
 * `/web/assets/` so they never collide with API or widget paths.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

const web = fileURLToPath(new URL('./src/web/', import.meta.url));
const outDir = fileURLToPath(new URL('./dist/web/', import.meta.url));

/**
 * Writes `<asset>.br` and `<asset>.gz` next to every compressible built asset, so the service
 * (src/http/routes/web.ts, @fastify/static `preCompressed`) sends them compressed without
 * compressing per request. A form that is not smaller than the file is not written.
 */
function precompress(): Plugin {
  const brotli = promisify(zlib.brotliCompress);
  const gzip = promisify(zlib.gzip);
  return {
    name: 'groundwork-precompress',
    apply: 'build',
    async writeBundle() {
      const assets = path.join(outDir, 'assets');
      const names = (await fs.readdir(assets)).filter((name) => /\.(m?js|css|svg|json|wasm|txt|map)$/.test(name));
      await Promise.all(
        names.map(async (name) => {
          const file = path.join(assets, name);
          const body = await fs.readFile(file);
          if (body.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: body.length > 512 * 1024 ? 9 : 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
            gzip(body, { level: 9 }),
          ]);
          if (br.length < body.length) await fs.writeFile(`${file}.br`, br);
          if (gz.length < body.length) await fs.writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
}

export default defineConfig({
  root: web,
  base: '/web/',
  publicDir: false,
  logLevel: 'warn',
  plugins: [precompress()],
  // Tool workers are ES modules with their own lazily loaded chunks.
  worker: { format: 'es' },
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    assetsDir: 'assets',
    // No inline data: URIs: the Content-Security-Policy allows assets from our origin only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    // The tokenizer ranks (2 MB) and the OCR / PDF libraries are big by nature; each is its own
    // chunk, loaded only by the tool page that needs it.
    chunkSizeWarningLimit: 2500,
    rollupOptions: {
      checks: { pluginTimings: false },
      input: {
        home: `${web}index.html`,
        dashboard: `${web}dashboard.html`,
        preview: `${web}widget-preview.html`,
        tools: `${web}tools.html`,
      },
    },
  },
});
