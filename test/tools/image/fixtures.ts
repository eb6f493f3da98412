/**
 * Images for the image-tool tests, made here with sharp (no binaries in the repo), plus headers
 * that only claim a size: a 60-megapixel PNG header is enough to prove the refusal happens before
 * any decoding.
 */
import sharp from 'sharp';

/** A solid or two-coloured image (left half `left`, right half `right`). */
export async function makeImage(
  width: number,
  height: number,
  format: 'png' | 'jpeg' | 'webp' | 'gif' = 'png',
  left: [number, number, number, number] = [220, 40, 40, 255],
  right: [number, number, number, number] = left,
): Promise<Uint8Array> {
  const pixels = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) pixels.set(x < width / 2 ? left : right, (y * width + x) * 4);
  }
  const image = sharp(pixels, { raw: { width, height, channels: 4 } });
  return new Uint8Array(await image.toFormat(format).toBuffer());
}

function crc32(bytes: Uint8Array): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/** A PNG that is only a signature and an IHDR claiming `width × height` (no pixel data). */
export function pngHeaderOnly(width: number, height: number): Uint8Array {
  const ihdr = new Uint8Array(17);
  const view = new DataView(ihdr.buffer);
  ihdr.set([0x49, 0x48, 0x44, 0x52]);
  view.setUint32(4, width);
  view.setUint32(8, height);
  ihdr.set([8, 6, 0, 0, 0], 12);
  const out = new Uint8Array(8 + 4 + 17 + 4);
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  new DataView(out.buffer).setUint32(8, 13);
  out.set(ihdr, 12);
  new DataView(out.buffer).setUint32(29, crc32(ihdr));
  return out;
}

/** The start of an HEIC file (ISO BMFF `ftyp` box with the `heic` brand). */
export const heicStart = new Uint8Array([0, 0, 0, 24, ...Buffer.from('ftypheic'), 0, 0, 0, 0, ...Buffer.from('mif1heic')]);
export const avifStart = new Uint8Array([0, 0, 0, 24, ...Buffer.from('ftypavif'), 0, 0, 0, 0, ...Buffer.from('mif1avif')]);

export function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}

/** What sharp reads from an output file. */
export async function inspect(data: Uint8Array): Promise<{ format: string | undefined; width: number | undefined; height: number | undefined; hasAlpha: boolean | undefined; exif: boolean }> {
  const m = await sharp(data).metadata();
  return { format: m.format, width: m.width, height: m.height, hasAlpha: m.hasAlpha, exif: m.exif !== undefined };
}
