/**
 * A minimal ICO writer: a directory of PNG-compressed entries (supported by every browser and by
 * Windows since Vista), so no BMP encoding is needed. Pure.
 */

export interface IcoEntry {
  /** Square side in pixels, 1–256. */
  size: number;
  png: Uint8Array;
}

const headerBytes = 6;
const entryBytes = 16;

export function writeIco(entries: IcoEntry[]): Uint8Array {
  const total = headerBytes + entries.length * entryBytes + entries.reduce((sum, e) => sum + e.png.length, 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint16(2, 1, true); // type 1: icon
  view.setUint16(4, entries.length, true);
  let offset = headerBytes + entries.length * entryBytes;
  entries.forEach(({ size, png }, i) => {
    const at = headerBytes + i * entryBytes;
    out[at] = size >= 256 ? 0 : size; // 0 means 256
    out[at + 1] = size >= 256 ? 0 : size;
    view.setUint16(at + 4, 1, true); // colour planes
    view.setUint16(at + 6, 32, true); // bits per pixel
    view.setUint32(at + 8, png.length, true);
    view.setUint32(at + 12, offset, true);
    out.set(png, offset);
    offset += png.length;
  });
  return out;
}

/** The entries of an ICO file (sizes and data), for checks. */
export function readIcoEntries(ico: Uint8Array): IcoEntry[] {
  const view = new DataView(ico.buffer, ico.byteOffset, ico.byteLength);
  const count = view.getUint16(4, true);
  return Array.from({ length: count }, (_, i) => {
    const at = headerBytes + i * entryBytes;
    const length = view.getUint32(at + 8, true);
    const offset = view.getUint32(at + 12, true);
    return { size: ico[at] || 256, png: ico.subarray(offset, offset + length) };
  });
}
