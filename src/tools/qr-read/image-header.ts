/**
 * The type and size of an uploaded image from its first bytes, so that oversized images are
 * refused before any pixels are decoded (the browser has no metadata call like sharp's).
 */
import { ToolInputError } from '../types.js';

export type ImageType = 'png' | 'jpeg' | 'gif' | 'webp';

/** The largest image decoded: 50 megapixels are 200 MB of RGBA. */
export const maxPixels = 50_000_000;

const mediaTypes: Record<ImageType, string> = { png: 'image/png', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

/** The image type from its magic bytes (names and declared types are not trusted). */
export function sniffImage(bytes: Uint8Array): ImageType {
  if (bytes[0] === 0x89 && ascii(bytes, 1, 3) === 'PNG') return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (ascii(bytes, 0, 4) === 'GIF8') return 'gif';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'webp';
  throw new ToolInputError('The file is not a PNG, JPEG, GIF or WebP image.', { field: 'image', kind: 'unsupported_type' });
}

export function mediaTypeOf(type: ImageType): string {
  return mediaTypes[type];
}

function jpegSize(bytes: Uint8Array, view: DataView): { width: number; height: number } | undefined {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1] as number;
    // SOF0–SOF15 carry the size, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: view.getUint16(offset + 5), width: view.getUint16(offset + 7) };
    }
    offset += 2 + view.getUint16(offset + 2);
  }
  return undefined;
}

function webpSize(bytes: Uint8Array, view: DataView): { width: number; height: number } | undefined {
  const format = ascii(bytes, 12, 4);
  if (format === 'VP8X') return { width: 1 + (view.getUint32(24, true) & 0xffffff), height: 1 + (view.getUint32(27, true) & 0xffffff) };
  if (format === 'VP8L') {
    const bits = view.getUint32(21, true);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
  }
  if (format === 'VP8 ') return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  return undefined;
}

/** Width and height from the header, or a refusal when the header is cut off or broken. */
export function imageSize(bytes: Uint8Array, type: ImageType): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let size: { width: number; height: number } | undefined;
  try {
    if (type === 'png') size = { width: view.getUint32(16), height: view.getUint32(20) };
    else if (type === 'gif') size = { width: view.getUint16(6, true), height: view.getUint16(8, true) };
    else if (type === 'jpeg') size = jpegSize(bytes, view);
    else size = webpSize(bytes, view);
  } catch {
    size = undefined;
  }
  if (!size || size.width === 0 || size.height === 0) throw new ToolInputError(`The ${type.toUpperCase()} image is damaged: its size cannot be read.`, { field: 'image' });
  return size;
}

/** Refuses images over maxPixels, from dimensions read before decoding. */
export function checkPixels(width: number, height: number): void {
  if (width * height > maxPixels) {
    throw new ToolInputError(`The image is ${width} × ${height} pixels (${((width * height) / 1e6).toFixed(1)} megapixels); at most 50 megapixels are read.`, { field: 'image', kind: 'too_large' });
  }
}
