/** qr-read in the page's Worker: the browser decodes the upload, jsQR reads the pixels. */
import { ToolInputError } from '../types.js';
import { type QrReadInput, type QrReadOutput, readQr } from './core.js';
import { checkPixels, imageSize, mediaTypeOf, sniffImage } from './image-header.js';

export async function run(input: QrReadInput): Promise<QrReadOutput> {
  const type = sniffImage(input.image);
  const { width, height } = imageSize(input.image, type);
  checkPixels(width, height);
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(new Blob([input.image as Uint8Array<ArrayBuffer>], { type: mediaTypeOf(type) }));
  } catch {
    throw new ToolInputError(`The ${type.toUpperCase()} image is damaged and cannot be decoded.`, { field: 'image' });
  }
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('OffscreenCanvas 2D is not available');
  context.drawImage(bitmap, 0, 0);
  bitmap.close();
  const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
  return readQr({ data: pixels.data, width: pixels.width, height: pixels.height });
}
