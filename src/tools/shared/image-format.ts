/**
 * Image formats from their bytes, never from a file name: the magic bytes say which format it is,
 * and the header says how many pixels it has — read WITHOUT decoding, so a decompression bomb
 * (a few KB that decode to gigabytes) is refused before any pixel is touched. Pure: runs in a
 * Web Worker and in Node.
 */
import { ToolInputError } from '../types.js';

export type InputFormat = 'png' | 'jpeg' | 'webp' | 'gif';
export type OutputFormat = 'png' | 'jpeg' | 'webp';

/** The most pixels an image tool decodes (width × height). */
export const maxImagePixels = 50_000_000;

export const supportedInputs = 'PNG, JPEG, WebP and GIF';

export const mediaTypes: Record<InputFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' };
export const extensions: Record<InputFormat, string> = { png: 'png', jpeg: 'jpg', webp: 'webp', gif: 'gif' };

export interface ImageHeader {
  format: InputFormat;
  width: number;
  height: number;
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

function u16be(bytes: Uint8Array, at: number): number {
  return ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
}

function u16le(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
}

function u24le(bytes: Uint8Array, at: number): number {
  return u16le(bytes, at) | ((bytes[at + 2] ?? 0) << 16);
}

function u32be(bytes: Uint8Array, at: number): number {
  return u16be(bytes, at) * 0x10000 + u16be(bytes, at + 2);
}

/** The format named by the magic bytes, or a description of a known but unsupported one. */
export function sniffFormat(bytes: Uint8Array): InputFormat | { unsupported: string } {
  if (bytes[0] === 0x89 && ascii(bytes, 1, 3) === 'PNG') return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'webp';
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return 'gif';
  if (ascii(bytes, 4, 4) === 'ftyp') {
    const brand = ascii(bytes, 8, 4);
    if (brand.startsWith('avi')) return { unsupported: 'AVIF' };
    if (/^(hei|hev|mif1|msf1)/.test(brand)) return { unsupported: 'HEIC/HEIF' };
  }
  if (ascii(bytes, 0, 2) === 'BM') return { unsupported: 'BMP' };
  if (ascii(bytes, 0, 4) === 'II*\0' || ascii(bytes, 0, 4) === 'MM\0*') return { unsupported: 'TIFF' };
  if (/^\s*(<\?xml|<svg)/i.test(ascii(bytes, 0, 64))) return { unsupported: 'SVG' };
  if (ascii(bytes, 0, 5) === '%PDF-') return { unsupported: 'PDF' };
  return { unsupported: 'an unknown type' };
}

/** JPEG: walk the segments up to the start-of-frame marker, which holds the size. */
function jpegSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { height: u16be(bytes, at + 5), width: u16be(bytes, at + 7) };
    if (marker === 0xda || marker === 0xd9) return undefined; // scan data or end before any frame
    at += 2 + u16be(bytes, at + 2);
  }
  return undefined;
}

function webpSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const chunk = ascii(bytes, 12, 4);
  if (chunk === 'VP8 ' && bytes[23] === 0x9d && bytes[24] === 0x01 && bytes[25] === 0x2a) {
    return { width: u16le(bytes, 26) & 0x3fff, height: u16le(bytes, 28) & 0x3fff };
  }
  if (chunk === 'VP8L' && bytes[20] === 0x2f) {
    const bits = u16le(bytes, 21) | (u16le(bytes, 23) << 16);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: u24le(bytes, 24) + 1, height: u24le(bytes, 27) + 1 };
  return undefined;
}

function headerSize(format: InputFormat, bytes: Uint8Array): { width: number; height: number } | undefined {
  switch (format) {
    case 'png':
      return ascii(bytes, 12, 4) === 'IHDR' ? { width: u32be(bytes, 16), height: u32be(bytes, 20) } : undefined;
    case 'gif':
      return { width: u16le(bytes, 6), height: u16le(bytes, 8) };
    case 'webp':
      return webpSize(bytes);
    case 'jpeg':
      return jpegSize(bytes);
  }
}

/**
 * The format and stored size (before EXIF orientation) of an image file, or a refusal: 415 for a
 * type the image tools do not read, 413 over 50 megapixels, 422 when the header is broken.
 */
export function readImageHeader(bytes: Uint8Array, field = 'image'): ImageHeader {
  if (bytes.length === 0) throw new ToolInputError('The image is empty (0 bytes).', { field });
  const format = sniffFormat(bytes);
  if (typeof format !== 'string') {
    throw new ToolInputError(`The file is ${format.unsupported}, which this tool does not read. Supported: ${supportedInputs}.`, { field, kind: 'unsupported_type' });
  }
  const size = headerSize(format, bytes);
  if (!size || size.width === 0 || size.height === 0) {
    throw new ToolInputError(`The ${format.toUpperCase()} file is damaged: its header has no valid width and height.`, { field });
  }
  const pixels = size.width * size.height;
  if (pixels > maxImagePixels) {
    const megapixels = (pixels / 1_000_000).toFixed(1);
    throw new ToolInputError(`The image is ${size.width} × ${size.height} (${megapixels} megapixels); the limit is ${maxImagePixels / 1_000_000} megapixels.`, { field, kind: 'too_large' });
  }
  return { format, ...size };
}
