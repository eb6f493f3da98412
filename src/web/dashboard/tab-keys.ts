/**
 * API Keys tab: generate (a secret key is shown once, with copy; a publishable widget key is
 * listed again: docs/widget-keys.md), edit the whitelist, revoke.
 */
import type { ApiKey } from '../../sdk/management.js';
import { api, forgetKnownKey, keepKnownKeyIfLive, knownKeys } from './api.js';
import { busy, confirmDialog, copyText, errorText, field, formatDate, h, notice, toast } from './dom.js';
import type { TabContext } from './kb.js';
import { parseDomains } from './keys.js';

export async function keysTab(panel: HTMLElement, ctx: TabContext): Promise<void> {
  const ragId = ctx.kb.ragId;
  let keys: ApiKey[] = [];

  const name = h('input', { type: 'text', maxlength: 80, placeholder: 'website', autocomplete: 'off' });
  const domains = h('textarea', { rows: 3, placeholder: 'shop.example.com\n*.example.com\nlocalhost' });
  const publishable = h('input', { type: 'checkbox', name: 'publishable' });
  const publishableHint = h(
    'p',
    { class: 'hint', id: 'publishable-hint' },
    'A widget key sits in the HTML of every page that shows the chat, so it is public anyway: it is kept encrypted and you can see it again here and in the Widget tab. Leave this off for a key your server keeps secret.',
  );
  publishable.setAttribute('aria-describedby', publishableHint.id);
  const submit = h('button', { type: 'submit' }, 'Generate key');
  const created = h('div', { 'aria-live': 'polite' });
  const form = h(
    'form',
    {},
    field('Name (optional)', name, 'To tell keys apart, e.g. “website” or “staging”.'),
    field(
      'Allowed domains',
      domains,
      'One per line or comma-separated: shop.example.com, *.example.com for subdomains, localhost only if listed. Browsers on other sites are refused; server-to-server calls (no Origin) are allowed.',
    ),
    h('div', { class: 'field' }, h('label', { class: 'check' }, publishable, 'For a website widget (publishable: you can see it again later)'), publishableHint),
    submit,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(submit, async () => {
      created.replaceChildren();
      try {
        const result = await api.createKey(ragId, { name: name.value.trim() || null, allowedDomains: parseDomains(domains.value), publishable: publishable.checked });
        // A secret key is remembered in this tab only (for the Playground); a publishable one is listed again.
        if (!result.key.publishable) knownKeys.set(ragId, result.apiKey);
        // The setup checklist above the tabs reads the keys again.
        void ctx.refreshKb().catch(() => undefined);
        const secret = h('input', { type: 'text', readonly: true, value: result.apiKey, class: 'mono', 'aria-label': 'Your new key', 'data-testid': 'new-key' });
        const copy = h('button', { type: 'button' }, 'Copy key');
        copy.addEventListener('click', async () => toast((await copyText(result.apiKey, secret)) ? 'Key copied.' : 'Select the key and copy it.'));
        const dismiss = h('button', { type: 'button', class: 'secondary' }, 'Done, I have stored it');
        dismiss.addEventListener('click', () => {
          created.replaceChildren();
          form.querySelector('input')?.focus();
        });
        created.replaceChildren(
          h(
            'div',
            { class: 'notice warn', role: 'region', 'aria-label': 'New key' },
            result.key.publishable
              ? h('p', {}, h('strong', {}, 'Your widget key.'), ' It is publishable: you can see it again in this list and in the Widget tab.')
              : h('p', {}, h('strong', {}, 'Copy this key now: it is shown only once.'), ' Store it where your website or server reads its secrets.'),
            h('div', { class: 'secret' }, secret, copy),
            h('p', { class: 'row' }, dismiss),
          ),
        );
        secret.focus();
        secret.select();
        name.value = '';
        domains.value = '';
        publishable.checked = false;
        await load();
      } catch (e) {
        created.replaceChildren(notice('error', errorText(e)));
      }
    });
  });

  const list = h('ul', { class: 'list', 'data-testid': 'keys' });
  function render(): void {
    if (!keys.length) {
      list.replaceChildren(h('li', { class: 'muted' }, 'No keys yet.'));
      return;
    }
    list.replaceChildren(...keys.map(renderKey));
  }
  function renderKey(key: ApiKey): HTMLLIElement {
    const label = key.name ?? key.prefix;
    const edit = h('button', { type: 'button', class: 'secondary small', 'aria-expanded': 'false', 'aria-label': `Edit whitelist of ${label}` }, 'Edit whitelist');
    const revoke = h('button', { type: 'button', class: 'danger small', 'aria-label': `Revoke ${label}` }, 'Revoke');
    const editor = h('div', { hidden: true });
    const li = h(
      'li',
      {},
      h(
        'div',
        { class: 'body' },
        h(
          'div',
          { class: 'row' },
          h('strong', {}, key.name ?? 'Unnamed key'),
          h('code', {}, `${key.prefix}…`),
          key.publishable ? h('span', { class: 'badge ok', title: 'Publishable: for a website widget, listed again in full' }, 'Widget key (publishable)') : h('span', { class: 'badge' }, 'Secret'),
        ),
        key.publishable && key.apiKey ? keyReveal(key.apiKey, label) : null,
        h(
          'p',
          { class: 'row small' },
          key.allowedDomains.length ? key.allowedDomains.map((d) => h('span', { class: 'badge' }, d)) : h('span', { class: 'muted' }, 'No domains: server-to-server only'),
        ),
        h('p', { class: 'muted small' }, `Created ${formatDate(key.createdAt)}`),
        editor,
      ),
      h('div', { class: 'row' }, edit, revoke),
    );
    edit.addEventListener('click', () => {
      const open = editor.hidden;
      editor.hidden = !open;
      edit.setAttribute('aria-expanded', String(open));
      if (!open) return;
      const text = h('textarea', { rows: 3 }, key.allowedDomains.join('\n'));
      const save = h('button', { type: 'submit', class: 'small' }, 'Save whitelist');
      const cancel = h('button', { type: 'button', class: 'secondary small' }, 'Cancel');
      const error = h('div', { 'aria-live': 'assertive' });
      const editForm = h('form', {}, field(`Allowed domains of ${label}`, text, 'One per line or comma-separated.'), h('div', { class: 'row' }, save, cancel), error);
      cancel.addEventListener('click', () => {
        editor.hidden = true;
        edit.setAttribute('aria-expanded', 'false');
        edit.focus();
      });
      editForm.addEventListener('submit', (event) => {
        event.preventDefault();
        void busy(save, async () => {
          try {
            await api.updateKey(ragId, key.keyId, { allowedDomains: parseDomains(text.value) });
            toast('Whitelist saved.');
            await load();
          } catch (e) {
            error.replaceChildren(notice('error', errorText(e)));
          }
        });
      });
      editor.replaceChildren(editForm);
      text.focus();
    });
    revoke.addEventListener('click', async () => {
      const ok = await confirmDialog(`Revoke ${label}?`, 'Websites and scripts using this key stop getting answers at once. This cannot be undone.', 'Revoke key');
      if (!ok) return;
      try {
        await api.revokeKey(ragId, key.keyId);
        // Gone everywhere at once: no tab offers it again.
        forgetKnownKey(ragId, key);
        toast('Key revoked.');
        void ctx.refreshKb().catch(() => undefined);
        await load();
      } catch (e) {
        toast(errorText(e));
      }
    });
    return li;
  }
  /** A publishable key's full value, hidden until asked for, with a copy button. */
  function keyReveal(full: string, label: string): HTMLElement {
    const value = h('input', { type: 'password', readonly: true, value: full, class: 'mono', 'aria-label': `Full key of ${label}` });
    const toggle = h('button', { type: 'button', class: 'secondary small', 'aria-pressed': 'false' }, 'Show');
    toggle.addEventListener('click', () => {
      const visible = value.type === 'password';
      value.type = visible ? 'text' : 'password';
      toggle.setAttribute('aria-pressed', String(visible));
      toggle.textContent = visible ? 'Hide' : 'Show';
    });
    const copyButton = h('button', { type: 'button', class: 'secondary small' }, 'Copy');
    copyButton.addEventListener('click', async () => toast((await copyText(full, value)) ? 'Key copied.' : 'Select the key and copy it.'));
    return h('div', { class: 'key-row' }, value, toggle, copyButton);
  }

  async function load(): Promise<void> {
    keys = (await api.listKeys(ragId)).items;
    keepKnownKeyIfLive(ragId, keys);
    render();
  }

  panel.append(
    h(
      'div',
      { class: 'cols' },
      h('section', { class: 'card', 'aria-labelledby': 'gen-title' }, h('h2', { id: 'gen-title' }, 'Generate a live key'), form, created),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'keys-title' },
        h('h2', { id: 'keys-title' }, 'Keys'),
        h('p', { class: 'muted small' }, 'Only the start of a secret key is kept; it is shown in full once, when it is made. Widget keys are publishable and can be shown again.'),
        list,
      ),
    ),
  );
  await load();
}
