/** Renders the chosen pages with pdf.js onto a canvas on the page, and encodes each as PNG or JPEG. */
import { GlobalWorkerOptions, getDocument } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { selectedIndices } from '../shared/pdf-pages.js';
import { openWithPdfjs, pdfjsSource } from '../shared/pdf-pdfjs.js';
import { ToolInputError, type ToolContext, type ToolFile } from '../types.js';
import { type PdfToImagesInput, type PdfToImagesOutput, planImages, renderOptions } from './core.js';

function encode(canvas: HTMLCanvasElement, type: string, quality: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? blob.arrayBuffer().then((buffer) => resolve(new Uint8Array(buffer)), reject) : reject(new Error('The browser could not encode the image.'))),
      type,
      quality,
    );
  });
}

export async function run(input: PdfToImagesInput, context?: ToolContext): Promise<PdfToImagesOutput> {
  GlobalWorkerOptions.workerSrc = workerUrl;
  const options = renderOptions(input);
  const doc = await openWithPdfjs((bytes) => getDocument(pdfjsSource(bytes)), input.file);
  try {
    const indices = selectedIndices(input.pages, doc.numPages, 'pages');
    const sizes = [];
    for (const index of indices) {
      const viewport = (await doc.getPage(index + 1)).getViewport({ scale: options.scale });
      sizes.push({ index, width: viewport.width, height: viewport.height });
    }
    const plan = planImages(sizes, options);
    const files: ToolFile[] = [];
    for (const [i, image] of plan.entries()) {
      context?.onProgress?.(i / plan.length, `Page ${image.index + 1}`);
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      try {
        const page = await doc.getPage(image.index + 1);
        await page.render({ canvas, viewport: page.getViewport({ scale: options.scale }) }).promise;
        files.push({ name: image.name, type: options.mimeType, data: await encode(canvas, options.mimeType, options.quality) });
        page.cleanup();
      } catch {
        throw new ToolInputError(`Page ${image.index + 1} could not be rendered: the PDF is damaged, or the image is too large for this browser.`, { field: 'file' });
      } finally {
        // Free the canvas memory now rather than at garbage collection.
        canvas.width = 0;
        canvas.height = 0;
      }
    }
    context?.onProgress?.(1);
    return { files, pageCount: plan.length, images: plan.map(({ index, name, width, height }) => ({ name, page: index + 1, width, height })) };
  } finally {
    await doc.destroy();
  }
}
