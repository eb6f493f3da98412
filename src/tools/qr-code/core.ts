/**
 * QR codes with qrcode's `create()` (the module matrix only); the SVG and the PNG are drawn
 * here, so no canvas is needed in a Worker or on the server.
 */
import QRCode from 'qrcode';
import { encodeGreyPng } from '../shared/developer-png.js';
import { ToolInputError, type ToolFile } from '../types.js';

export interface QrCodeInput {
  text: string;
  errorCorrection?: 'L' | 'M' | 'Q' | 'H';
  scale?: number;
  margin?: number;
}

export interface QrCodeOutput {
  /** The QR code as an SVG document. */
  result: string;
  file: ToolFile;
  version: number;
  modules: number;
  width: number;
  height: number;
}

interface Matrix {
  size: number;
  get(row: number, column: number): number | boolean;
}

function matrixOf(text: string, level: NonNullable<QrCodeInput['errorCorrection']>): { matrix: Matrix; version: number } {
  try {
    const code = QRCode.create(text, { errorCorrectionLevel: level });
    return { matrix: code.modules as unknown as Matrix, version: code.version };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/too big|amount of data/i.test(message)) {
      throw new ToolInputError(`The text is too long for a QR code with error correction ${level}: use less text or a lower level (L holds the most).`, { field: 'text' });
    }
    throw new ToolInputError(`No QR code can be made from this text: ${message}`, { field: 'text' });
  }
}

/** One path of unit squares, one per dark module, on a white background. */
function svgOf(matrix: Matrix, margin: number): string {
  const side = matrix.size + margin * 2;
  let path = '';
  for (let row = 0; row < matrix.size; row++) {
    for (let column = 0; column < matrix.size; column++) {
      if (matrix.get(row, column)) path += `M${column + margin} ${row + margin}h1v1h-1z`;
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}" shape-rendering="crispEdges"><rect width="${side}" height="${side}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
}

function pixelsOf(matrix: Matrix, margin: number, scale: number): { pixels: Uint8Array; side: number } {
  const side = (matrix.size + margin * 2) * scale;
  const pixels = new Uint8Array(side * side).fill(255);
  for (let y = 0; y < side; y++) {
    const row = Math.floor(y / scale) - margin;
    if (row < 0 || row >= matrix.size) continue;
    for (let x = 0; x < side; x++) {
      const column = Math.floor(x / scale) - margin;
      if (column >= 0 && column < matrix.size && matrix.get(row, column)) pixels[y * side + x] = 0;
    }
  }
  return { pixels, side };
}

export function run(input: QrCodeInput): QrCodeOutput {
  if (input.text === '') throw new ToolInputError('Enter the text or URL to encode.', { field: 'text' });
  const level = input.errorCorrection ?? 'M';
  const margin = input.margin ?? 4;
  const { matrix, version } = matrixOf(input.text, level);
  const { pixels, side } = pixelsOf(matrix, margin, input.scale ?? 8);
  return {
    result: svgOf(matrix, margin),
    file: { name: 'qr-code.png', type: 'image/png', data: encodeGreyPng(pixels, side, side) },
    version,
    modules: matrix.size,
    width: side,
    height: side,
  };
}
