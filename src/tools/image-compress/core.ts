/**
 * Lossy re-encoding to JPEG or WebP at a chosen quality, optionally scaled down. Honest about the
 * result: when the new file is not smaller (a tiny or already well-compressed image), the original
 * is returned unchanged and a warning says so.
 */
import type { ImageHeader } from '../shared/image-format.js';
import { type ImageOutput, transformImage, withWarnings } from '../shared/image-job.js';
import { type ImageCodec, type Size, fitWithin, identityPlan, outputMediaType, outputName, qualityOf } from '../shared/image-plan.js';

export interface CompressInput {
  image: Uint8Array;
  format?: 'jpeg' | 'webp';
  quality?: number;
  maxDimension?: number;
}

export interface CompressOutput extends Omit<ImageOutput, 'format'> {
  format: ImageHeader['format'];
  /** Output bytes ÷ input bytes (1 when the original is kept). */
  ratio: number;
  savedPercent: number;
  keptOriginal: boolean;
}

function summary(output: Omit<CompressOutput, 'ratio' | 'savedPercent'>): CompressOutput {
  const ratio = output.bytes / output.inputBytes;
  return { ...output, ratio: Math.round(ratio * 1000) / 1000, savedPercent: Math.round((1 - ratio) * 1000) / 10 };
}

export async function compressImage(codec: ImageCodec, input: CompressInput): Promise<CompressOutput> {
  const format = input.format ?? 'webp';
  const quality = qualityOf(input.quality, 75);
  let original: { header: ImageHeader; size: Size; resized: boolean } | undefined;
  const output = await transformImage(codec, input.image, (header, decoded) => {
    const size = input.maxDimension ? fitWithin(decoded, input.maxDimension) : decoded;
    const resized = size.width !== decoded.width || size.height !== decoded.height;
    original = { header, size: decoded, resized };
    const plan = { ...identityPlan(size), source: { x: 0, y: 0, ...decoded } };
    return { plan, encoding: { format, quality }, action: 'compressed', warnings: [] };
  });
  const inputBytes = input.image.length;
  if (!original || output.bytes < inputBytes) return summary({ ...output, keptOriginal: false });
  const { header, size, resized } = original;
  if (resized) {
    return summary({ ...withWarnings(output, [`The scaled-down ${format.toUpperCase()} (${output.bytes} bytes) is larger than the original (${inputBytes} bytes).`]), keptOriginal: false });
  }
  const file = { name: outputName('original', size, header.format), type: outputMediaType(header.format), data: input.image };
  const warning = `Re-encoding as ${format.toUpperCase()} at quality ${quality} gave ${output.bytes} bytes, not smaller than the original ${inputBytes} bytes, so the original is returned unchanged.`;
  return summary(withWarnings({ file, ...size, format: header.format, bytes: inputBytes, inputBytes, keptOriginal: true }, [warning]));
}
