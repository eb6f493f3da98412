/**
 * Tiny DOM helpers. Text always goes in as text nodes (never innerHTML), so
 * nothing from the server — records, answers, names — can become markup.
 */

export type Child = Node | string | number | null | undefined | false | Child[];
type AttrValue = string | number | boolean | null | undefined | ((event: Event) => void);
export type Attrs = Record<string, AttrValue>;

function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

function applyAttrs(el: Element, attrs: Attrs): void {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.slice(2).toLowerCase(), value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  applyAttrs(el, attrs);
  append(el, children);
  return el;
}

export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  applyAttrs(el, attrs);
  append(el, children);
  return el;
}

let counter = 0;
export const uid = (prefix = 'f'): string => `${prefix}-${++counter}`;

/** A labelled form field: label, control, optional hint (tied with aria-describedby). */
export function field(label: string, control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement, hint?: string): HTMLDivElement {
  control.id ||= uid();
  const hintEl = hint ? h('p', { class: 'hint', id: `${control.id}-hint` }, hint) : null;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control, hintEl);
}

export function notice(kind: 'error' | 'ok' | 'warn' | 'info', ...children: Child[]): HTMLDivElement {
  return h('div', { class: `notice ${kind}`, role: kind === 'error' ? 'alert' : null }, ...children);
}

let toastTimer: number | undefined;
/** A short polite announcement, visible for a few seconds. */
export function toast(message: string): void {
  const el = document.getElementById('toast');
  if (!el) return;
  el.textContent = message;
  window.clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => (el.textContent = ''), 4000);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A modal confirmation (native <dialog>: focus is trapped and Escape cancels). */
export function confirmDialog(title: string, text: string, confirmLabel: string): Promise<boolean> {
  return new Promise((resolve) => {
    const titleId = uid('dlg');
    const cancel = h('button', { type: 'button', class: 'secondary', value: 'cancel' }, 'Cancel');
    const ok = h('button', { type: 'button', class: 'danger', value: 'ok' }, confirmLabel);
    const dialog = h('dialog', { 'aria-labelledby': titleId }, h('h2', { id: titleId }, title), h('p', {}, text), h('div', { class: 'row' }, cancel, ok));
    const finish = (answer: boolean) => {
      if (dialog.open) dialog.close();
      dialog.remove();
      resolve(answer);
    };
    cancel.addEventListener('click', () => finish(false));
    ok.addEventListener('click', () => finish(true));
    dialog.addEventListener('cancel', () => finish(false));
    document.body.append(dialog);
    dialog.showModal();
    cancel.focus();
  });
}

/** Copies text, with a fallback for browsers without the async clipboard. */
export async function copyText(text: string, source?: HTMLInputElement | HTMLTextAreaElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (source) {
      source.select();
      return document.execCommand('copy');
    }
    return false;
  }
}

/** Marks a button busy while a promise runs, so it cannot be pressed twice. */
export async function busy<T>(button: HTMLButtonElement, work: () => Promise<T>): Promise<T> {
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  try {
    return await work();
  } finally {
    button.disabled = false;
    button.removeAttribute('aria-busy');
  }
}

/** Replaces an element's children (skipping empty ones). */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}
