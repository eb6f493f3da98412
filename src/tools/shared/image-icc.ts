/**
 * Removes the colour profile that Chromium embeds in every canvas JPEG and WebP (a 456-byte sRGB
 * profile). sRGB is what viewers assume for an untagged image, so nothing changes visually, and a
 * small icon or a compressed photo does not carry half a kilobyte it does not need. Pure.
 */

const iccMarker = 'ICC_PROFILE\0';

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

/** JPEG: drop APP2 segments holding an ICC profile, up to the start of the scan. */
function jpegWithoutProfile(bytes: Uint8Array): Uint8Array {
  const kept: Uint8Array[] = [bytes.subarray(0, 2)];
  let at = 2;
  while (at + 4 <= bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1] as number;
    if (marker === 0xda) break; // start of scan: the rest is image data
    const end = at + 2 + (((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number));
    const isProfile = marker === 0xe2 && ascii(bytes, at + 4, iccMarker.length) === iccMarker;
    if (!isProfile) kept.push(bytes.subarray(at, end));
    at = end;
  }
  kept.push(bytes.subarray(at));
  return concat(kept);
}

/** WebP: drop the ICCP chunk, clear the profile flag of VP8X and fix the RIFF size. */
function webpWithoutProfile(bytes: Uint8Array): Uint8Array {
  if (ascii(bytes, 12, 4) !== 'VP8X') return bytes;
  const kept: Uint8Array[] = [bytes.subarray(0, 12)];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 12; at + 8 <= bytes.length; ) {
    const size = view.getUint32(at + 4, true);
    const end = Math.min(bytes.length, at + 8 + size + (size % 2));
    if (ascii(bytes, at, 4) !== 'ICCP') kept.push(bytes.subarray(at, end));
    at = end;
  }
  const out = concat(kept);
  const outView = new DataView(out.buffer);
  outView.setUint32(4, out.length - 8, true);
  out[20] = (out[20] as number) & ~0x20; // VP8X flags: ICC profile present
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The file without an embedded colour profile (PNG and other types are returned as they are). */
export function withoutColourProfile(bytes: Uint8Array, format: 'png' | 'jpeg' | 'webp'): Uint8Array {
  if (format === 'jpeg') return jpegWithoutProfile(bytes);
  if (format === 'webp') return webpWithoutProfile(bytes);
  return bytes;
}
