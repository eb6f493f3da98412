/**
 * Vite build of the web pages (`src/web`): the home page and the dashboard
 * (a single-page app for `/dashboard*`). Output goes to `dist/web`; the
 * service serves it (src/http/routes/web.ts). Hashed assets live under
 * `/web/assets/` so they never collide with API or widget paths.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const web = fileURLToPath(new URL('./src/web/', import.meta.url));

export default defineConfig({
  root: web,
  base: '/web/',
  publicDir: false,
  logLevel: 'warn',
  // Tool workers are ES modules with their own lazily loaded chunks.
  worker: { format: 'es' },
  build: {
    outDir: fileURLToPath(new URL('./dist/web/', import.meta.url)),
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
