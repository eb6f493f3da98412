/**
 * Files the browser tools load at run time that Vite does not bundle (OCR worker, WASM core and
 * English language data), served from our own origin out of the npm packages that ship them:
 * no CDN, nothing fetched from elsewhere.
 */
import type { App } from '../types.js';

export async function toolAssetRoutes(_app: App): Promise<void> {
  // Filled in with the OCR tool.
}
