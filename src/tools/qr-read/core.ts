/**
 * Finding and reading a QR code in decoded RGBA pixels with jsQR. Decoding the image file is
 * left to browser.ts (canvas) and server.ts (sharp), which both end here.
 */
import * as jsqrModule from 'jsqr';
import type { Options, QRCode } from 'jsqr';
import { ToolInputError } from '../types.js';

export interface QrReadInput {
  image: Uint8Array;
}

export interface RgbaImage {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

export interface QrReadOutput {
  result: string;
  version: number;
  /** Corners of the code in the image, in pixels. */
  corners: { topLeft: Point; topRight: Point; bottomRight: Point; bottomLeft: Point };
  width: number;
  height: number;
}

type JsQR = (data: Uint8ClampedArray, width: number, height: number, options?: Options) => QRCode | null;

/**
 * jsqr is CommonJS: Node and Vite give its function as the namespace's default, while the two
 * tsconfigs type the default import differently, so it is found at run time.
 */
const jsqrDefault = (jsqrModule as unknown as { default: JsQR | { default: JsQR } }).default;
const jsQR: JsQR = typeof jsqrDefault === 'function' ? jsqrDefault : jsqrDefault.default;

const point = ({ x, y }: Point): Point => ({ x: Math.round(x), y: Math.round(y) });

export function readQr(image: RgbaImage): QrReadOutput {
  const found = jsQR(image.data, image.width, image.height, { inversionAttempts: 'attemptBoth' });
  if (!found) throw new ToolInputError('No QR code was found in the image. Try a sharper, larger or less tilted picture.', { field: 'image' });
  const { topLeftCorner, topRightCorner, bottomRightCorner, bottomLeftCorner } = found.location;
  return {
    result: found.data,
    version: found.version,
    corners: { topLeft: point(topLeftCorner), topRight: point(topRightCorner), bottomRight: point(bottomRightCorner), bottomLeft: point(bottomLeftCorner) },
    width: image.width,
    height: image.height,
  };
}
