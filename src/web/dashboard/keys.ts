/** Shared pieces for query keys: parsing a whitelist, and choosing or making a key for this browser. */
import { DomainError } from '../../errors.js';
import type * as DomainsModule from '../../knowledge/keys/domains.js';
import { api, knownKeys } from './api.js';
import { busy, errorText, field, h, notice, uid } from './dom.js';

export function parseDomains(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((d) => d.trim())
    .filter(Boolean);
}

export type DomainRules = typeof DomainsModule;
let rules: Promise<DomainRules> | undefined;
/**
 * The server's own whitelist rules (src/knowledge/keys/domains.ts, with the Public Suffix List),
 * loaded as a separate chunk the first time a tab needs them, so other pages do not carry the list.
 */
export function domainRules(): Promise<DomainRules> {
  rules ??= import('../../knowledge/keys/domains.js');
  return rules;
}

/**
 * The whitelist of a new widget key from what the owner typed: each entry checked with the
 * server's rules, at least one website besides this dashboard, and this dashboard's host added
 * so the live preview works. Throws a message for the owner otherwise.
 */
export function widgetWhitelist(domainRules: DomainRules, text: string, dashboardHost = location.hostname): string[] {
  const entries = parseDomains(text);
  let domains: string[];
  try {
    domains = entries.map(domainRules.normaliseDomain);
  } catch (error) {
    throw new Error(error instanceof DomainError ? error.message : errorText(error));
  }
  const sites = domains.filter((d) => d !== dashboardHost);
  if (sites.length === 0) throw new Error(`Name your website's domain, such as shop.example.com: the key only works on the sites you list (${dashboardHost} is added for the preview).`);
  return [...new Set([...sites, dashboardHost])];
}

/** "a", "a and b", "a, b and c". */
export function listWords(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** Whether a whitelist lets a page on `host` use the key (the server's matching rules). */
export function allowsHost(domainRules: DomainRules, allowedDomains: readonly string[], host = location.hostname): boolean {
  return domainRules.hostAllowed(host, allowedDomains);
}

/**
 * A key picker for the Widget and Playground tabs: paste a full key, or
 * generate one whitelisted for this dashboard's host (the browser sends our
 * Origin with every query). Calls `onKey` whenever the key changes.
 */
export function keyPicker(ragId: string, purpose: string, onKey: (key: string | undefined) => void, extraDomains = false): HTMLElement {
  const input = h('input', {
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'gw_live_…',
  });
  input.value = knownKeys.get(ragId) ?? '';
  const show = h('button', { type: 'button', class: 'secondary small', 'aria-pressed': 'false' }, 'Show');
  show.addEventListener('click', () => {
    const visible = input.type === 'password';
    input.type = visible ? 'text' : 'password';
    show.setAttribute('aria-pressed', String(visible));
    show.textContent = visible ? 'Hide' : 'Show';
  });
  input.addEventListener('input', () => {
    const key = input.value.trim();
    if (key) knownKeys.set(ragId, key);
    else knownKeys.delete(ragId);
    onKey(key || undefined);
  });
  const domains = extraDomains ? h('input', { type: 'text', placeholder: 'shop.example.com', autocomplete: 'off' }) : null;
  const generate = h('button', { type: 'button', class: 'secondary' }, `Generate a ${purpose} key`);
  const status = h('div', { 'aria-live': 'polite' });
  generate.addEventListener('click', () =>
    busy(generate, async () => {
      status.replaceChildren();
      try {
        const allowed = [location.hostname, ...parseDomains(domains?.value ?? '')];
        const created = await api.createKey(ragId, { name: purpose, allowedDomains: [...new Set(allowed)] });
        input.value = created.apiKey;
        knownKeys.set(ragId, created.apiKey);
        onKey(created.apiKey);
        status.replaceChildren(
          notice('ok', `New key ${created.key.prefix}… created for ${created.key.allowedDomains.join(', ')}. It is filled in above; it is not shown again after you leave this page.`),
        );
      } catch (e) {
        status.replaceChildren(notice('error', errorText(e)));
      }
    }),
  );
  const hint = `A full query key of this knowledge base. Its whitelist must include ${location.hostname}, the host of this dashboard. Kept in this tab only.`;
  input.id = uid('key');
  const hintEl = h('p', { class: 'hint', id: `${input.id}-hint` }, hint);
  input.setAttribute('aria-describedby', hintEl.id);
  return h(
    'div',
    {},
    h('div', { class: 'field' }, h('label', { for: input.id }, 'Query key'), h('div', { class: 'key-row' }, input, show), hintEl),
    domains ? field('Your website domains (optional)', domains, `Added to the new key's whitelist, besides ${location.hostname}. Separate with spaces or commas.`) : null,
    h('div', { class: 'row' }, generate),
    status,
  );
}
