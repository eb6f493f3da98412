/**
 * The slice of the browser's DOM the widget uses, typed here because the
 * project compiles against Node's globals only (tsconfig `lib` has no DOM,
 * and adding it globally would change every server file's types). One broad
 * element type keeps the widget small; the browser tests check it for real.
 */

export interface WEvent {
  readonly type: string;
  readonly key?: string;
  readonly shiftKey?: boolean;
  readonly isComposing?: boolean;
  readonly target: unknown;
  preventDefault(): void;
}

export interface WNode {
  textContent: string | null;
  remove(): void;
}

export interface WText extends WNode {
  appendData(data: string): void;
}

export interface WStyle {
  setProperty(name: string, value: string): void;
}

export interface WElement extends WNode {
  id: string;
  className: string;
  hidden: boolean;
  disabled: boolean;
  open: boolean;
  value: string;
  innerHTML: string;
  readonly src: string;
  readonly style: WStyle;
  readonly classList: { add(...names: string[]): void; remove(...names: string[]): void; toggle(name: string, force?: boolean): boolean };
  scrollTop: number;
  readonly scrollHeight: number;
  setAttribute(name: string, value: string): void;
  getAttribute(name: string): string | null;
  removeAttribute(name: string): void;
  append(...nodes: (WNode | string)[]): void;
  replaceChildren(...nodes: (WNode | string)[]): void;
  after(...nodes: (WNode | string)[]): void;
  querySelector(selector: string): WElement | null;
  addEventListener(type: string, listener: (event: WEvent) => void): void;
  dispatchEvent(event: unknown): boolean;
  focus(options?: { preventScroll?: boolean }): void;
  contains(node: unknown): boolean;
  attachShadow(init: { mode: 'open' | 'closed' }): WShadowRoot;
}

export interface WShadowRoot {
  innerHTML: string;
  adoptedStyleSheets?: unknown[];
  prepend(...nodes: WNode[]): void;
  readonly activeElement: WElement | null;
  querySelector(selector: string): WElement | null;
}

export interface WDocument {
  readonly readyState: string;
  readonly body: WElement | null;
  readonly documentElement: WElement;
  readonly currentScript: WElement | null;
  createElement(tag: string): WElement;
  createTextNode(text: string): WText;
  querySelector(selector: string): WElement | null;
  addEventListener(type: string, listener: () => void, options?: { once?: boolean }): void;
}

export interface WGlobal {
  document: WDocument;
  navigator: { language?: string };
  location: { hostname: string };
  CustomEvent: new (type: string, init: { detail?: unknown; bubbles?: boolean; composed?: boolean }) => unknown;
  CSSStyleSheet?: new () => { replaceSync(text: string): void };
  getComputedStyle(element: WElement): { colorScheme?: string };
  GroundworkWidget?: unknown;
}

export const browser = globalThis as unknown as WGlobal;
