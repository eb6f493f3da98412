/**
 * The browser's image codec: createImageBitmap (which applies EXIF orientation) and OffscreenCanvas,
 * so it runs in the tool Web Worker. Browser-only (DOM types) — imported by `browser.ts` files only.
 * A canvas never copies metadata, so every output is free of EXIF; Chromium's embedded sRGB
 * profile is dropped too (image-icc.ts).
 */
import { ToolInputError } from '../types.js';
import type { DecodedImage, DrawPlan, Encoding, ImageCodec, Size } from './image-plan.js';
import { outputMediaType, outputSize } from './image-plan.js';
import { withoutColourProfile } from './image-icc.js';

function undecodable(field: string): ToolInputError {
  return new ToolInputError('The image could not be decoded: the file is damaged or incomplete.', { field });
}

function context2d(canvas: OffscreenCanvas): OffscreenCanvasRenderingContext2D {
  const context = canvas.getContext('2d');
  if (!context) throw new Error('This browser cannot draw on an OffscreenCanvas.');
  context.imageSmoothingEnabled = true;
  context.imageSmoothingQuality = 'high';
  return context;
}

/** Moves the origin so that drawing the unturned canvas lands turned and mirrored in `out`. */
function turn(context: OffscreenCanvasRenderingContext2D, plan: DrawPlan, out: Size): void {
  context.translate(out.width / 2, out.height / 2);
  context.scale(plan.flipHorizontal ? -1 : 1, plan.flipVertical ? -1 : 1);
  context.rotate((plan.rotate * Math.PI) / 180);
  context.translate(-plan.canvas.width / 2, -plan.canvas.height / 2);
}

async function encode(canvas: OffscreenCanvas, { format, quality }: Encoding): Promise<Uint8Array> {
  const type = outputMediaType(format);
  const blob = await canvas.convertToBlob({ type, quality: quality / 100 });
  // Browsers silently fall back to PNG for a type they cannot write.
  if (blob.type !== type) throw new Error(`This browser cannot write ${format.toUpperCase()} images.`);
  return withoutColourProfile(new Uint8Array(await blob.arrayBuffer()), format);
}

function render(bitmap: ImageBitmap, plan: DrawPlan, encoding: Encoding): Promise<Uint8Array> {
  const out = outputSize(plan);
  const canvas = new OffscreenCanvas(out.width, out.height);
  const context = context2d(canvas);
  if (encoding.format === 'jpeg') {
    // JPEG has no alpha: transparent areas become white, not black.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, out.width, out.height);
  }
  turn(context, plan, out);
  const { source, target } = plan;
  context.drawImage(bitmap, source.x, source.y, source.width, source.height, target.x, target.y, target.width, target.height);
  return encode(canvas, encoding);
}

function rgba(bitmap: ImageBitmap, size: Size): Uint8Array {
  const canvas = new OffscreenCanvas(size.width, size.height);
  const context = context2d(canvas);
  context.drawImage(bitmap, 0, 0, size.width, size.height);
  const { data } = context.getImageData(0, 0, size.width, size.height);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

export const canvasCodec: ImageCodec = {
  async decode(bytes, field) {
    let bitmap: ImageBitmap;
    try {
      bitmap = await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>]), { imageOrientation: 'from-image', premultiplyAlpha: 'none' });
    } catch {
      throw undecodable(field);
    }
    const decoded: DecodedImage = {
      width: bitmap.width,
      height: bitmap.height,
      render: (plan, encoding) => render(bitmap, plan, encoding),
      rgba: async (size) => rgba(bitmap, size),
      close: () => bitmap.close(),
    };
    return decoded;
  },
};
