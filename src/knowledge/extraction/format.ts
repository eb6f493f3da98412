import type { SourceFormat } from './types.js';

const BY_EXTENSION: Record<string, SourceFormat> = {
  json: 'json',
  jsonl: 'jsonl',
  ndjson: 'jsonl',
  txt: 'txt',
  text: 'txt',
  md: 'md',
  markdown: 'md',
  csv: 'csv',
  pdf: 'pdf',
  html: 'html',
  htm: 'html',
};

const BY_MEDIA_TYPE: Record<string, SourceFormat> = {
  'application/json': 'json',
  'application/x-ndjson': 'jsonl',
  'application/jsonl': 'jsonl',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/x-markdown': 'md',
  'text/csv': 'csv',
  'application/csv': 'csv',
  'text/comma-separated-values': 'csv',
  'application/pdf': 'pdf',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
};

/**
 * The format of an upload: by the file name's extension (case-insensitive),
 * else by the media type of the content type (parameters such as charset
 * ignored); undefined when neither is supported.
 */
export function detectFormat(fileName: string, contentType?: string): SourceFormat | undefined {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  if (dot > 0 || (dot === 0 && base.length > 1)) {
    const ext = base
      .slice(dot + 1)
      .trim()
      .toLowerCase();
    // hasOwn: a file called "x.constructor" must not find Object.prototype.
    if (Object.hasOwn(BY_EXTENSION, ext)) return BY_EXTENSION[ext];
  }
  if (contentType === undefined) return undefined;
  const mediaType = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return Object.hasOwn(BY_MEDIA_TYPE, mediaType) ? BY_MEDIA_TYPE[mediaType] : undefined;
}
