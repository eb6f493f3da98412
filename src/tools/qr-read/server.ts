/** qr-read on the server: sharp decodes the upload to RGBA after a size check from its metadata. */
import sharp, { type Metadata } from 'sharp';
import { ToolInputError } from '../types.js';
import { type QrReadInput, type QrReadOutput, readQr } from './core.js';
import { checkPixels, maxPixels, sniffImage } from './image-header.js';

export async function run(input: QrReadInput): Promise<QrReadOutput> {
  const type = sniffImage(input.image);
  let metadata: Metadata;
  try {
    metadata = await sharp(input.image).metadata();
  } catch {
    throw new ToolInputError(`The ${type.toUpperCase()} image is damaged and cannot be read.`, { field: 'image' });
  }
  checkPixels(metadata.width ?? 0, metadata.height ?? 0);
  try {
    const { data, info } = await sharp(input.image, { limitInputPixels: maxPixels }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    return readQr({ data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height });
  } catch (error) {
    if (error instanceof ToolInputError) throw error;
    throw new ToolInputError(`The ${type.toUpperCase()} image is damaged and cannot be decoded.`, { field: 'image' });
  }
}
