/**
 * What an image tool does to the pixels, as plain numbers decided in pure code, and the codec
 * interface that carries it out: the browser (OffscreenCanvas, image-canvas.ts) and the server
 * (sharp, image-sharp.ts) follow the same plan, so both give the same size and format.
 */
import { type InputFormat, type OutputFormat, extensions, mediaTypes } from './image-format.js';

export interface Size {
  width: number;
  height: number;
}

export interface Box extends Size {
  x: number;
  y: number;
}

/**
 * One drawing: take `source` from the (EXIF-oriented) image, scale it to `target` inside a
 * `canvas` (the rest stays transparent, or white in a JPEG), then turn and mirror the result.
 */
export interface DrawPlan {
  source: Box;
  canvas: Size;
  target: Box;
  rotate: 0 | 90 | 180 | 270;
  flipHorizontal: boolean;
  flipVertical: boolean;
}

export interface Encoding {
  format: OutputFormat;
  /** 1–100, for JPEG and WebP. */
  quality: number;
}

/** An image decoded by a codec, EXIF orientation already applied. */
export interface DecodedImage extends Size {
  render(plan: DrawPlan, encoding: Encoding): Promise<Uint8Array>;
  /** RGBA bytes, scaled (not cropped) to `size`. */
  rgba(size: Size): Promise<Uint8Array>;
  close(): void;
}

export interface ImageCodec {
  /** Decodes after the caller checked the header; a file that does not decode is a 422 refusal. */
  decode(bytes: Uint8Array, field: string): Promise<DecodedImage>;
}

export const defaultQuality = 90;

/** A JPEG/WebP quality the encoders accept: a whole number from 1 to 100 (the schema says so too). */
export function qualityOf(value: number | undefined, fallback = defaultQuality): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(100, Math.max(1, Math.round(value)));
}

/** The whole image drawn unchanged: the starting point of every plan. */
export function identityPlan(size: Size): DrawPlan {
  const whole = { x: 0, y: 0, width: size.width, height: size.height };
  return { source: whole, canvas: { ...size }, target: { ...whole }, rotate: 0, flipHorizontal: false, flipVertical: false };
}

/** The size of a plan's result: the canvas, turned. */
export function outputSize(plan: DrawPlan): Size {
  const quarter = plan.rotate === 90 || plan.rotate === 270;
  return quarter ? { width: plan.canvas.height, height: plan.canvas.width } : { ...plan.canvas };
}

/** Scales a size down (never up) so neither side exceeds `maxSide`; at least 1 × 1. */
export function fitWithin(size: Size, maxSide: number): Size {
  const scale = Math.min(1, maxSide / size.width, maxSide / size.height);
  return { width: Math.max(1, Math.round(size.width * scale)), height: Math.max(1, Math.round(size.height * scale)) };
}

/** `photo-800x600.png`-style names: what was done and the result's size. */
export function outputName(action: string, size: Size, format: InputFormat): string {
  return `${action}-${size.width}x${size.height}.${extensions[format]}`;
}

/** `image/png` for `png`. */
export function outputMediaType(format: InputFormat): string {
  return mediaTypes[format];
}
