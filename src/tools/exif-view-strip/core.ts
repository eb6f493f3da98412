/**
 * EXIF metadata: read with exifr (pure JS, the same in the page and on the server), or removed by
 * re-encoding the pixels with the codec of the place it runs (a canvas or sharp writes no EXIF).
 */
import exifr from 'exifr';
import { ToolInputError } from '../types.js';
import { type InputFormat, readImageHeader } from '../shared/image-format.js';
import { type ImageOutput, sameFormat, transformImage, withWarnings } from '../shared/image-job.js';
import { type ImageCodec, identityPlan } from '../shared/image-plan.js';

export interface ExifInput {
  image: Uint8Array;
  mode?: 'view' | 'strip';
}

type TagValue = string | number | boolean | number[];

export interface ExifView {
  result: string;
  hasMetadata: boolean;
  make?: string;
  model?: string;
  dateTaken?: string;
  software?: string;
  orientation?: string;
  gps?: { latitude: number; longitude: number };
  tags: Record<string, TagValue>;
  warnings?: string[];
}

export type ExifStripOutput = ImageOutput & { removed: string[] };

/** exifr's blocks: the camera's TIFF/EXIF/GPS tags; no thumbnails, XMP, ICC or PNG header noise. */
const parseOptions = {
  tiff: true,
  exif: true,
  gps: true,
  interop: false,
  ifd1: false,
  xmp: false,
  icc: false,
  iptc: false,
  jfif: false,
  ihdr: false,
  // Raw EXIF date strings: a revived Date would depend on the time zone of the machine.
  reviveValues: false,
  translateValues: true,
  mergeOutput: true,
};

const maxTextLength = 500;

const labels = { make: 'Make', model: 'Model', dateTaken: 'Date taken', software: 'Software', orientation: 'Orientation', gps: 'GPS' };

function jsonSafe(value: unknown): TagValue | undefined {
  if (typeof value === 'string') return value.replace(/\0+$/, '').slice(0, maxTextLength);
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'boolean') return value;
  if (Array.isArray(value) && value.every((item) => typeof item === 'number')) return value.slice(0, 64);
  return undefined; // binary blocks (maker notes, version bytes)
}

function exifDate(value: unknown): string | undefined {
  return typeof value === 'string' ? value.replace(/^(\d{4}):(\d{2}):(\d{2})/, '$1-$2-$3') : undefined;
}

/**
 * exifr does not read WebP, whose EXIF is a RIFF chunk holding a plain TIFF block (sometimes after
 * an `Exif\0\0` prefix); exifr reads that block as it reads a TIFF file.
 */
function webpExif(bytes: Uint8Array): Uint8Array | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 12; at + 8 <= bytes.length; ) {
    const size = view.getUint32(at + 4, true);
    if (String.fromCharCode(...bytes.subarray(at, at + 4)) === 'EXIF') {
      const chunk = bytes.subarray(at + 8, Math.min(bytes.length, at + 8 + size));
      const hasPrefix = String.fromCharCode(...chunk.subarray(0, 4)) === 'Exif';
      return hasPrefix ? chunk.subarray(6) : chunk;
    }
    at += 8 + size + (size % 2); // chunks are padded to an even size
  }
  return undefined;
}

async function readTags(bytes: Uint8Array, format: InputFormat): Promise<Record<string, unknown>> {
  const block = format === 'webp' ? webpExif(bytes) : bytes;
  if (!block) return {};
  try {
    return ((await exifr.parse(block, parseOptions)) as Record<string, unknown> | undefined) ?? {};
  } catch {
    // exifr refuses formats it cannot hold metadata for (GIF) and unreadable blocks: no tags.
    return {};
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim().slice(0, maxTextLength) : undefined;
}

/** The metadata of an image: the usual fields by name, and every readable tag. */
export async function viewExif(bytes: Uint8Array): Promise<ExifView> {
  const { format } = readImageHeader(bytes);
  const raw = await readTags(bytes, format);
  const tags: Record<string, TagValue> = {};
  for (const [name, value] of Object.entries(raw)) {
    const safe = jsonSafe(value);
    if (safe !== undefined) tags[name] = safe;
  }
  const { latitude, longitude } = raw;
  const gps = typeof latitude === 'number' && typeof longitude === 'number' && Number.isFinite(latitude + longitude) ? { latitude, longitude } : undefined;
  const fields = {
    make: text(raw.Make),
    model: text(raw.Model),
    dateTaken: exifDate(raw.DateTimeOriginal ?? raw.CreateDate ?? raw.ModifyDate),
    software: text(raw.Software),
    orientation: text(raw.Orientation),
  };
  const lines = Object.entries({ ...fields, gps: gps && `${gps.latitude.toFixed(6)}, ${gps.longitude.toFixed(6)}` })
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${labels[name as keyof typeof labels]}: ${value}`);
  const hasMetadata = Object.keys(tags).length > 0;
  const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  const warnings = gps ? ['The image contains GPS coordinates: anyone you share it with can see where it was taken. Use strip mode to remove them.'] : [];
  const result = hasMetadata ? lines.join('\n') || `${Object.keys(tags).length} tags, none of the usual camera fields.` : 'No EXIF metadata found.';
  return withWarnings({ result, hasMetadata, ...defined, ...(gps ? { gps } : {}), tags }, warnings);
}

/** The image re-encoded without any metadata; EXIF orientation is applied to the pixels first. */
export async function stripExif(codec: ImageCodec, bytes: Uint8Array): Promise<ExifStripOutput> {
  const found = await viewExif(bytes);
  const removed = found.hasMetadata ? ['EXIF', ...(found.gps ? ['GPS'] : [])] : [];
  const output = await transformImage(codec, bytes, (header, decoded) => {
    const warnings = found.hasMetadata ? [] : ['No EXIF metadata was found; the image was re-encoded anyway.'];
    const format = sameFormat(header.format, warnings);
    if (format !== 'png') warnings.push(`${format.toUpperCase()} was re-encoded at quality 92 (a small quality loss).`);
    return { plan: identityPlan(decoded), encoding: { format, quality: 92 }, action: 'stripped', warnings };
  });
  return { ...output, removed };
}

/** View or strip, with the codec of the place it runs (strip needs one). */
export function exifTool(codec: ImageCodec | undefined, input: ExifInput): Promise<ExifView | ExifStripOutput> {
  if ((input.mode ?? 'view') === 'view') return viewExif(input.image);
  if (!codec) throw new ToolInputError('Strip mode re-encodes the image and needs the browser or server version of this tool.', { field: 'mode' });
  return stripExif(codec, input.image);
}
