/**
 * The common run of a one-image-in, one-image-out tool: check the header (type, megapixels), decode
 * with the codec of the place it runs (browser or sharp), let the tool decide the plan from the
 * decoded size, render, and describe the result the same way everywhere.
 */
import type { ToolFile } from '../types.js';
import { type ImageHeader, type InputFormat, type OutputFormat, readImageHeader } from './image-format.js';
import { type DrawPlan, type Encoding, type ImageCodec, type Size, outputMediaType, outputName, outputSize } from './image-plan.js';

export interface ImageOutput {
  file: ToolFile;
  width: number;
  height: number;
  format: OutputFormat;
  /** Size of the result, in bytes. */
  bytes: number;
  inputBytes: number;
  warnings?: string[];
}

export interface ImageStep {
  plan: DrawPlan;
  encoding: Encoding;
  /** First part of the output's name, e.g. `resized`. */
  action: string;
  warnings: string[];
}

/** Output format "same as the input": GIF cannot be written by browsers, so it becomes PNG. */
export function sameFormat(format: InputFormat, warnings: string[]): OutputFormat {
  if (format !== 'gif') return format;
  warnings.push('GIF is saved as PNG (only the first frame of an animation is kept).');
  return 'png';
}

/** Names the warnings only when there are some. */
export function withWarnings<T extends object>(output: T, warnings: string[]): T & { warnings?: string[] } {
  return warnings.length ? { ...output, warnings } : output;
}

export function describeImage(data: Uint8Array, size: Size, encoding: Encoding, action: string, inputBytes: number, warnings: string[]): ImageOutput {
  const file = { name: outputName(action, size, encoding.format), type: outputMediaType(encoding.format), data };
  return withWarnings({ file, width: size.width, height: size.height, format: encoding.format, bytes: data.length, inputBytes }, warnings);
}

/** Header check, decode, the tool's decision, render. */
export async function transformImage(
  codec: ImageCodec,
  bytes: Uint8Array,
  decide: (header: ImageHeader, decoded: Size) => ImageStep,
  field = 'image',
): Promise<ImageOutput> {
  const header = readImageHeader(bytes, field);
  const image = await codec.decode(bytes, field);
  try {
    const step = decide(header, { width: image.width, height: image.height });
    const data = await image.render(step.plan, step.encoding);
    return describeImage(data, outputSize(step.plan), step.encoding, step.action, bytes.length, step.warnings);
  } finally {
    image.close();
  }
}
