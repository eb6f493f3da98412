/**
 * Builds the embeddable widget: `src/widget/index.ts` → `dist/widget/widget.js`,
 * one minified IIFE (ES2020) with no imports, served by `GET /widget.js`.
 * Prints the gzipped size and fails the build above the 15 KB budget
 * (product.md §9).
 */
import { gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

export const widgetBudgetBytes = 15 * 1024;

function gzipBudget(limit: number): Plugin {
  return {
    name: 'groundwork-widget-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== 'chunk') continue;
        const raw = Buffer.byteLength(file.code);
        const gzipped = gzipSync(file.code, { level: 9 }).length;
        const line = `widget: ${file.fileName} ${(raw / 1024).toFixed(1)} KB, ${(gzipped / 1024).toFixed(2)} KB gzipped (budget ${(limit / 1024).toFixed(0)} KB)`;
        if (gzipped > limit) this.error(`${line}: over budget`);
        this.info(line);
        console.log(line);
      }
    },
  };
}

export default defineConfig({
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: 'dist/widget',
    // Overwrite in place: other suites may be serving the file while a test run rebuilds it.
    emptyOutDir: false,
    target: 'es2020',
    minify: true,
    sourcemap: false,
    copyPublicDir: false,
    reportCompressedSize: false,
    lib: {
      entry: 'src/widget/index.ts',
      name: 'GroundworkWidgetBundle',
      formats: ['iife'],
      fileName: () => 'widget.js',
    },
  },
  plugins: [gzipBudget(widgetBudgetBytes)],
});
