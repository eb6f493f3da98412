/**
 * What kind of image a file is and how big, read from its first bytes before anything is
 * decoded, so oversized images are refused without spending memory on their pixels.
 */

export type ImageKind = 'png' | 'jpeg';

/** Other formats recognised only to name them in the refusal. */
const otherFormats: [string, (b: Uint8Array) => boolean][] = [
  ['GIF', (b) => ascii(b, 0, 4) === 'GIF8'],
  ['WebP', (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP'],
  ['BMP', (b) => ascii(b, 0, 2) === 'BM'],
  ['TIFF', (b) => ascii(b, 0, 4) === 'II*\0' || ascii(b, 0, 4) === 'MM\0*'],
  ['HEIC/AVIF', (b) => ascii(b, 4, 4) === 'ftyp'],
  ['PDF', (b) => ascii(b, 0, 5) === '%PDF-'],
  ['SVG', (b) => /<svg|<\?xml/i.test(ascii(b, 0, 256))],
];

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

export function imageKind(bytes: Uint8Array): ImageKind | undefined {
  if (bytes[0] === 0x89 && ascii(bytes, 1, 3) === 'PNG') return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  return undefined;
}

/** "a WebP image", or undefined when the format is not recognised. */
export function otherFormatName(bytes: Uint8Array): string | undefined {
  return otherFormats.find(([, test]) => test(bytes))?.[0];
}

function uint16(bytes: Uint8Array, at: number): number {
  return ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
}

function uint32(bytes: Uint8Array, at: number): number {
  return uint16(bytes, at) * 65536 + uint16(bytes, at + 2);
}

/** Width and height from the PNG IHDR chunk or the JPEG start-of-frame marker; undefined if not found. */
export function imageSize(bytes: Uint8Array, kind: ImageKind): { width: number; height: number } | undefined {
  if (kind === 'png') {
    if (bytes.length < 24 || ascii(bytes, 12, 4) !== 'IHDR') return undefined;
    return { width: uint32(bytes, 16), height: uint32(bytes, 20) };
  }
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1] ?? 0;
    // Fill bytes and markers without a length.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: uint16(bytes, at + 5), width: uint16(bytes, at + 7) };
    }
    at += 2 + uint16(bytes, at + 2);
  }
  return undefined;
}
