/**
 * Shows a tool's output: the main text (`result`) with a copy button, files with previews and
 * downloads (several → one ZIP), warnings, and the other fields as a list. Everything goes in as
 * text; an HTML result (Markdown preview) is shown in a sandboxed frame with scripts disabled.
 */
import { fieldLabel } from './labels.js';
import { zipSync } from 'fflate';
import type { ToolFile } from '../../tools/types.js';
import { copyText, formatBytes, h, notice, toast } from '../dashboard/dom.js';

export function isToolFile(value: unknown): value is ToolFile {
  return !!value && typeof value === 'object' && (value as ToolFile).data instanceof Uint8Array && typeof (value as ToolFile).name === 'string';
}

/** Every file in an output (top-level fields and arrays). */
export function filesOf(output: unknown): ToolFile[] {
  if (!output || typeof output !== 'object') return [];
  const files: ToolFile[] = [];
  for (const value of Object.values(output)) {
    if (isToolFile(value)) files.push(value);
    else if (Array.isArray(value)) files.push(...value.filter(isToolFile));
  }
  return files;
}

const urls: string[] = [];

/** Object URLs of the previous output are revoked when a new one is shown. */
function objectUrl(data: Uint8Array | string, type: string): string {
  const blob = new Blob([typeof data === 'string' ? data : (data.slice() as Uint8Array<ArrayBuffer>)], { type });
  const url = URL.createObjectURL(blob);
  urls.push(url);
  return url;
}

export function releaseUrls(): void {
  for (const url of urls.splice(0)) URL.revokeObjectURL(url);
}

/** A unique name inside a ZIP ("page.png", "page-2.png"). */
function uniqueNames(files: ToolFile[]): string[] {
  const seen = new Map<string, number>();
  return files.map(({ name }) => {
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    if (count === 1) return name;
    const dot = name.lastIndexOf('.');
    return dot > 0 ? `${name.slice(0, dot)}-${count}${name.slice(dot)}` : `${name}-${count}`;
  });
}

export function zipButton(files: ToolFile[], zipName: string): HTMLElement {
  const link = h('a', { class: 'button', download: zipName, href: '#' }, `Download all (${files.length} files, ZIP)`);
  link.addEventListener('click', (event) => {
    if (link.getAttribute('href') !== '#') return;
    event.preventDefault();
    const names = uniqueNames(files);
    const zip = zipSync(Object.fromEntries(files.map((file, i) => [names[i] as string, file.data])), { level: 0 });
    link.setAttribute('href', objectUrl(zip, 'application/zip'));
    link.click();
  });
  return link;
}

function fileCard(file: ToolFile): HTMLElement {
  const url = objectUrl(file.data, file.type);
  const preview = file.type.startsWith('image/') ? h('img', { src: url, alt: `Preview of ${file.name}` }) : null;
  return h('li', {}, preview, h('a', { href: url, download: file.name }, `Download ${file.name}`), h('span', { class: 'small muted' }, ` (${formatBytes(file.data.byteLength)})`));
}

function describeValue(value: unknown): HTMLElement | string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'object') return h('pre', {}, JSON.stringify(value, (_k, v: unknown) => (v instanceof Uint8Array ? `(${v.byteLength} bytes)` : v), 2));
  return String(value);
}

export function renderOutput(output: unknown, zipName: string): HTMLElement[] {
  if (!output || typeof output !== 'object') return [h('pre', {}, String(output))];
  const record = output as Record<string, unknown>;
  const parts: HTMLElement[] = [];
  const warnings = Array.isArray(record.warnings) ? record.warnings.filter((w): w is string => typeof w === 'string') : [];
  for (const warning of warnings) parts.push(notice('warn', warning));

  if (typeof record.result === 'string') {
    const text = h('textarea', { readonly: true, rows: Math.min(18, Math.max(3, record.result.split('\n').length + 1)), 'aria-label': 'Result', class: 'result-text' });
    text.value = record.result;
    const copy = h('button', { type: 'button', class: 'secondary small' }, 'Copy result');
    copy.addEventListener('click', async () => toast((await copyText(text.value, text)) ? 'Copied.' : 'Could not copy: select the text and copy it.'));
    parts.push(h('div', { class: 'field' }, text, copy));
    if (record.result.trimStart().startsWith('<svg')) parts.push(h('img', { src: objectUrl(record.result, 'image/svg+xml'), alt: 'Preview of the SVG result' }));
  }
  if (typeof record.html === 'string') {
    const frame = h('iframe', { sandbox: '', title: 'Rendered preview', referrerpolicy: 'no-referrer' });
    frame.srcdoc = record.html;
    parts.push(h('h3', {}, 'Preview'), frame);
  }

  const files = filesOf(output);
  if (files.length > 0) {
    parts.push(h('ul', { class: 'files' }, files.map(fileCard)));
    if (files.length > 1) parts.push(zipButton(files, zipName));
  }

  const rest = Object.entries(record).filter(([key, value]) => !['result', 'html', 'warnings'].includes(key) && !isToolFile(value) && !(Array.isArray(value) && value.length > 0 && value.every(isToolFile)));
  if (rest.length > 0) parts.push(h('dl', {}, rest.map(([key, value]) => [h('dt', {}, fieldLabel(key)), h('dd', {}, describeValue(value))])));
  return parts;
}
