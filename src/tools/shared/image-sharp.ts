/**
 * The server's image codec: sharp (libvips). Server-only — imported by `server.ts` files, never by
 * browser code. sharp's own pixel limit backs up the header check of image-format.ts, EXIF
 * orientation is applied on input (as browsers do), and metadata is not copied to the output.
 */
import sharp, { type Sharp, type SharpOptions } from 'sharp';
import { ToolInputError } from '../types.js';
import { maxImagePixels } from './image-format.js';
import type { Box, DecodedImage, DrawPlan, Encoding, ImageCodec, Size } from './image-plan.js';

const inputOptions: SharpOptions = { limitInputPixels: maxImagePixels, autoOrient: true };
const transparent = { r: 0, g: 0, b: 0, alpha: 0 };

function undecodable(field: string): ToolInputError {
  return new ToolInputError('The image could not be decoded: the file is damaged or incomplete.', { field });
}

function encode(image: Sharp, { format, quality }: Encoding): Sharp {
  if (format === 'jpeg') return image.flatten({ background: '#ffffff' }).jpeg({ quality });
  if (format === 'webp') return image.webp({ quality });
  return image.png();
}

/** Whether the plan draws the whole image, unscaled, onto a canvas of its own size. */
function isWhole({ source, target, canvas }: DrawPlan, image: Size): boolean {
  const sameBox = (a: Box, b: Box): boolean => a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
  const whole = { x: 0, y: 0, ...image };
  return sameBox(source, whole) && sameBox(target, whole) && canvas.width === image.width && canvas.height === image.height;
}

/** Crop, scale and pad: the part of the plan before turning. */
function place(image: Sharp, { source, target, canvas }: DrawPlan): Sharp {
  const placed = image
    .extract({ left: source.x, top: source.y, width: source.width, height: source.height })
    .resize(target.width, target.height, { fit: 'fill' });
  if (target.width === canvas.width && target.height === canvas.height) return placed;
  const bottom = canvas.height - target.y - target.height;
  const right = canvas.width - target.x - target.width;
  return placed.ensureAlpha().extend({ top: target.y, left: target.x, bottom, right, background: transparent });
}

async function render(bytes: Uint8Array, upright: Size, plan: DrawPlan, encoding: Encoding): Promise<Uint8Array> {
  let image = sharp(bytes, inputOptions);
  const turns = plan.rotate !== 0 || plan.flipHorizontal || plan.flipVertical;
  if (!isWhole(plan, upright)) {
    image = place(image, plan);
    if (turns) {
      // sharp orders its operations itself; placing first, in its own pass, keeps the plan's order.
      const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
      image = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
    }
  }
  if (plan.rotate) image = image.rotate(plan.rotate);
  if (plan.flipHorizontal) image = image.flop();
  if (plan.flipVertical) image = image.flip();
  return new Uint8Array(await encode(image, encoding).toBuffer());
}

export const sharpCodec: ImageCodec = {
  async decode(bytes, field) {
    let size: Size;
    try {
      const metadata = await sharp(bytes, inputOptions).metadata();
      size = metadata.autoOrient;
    } catch (error) {
      if (error instanceof Error && /pixel limit/i.test(error.message)) {
        throw new ToolInputError(`The image has more than ${maxImagePixels / 1_000_000} megapixels.`, { field, kind: 'too_large' });
      }
      throw undecodable(field);
    }
    const decoded: DecodedImage = {
      ...size,
      async render(plan, encoding) {
        try {
          return await render(bytes, size, plan, encoding);
        } catch {
          throw undecodable(field);
        }
      },
      async rgba(target) {
        try {
          const image = sharp(bytes, inputOptions).resize(target.width, target.height, { fit: 'fill' }).ensureAlpha().raw();
          return new Uint8Array(await image.toBuffer());
        } catch {
          throw undecodable(field);
        }
      },
      close() {},
    };
    return decoded;
  },
};
