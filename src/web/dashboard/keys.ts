/** Shared pieces for query keys: parsing a whitelist, and choosing or making a key for this browser. */
import { api, knownKeys } from './api.js';
import { busy, errorText, field, h, notice, uid } from './dom.js';

export function parseDomains(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((d) => d.trim())
    .filter(Boolean);
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
