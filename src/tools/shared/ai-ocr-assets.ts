/**
 * The files the browser OCR loads at run time, served from our own origin (never a CDN) by
 * src/http/routes/tool-assets.ts straight out of the npm packages that ship them. This list is the
 * route's whole allow-list: any other name under the prefix is a 404.
 */
export const ocrAssetBase = '/tools/assets/ocr';

export interface OcrAsset {
  /** The URL path below `ocrAssetBase`. */
  path: string;
  /** What `require.resolve` finds in node_modules. */
  specifier: string;
  type: string;
}

const javascript = 'text/javascript; charset=utf-8';

/**
 * tesseract.js loads the LSTM-only core (the default engine) in the variant the browser supports:
 * relaxed SIMD, SIMD, or plain. `*.wasm.js` has the WebAssembly inlined; the `.js` + `.wasm` pairs
 * are served too for builds that fetch the binary separately.
 */
const coreVariants = ['tesseract-core-lstm', 'tesseract-core-simd-lstm', 'tesseract-core-relaxedsimd-lstm'];

export const ocrAssets: readonly OcrAsset[] = [
  { path: 'worker.min.js', specifier: 'tesseract.js/dist/worker.min.js', type: javascript },
  ...coreVariants.flatMap((name) => [
    { path: `core/${name}.wasm.js`, specifier: `tesseract.js-core/${name}.wasm.js`, type: javascript },
    { path: `core/${name}.js`, specifier: `tesseract.js-core/${name}.js`, type: javascript },
    { path: `core/${name}.wasm`, specifier: `tesseract.js-core/${name}.wasm`, type: 'application/wasm' },
  ]),
  // Gzipped as shipped; tesseract.js gunzips it itself (`gzip: true`), so no Content-Encoding.
  { path: 'lang/eng.traineddata.gz', specifier: '@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz', type: 'application/gzip' },
];
