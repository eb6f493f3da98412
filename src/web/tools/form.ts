/**
 * A tool's form, generated from its input schema: text areas and one-line fields for strings,
 * menus for enums, number fields, check boxes, file pickers for file fields. `read()` turns the
 * form back into the tool's input (files as bytes, defaults filled in, empty optional fields left
 * out); `fill()` puts an example in.
 */
import { fieldLabel } from './labels.js';
import { base64ToBytes } from '../../tools/shared/bytes.js';
import type { JsonSchema, ToolMeta } from '../../tools/types.js';
import { h, uid } from '../dashboard/dom.js';

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

interface Field {
  name: string;
  schema: JsonSchema;
  control: Control;
  kind: 'file' | 'files' | 'enum' | 'boolean' | 'number' | 'string' | 'list' | 'json';
  /** Files set by an example (a file input cannot be given files from script in every browser). */
  exampleFiles?: File[];
  /** The text next to a file picker that names the example file in use. */
  exampleNote?: HTMLElement;
}

export interface ToolForm {
  element: HTMLElement;
  read(): Promise<Record<string, unknown>>;
  fill(input: Record<string, unknown>): void;
  /** The files chosen for the batch field, when there are several. */
  batchFiles(): File[];
}

/** Thrown by read() for a field the user must fix; the message names it. */
export class FormError extends Error {}

function kindOf(schema: JsonSchema): Field['kind'] {
  if (schema.contentEncoding === 'base64') return 'file';
  if (schema.type === 'array') {
    const items = (schema.items ?? {}) as JsonSchema;
    if (items.contentEncoding === 'base64') return 'files';
    return items.type === 'object' ? 'json' : 'list';
  }
  if (Array.isArray(schema.enum)) return 'enum';
  if (schema.type === 'boolean') return 'boolean';
  if (schema.type === 'integer' || schema.type === 'number') return 'number';
  if (schema.type === 'string') return 'string';
  return 'json';
}

const extensions: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/** A media type from the first bytes (examples carry Base64 only). */
function sniff(bytes: Uint8Array, fallback: string): string {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x25, 0x50, 0x44, 0x46)) return 'application/pdf';
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46)) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57) return 'image/webp';
  return fallback;
}

function exampleFile(base64: string, index: number): File {
  const bytes = base64ToBytes(base64.replace(/\s+/g, '').padEnd(Math.ceil(base64.replace(/\s+/g, '').length / 4) * 4, '='));
  const type = sniff(bytes, 'application/octet-stream');
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new File([copy], `example-${index + 1}.${extensions[type] ?? 'bin'}`, { type });
}

function control(name: string, schema: JsonSchema, kind: Field['kind'], multiple: boolean, optional: boolean): Control {
  const id = uid(`in-${name}`);
  switch (kind) {
    case 'file':
    case 'files':
      return h('input', { id, type: 'file', accept: String((kind === 'files' ? ((schema.items as JsonSchema).contentMediaType ?? '') : (schema.contentMediaType ?? '')) || ''), multiple: kind === 'files' || multiple });
    case 'enum':
      // An optional choice without a default may be left unset.
      return h(
        'select',
        { id },
        optional && schema.default === undefined ? h('option', { value: '' }, '(not set)') : null,
        (schema.enum as unknown[]).map((value) => h('option', { value: JSON.stringify(value) }, String(value))),
      );
    case 'boolean':
      return h('input', { id, type: 'checkbox' });
    case 'number':
      return h('input', {
        id,
        type: 'number',
        inputmode: schema.type === 'integer' ? 'numeric' : 'decimal',
        step: schema.type === 'integer' ? '1' : 'any',
        min: typeof schema.minimum === 'number' ? schema.minimum : null,
        max: typeof schema.maximum === 'number' ? schema.maximum : null,
      });
    case 'string':
      if (schema['x-ui'] === 'password') return h('input', { id, type: 'password', autocomplete: 'off' });
      if (schema['x-ui'] === 'line' || (typeof schema.maxLength === 'number' && schema.maxLength <= 200)) return h('input', { id, type: 'text', spellcheck: 'false' });
      return h('textarea', { id, rows: 6, spellcheck: 'false' });
    default:
      return h('textarea', { id, rows: kind === 'list' ? 2 : 4, spellcheck: 'false' });
  }
}

function hintOf(field: Field): string | undefined {
  const parts: string[] = [];
  if (typeof field.schema.description === 'string') parts.push(field.schema.description);
  if (field.kind === 'list') parts.push('Separate items with commas.');
  if (field.kind === 'json') parts.push('JSON.');
  return parts.length ? parts.join(' ') : undefined;
}

function setValue(field: Field, value: unknown): void {
  const { control: c, kind } = field;
  if (kind === 'file' || kind === 'files') {
    const list = (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((v): v is string => typeof v === 'string');
    field.exampleFiles = list.map(exampleFile);
    (c as HTMLInputElement).value = '';
    if (field.exampleNote) field.exampleNote.textContent = field.exampleFiles.length ? `Using the example: ${field.exampleFiles.map((f) => f.name).join(', ')}. Choose your own file to replace it.` : '';
    return;
  }
  if (kind === 'boolean') (c as HTMLInputElement).checked = value === true;
  else if (kind === 'enum') c.value = value === undefined ? (c as HTMLSelectElement).options[0]?.value ?? '' : JSON.stringify(value);
  else if (kind === 'list') c.value = Array.isArray(value) ? value.join(', ') : '';
  else if (kind === 'json') c.value = value === undefined ? '' : JSON.stringify(value, null, 2);
  else c.value = value === undefined || value === null ? '' : String(value);
}

async function bytesOf(file: File): Promise<Uint8Array> {
  return new Uint8Array(await file.arrayBuffer());
}

function chosenFiles(field: Field): File[] {
  const picked = [...((field.control as HTMLInputElement).files ?? [])];
  return picked.length ? picked : (field.exampleFiles ?? []);
}

async function readField(field: Field, required: boolean): Promise<unknown> {
  const { control: c, kind, schema, name } = field;
  const empty = (): undefined => {
    if (required && schema.default === undefined) throw new FormError(`${fieldLabel(name)} is required.`);
    return undefined;
  };
  switch (kind) {
    case 'file': {
      const file = chosenFiles(field)[0];
      return file ? bytesOf(file) : empty();
    }
    case 'files': {
      const files = chosenFiles(field);
      return files.length ? Promise.all(files.map(bytesOf)) : empty();
    }
    case 'boolean':
      return (c as HTMLInputElement).checked;
    case 'enum':
      return c.value === '' ? empty() : (JSON.parse(c.value) as unknown);
    case 'number': {
      if (c.value.trim() === '') return empty();
      const n = Number(c.value);
      if (!Number.isFinite(n)) throw new FormError(`${fieldLabel(name)} must be a number.`);
      return n;
    }
    case 'list': {
      if (c.value.trim() === '') return empty();
      const itemType = ((schema.items ?? {}) as JsonSchema).type;
      const items = c.value.split(',').map((s) => s.trim()).filter(Boolean);
      if (itemType !== 'integer' && itemType !== 'number') return items;
      return items.map((item) => {
        const n = Number(item);
        if (!Number.isFinite(n)) throw new FormError(`${fieldLabel(name)}: "${item}" is not a number.`);
        return n;
      });
    }
    case 'json': {
      if (c.value.trim() === '') return empty();
      try {
        return JSON.parse(c.value) as unknown;
      } catch {
        throw new FormError(`${fieldLabel(name)} is not valid JSON.`);
      }
    }
    default:
      return c.value === '' && !required ? undefined : c.value;
  }
}

export function buildForm(meta: ToolMeta): ToolForm {
  const properties = (meta.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((meta.inputSchema.required ?? []) as string[]);
  const fields: Field[] = Object.entries(properties).map(([name, schema]) => {
    const kind = kindOf(schema);
    return { name, schema, kind, control: control(name, schema, kind, meta.batchField === name, !required.has(name)) };
  });

  const element = h(
    'div',
    { class: 'tool-form' },
    fields.map((field) => {
      const hint = hintOf(field);
      const hintEl = hint ? h('p', { class: 'hint', id: `${field.control.id}-hint` }, hint) : null;
      if (hintEl) field.control.setAttribute('aria-describedby', hintEl.id);
      const text = `${fieldLabel(field.name)}${required.has(field.name) && field.schema.default === undefined ? ' (required)' : ''}`;
      if (field.kind === 'boolean') {
        return h('div', { class: 'field' }, h('label', { class: 'check', for: field.control.id }, field.control, text), hintEl);
      }
      if (field.kind === 'file' || field.kind === 'files') {
        field.exampleNote = h('p', { class: 'hint', 'aria-live': 'polite' });
        field.control.addEventListener('change', () => {
          if (field.exampleNote && (field.control as HTMLInputElement).files?.length) field.exampleNote.textContent = '';
        });
      }
      return h('div', { class: 'field' }, h('label', { for: field.control.id }, text), field.control, hintEl, field.exampleNote);
    }),
  );

  return {
    element,
    fill(input) {
      for (const field of fields) setValue(field, input[field.name] ?? field.schema.default);
    },
    async read() {
      const input: Record<string, unknown> = {};
      for (const field of fields) {
        const value = await readField(field, required.has(field.name));
        if (value !== undefined) input[field.name] = value;
        else if (field.schema.default !== undefined) input[field.name] = structuredClone(field.schema.default);
      }
      return input;
    },
    batchFiles() {
      const field = fields.find((f) => f.name === meta.batchField);
      return field ? chosenFiles(field) : [];
    },
  };
}
