/**
 * What the OCR accepts, checked before any pixel is decoded: PNG or JPEG by their magic bytes
 * (not by name), and the dimensions read from the header against a pixel limit.
 */
import { ToolInputError } from '../types.js';

export const maxOcrPixels = 25_000_000;

export interface ImageHeader {
  type: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
}

function pngHeader(bytes: Uint8Array): ImageHeader | undefined {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length < 24 || signature.some((b, i) => bytes[i] !== b)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { type: 'image/png', width: view.getUint32(16), height: view.getUint32(20) };
}

/** Walks the JPEG segments to the first start-of-frame marker, which holds the size. */
function jpegHeader(bytes: Uint8Array): ImageHeader | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8 || bytes[2] !== 0xff) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return { type: 'image/jpeg', width: 0, height: 0 };
    const marker = bytes[at + 1] as number;
    if (marker === 0xff) {
      at++;
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { type: 'image/jpeg', height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
    at += 2 + view.getUint16(at + 2);
  }
  return { type: 'image/jpeg', width: 0, height: 0 };
}

/** The image's type and size; refuses other types, unreadable headers and images over the limit. */
export function checkImage(bytes: Uint8Array, field = 'image'): ImageHeader {
  const header = pngHeader(bytes) ?? jpegHeader(bytes);
  if (!header) throw new ToolInputError('The file is not a PNG or JPEG image (checked by its content, not its name).', { field, kind: 'unsupported_type' });
  if (header.width === 0 || header.height === 0) throw new ToolInputError('The image is damaged: its size cannot be read.', { field });
  const pixels = header.width * header.height;
  if (pixels > maxOcrPixels) {
    throw new ToolInputError(
      `The image is ${header.width}×${header.height} (${Math.round(pixels / 1e6)} megapixels); OCR accepts at most ${maxOcrPixels / 1e6} megapixels. Scale it down first.`,
      { field, kind: 'too_large' },
    );
  }
  return header;
}
