/**
 * Dominant colours by median cut: start with one box holding every opaque pixel, keep splitting the
 * box with the widest colour range at the median of that channel, then average each box. Pure and
 * deterministic (no random seeds), so the page and the server agree.
 */

export interface PaletteColour {
  hex: string;
  rgb: [number, number, number];
  /** Fraction of the opaque pixels in this colour's box, 0–1. */
  share: number;
}

type Pixel = [number, number, number];

interface ColourBox {
  pixels: Pixel[];
  channel: 0 | 1 | 2;
  range: number;
}

/** Pixels with alpha below this are background, not colour. */
const opaqueFrom = 128;

function boxOf(pixels: Pixel[]): ColourBox {
  const low = [255, 255, 255];
  const high = [0, 0, 0];
  for (const pixel of pixels) {
    for (let c = 0; c < 3; c++) {
      low[c] = Math.min(low[c] as number, pixel[c] as number);
      high[c] = Math.max(high[c] as number, pixel[c] as number);
    }
  }
  const ranges = high.map((h, c) => h - (low[c] as number));
  const channel = ranges.indexOf(Math.max(...ranges)) as 0 | 1 | 2;
  return { pixels, channel, range: ranges[channel] as number };
}

function split({ pixels, channel }: ColourBox): [ColourBox, ColourBox] {
  const sorted = [...pixels].sort((a, b) => a[channel] - b[channel]);
  // Split between different values, so both halves are non-empty and a colour is not cut in two.
  const median = sorted[Math.floor(sorted.length / 2)]?.[channel] as number;
  let cut = sorted.findIndex((p) => p[channel] >= median);
  if (cut === 0) cut = sorted.findIndex((p) => p[channel] > median);
  return [boxOf(sorted.slice(0, cut)), boxOf(sorted.slice(cut))];
}

function hex(rgb: Pixel): string {
  return `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

function average(pixels: Pixel[]): Pixel {
  const sum = [0, 0, 0];
  for (const pixel of pixels) for (let c = 0; c < 3; c++) sum[c] = (sum[c] as number) + (pixel[c] as number);
  return sum.map((s) => Math.round(s / pixels.length)) as Pixel;
}

/** Up to `count` dominant colours of RGBA pixels, most common first; fewer when the image has fewer. */
export function medianCut(rgba: Uint8Array, count: number): PaletteColour[] {
  const pixels: Pixel[] = [];
  for (let i = 0; i + 3 < rgba.length; i += 4) {
    if ((rgba[i + 3] as number) >= opaqueFrom) pixels.push([rgba[i] as number, rgba[i + 1] as number, rgba[i + 2] as number]);
  }
  if (pixels.length === 0) return [];
  const boxes = [boxOf(pixels)];
  while (boxes.length < count) {
    let widest = -1;
    for (let i = 0; i < boxes.length; i++) if ((boxes[i] as ColourBox).range > 0 && (widest < 0 || (boxes[i] as ColourBox).range > (boxes[widest] as ColourBox).range)) widest = i;
    if (widest < 0) break; // every box is a single colour
    boxes.splice(widest, 1, ...split(boxes[widest] as ColourBox));
  }
  const byHex = new Map<string, PaletteColour>();
  for (const box of boxes) {
    const rgb = average(box.pixels);
    const key = hex(rgb);
    const share = box.pixels.length / pixels.length + (byHex.get(key)?.share ?? 0);
    byHex.set(key, { hex: key, rgb, share });
  }
  return [...byHex.values()]
    .map((colour) => ({ ...colour, share: Math.round(colour.share * 10_000) / 10_000 }))
    .sort((a, b) => b.share - a.share || a.hex.localeCompare(b.hex));
}
