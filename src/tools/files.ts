/**
 * Files in tool inputs and outputs. Over JSON (the API, MCP, `meta.examples`) a file is Base64; in
 * `run()` it is a `Uint8Array`. The schema says which fields are files:
 * `{type: "string", contentEncoding: "base64"}`, or an array of those.
 */
import { base64ToBytes, bytesToBase64 } from './shared/bytes.js';
import { type JsonSchema, ToolInputError } from './types.js';

function isFileSchema(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && (schema as JsonSchema).contentEncoding === 'base64';
}

/** The names of the input's file fields, and whether each takes several files. */
export function fileFields(schema: JsonSchema): { name: string; multiple: boolean; mediaType?: string }[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const out: { name: string; multiple: boolean; mediaType?: string }[] = [];
  for (const [name, property] of Object.entries(properties)) {
    if (isFileSchema(property)) out.push({ name, multiple: false, ...mediaType(property) });
    else if (property.type === 'array' && isFileSchema(property.items)) out.push({ name, multiple: true, ...mediaType(property.items as JsonSchema) });
  }
  return out;
}

function mediaType(schema: JsonSchema): { mediaType?: string } {
  return typeof schema.contentMediaType === 'string' ? { mediaType: schema.contentMediaType } : {};
}

const base64Text = /^[A-Za-z0-9+/]*={0,2}$/;

function decode(value: unknown, field: string): Uint8Array {
  if (typeof value !== 'string') throw new ToolInputError(`${field} must be a Base64 string.`, { field });
  const compact = value.replace(/\s+/g, '');
  // A data: URL is accepted too, as browsers produce them.
  const body = compact.startsWith('data:') ? compact.slice(compact.indexOf(',') + 1) : compact;
  if (!base64Text.test(body) || body.length % 4 === 1) throw new ToolInputError(`${field} is not valid Base64.`, { field });
  return base64ToBytes(body.padEnd(Math.ceil(body.length / 4) * 4, '='));
}

/** A copy of a JSON input with its file fields decoded to bytes. */
export function decodeFileFields(schema: JsonSchema, input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...input };
  for (const { name, multiple } of fileFields(schema)) {
    const value = out[name];
    if (value === undefined) continue;
    if (multiple) {
      if (!Array.isArray(value)) throw new ToolInputError(`${name} must be an array of Base64 strings.`, { field: name });
      out[name] = value.map((item, i) => decode(item, `${name}/${i}`));
    } else {
      out[name] = decode(value, name);
    }
  }
  return out;
}

/** A tool's output made JSON-safe: every `Uint8Array` in it becomes Base64. */
export function encodeFiles(value: unknown): unknown {
  if (value instanceof Uint8Array) return bytesToBase64(value);
  if (Array.isArray(value)) return value.map(encodeFiles);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = encodeFiles(item);
    return out;
  }
  return value;
}
