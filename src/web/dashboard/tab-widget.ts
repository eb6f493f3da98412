/** Widget tab: the one-line snippet, theme options saved to the knowledge base, a live preview. */
import type { Theme } from '../../sdk/management.js';
import { api, hasWidget, knownKeys } from './api.js';
import { busy, copyText, errorText, field, h, notice, toast } from './dom.js';
import type { TabContext } from './kb.js';
import { keyPicker } from './keys.js';

export async function widgetTab(panel: HTMLElement, ctx: TabContext): Promise<void> {
  const ragId = ctx.kb.ragId;
  let key = knownKeys.get(ragId);
  const widgetAvailable = await hasWidget();
  const theme: Theme = { accentColor: '#2454d6', position: 'bottom-right', colorScheme: 'auto', ...ctx.kb.theme };

  const snippet = h('textarea', { readonly: true, rows: 4, class: 'snippet', spellcheck: 'false' });
  const copy = h('button', { type: 'button' }, 'Copy snippet');
  copy.addEventListener('click', async () => toast((await copyText(snippet.value, snippet)) ? 'Snippet copied.' : 'Select the snippet and copy it.'));

  const preview = h('div', {});
  function renderSnippet(): void {
    const keyText = key ?? 'YOUR_API_KEY';
    snippet.value = `<script src="${location.origin}/widget.js" data-rag-id="${ragId}" data-api-key="${keyText}" async></script>`;
  }
  function renderPreview(): void {
    if (!widgetAvailable) {
      preview.replaceChildren(notice('info', 'The widget script (/widget.js) is not available on this server yet, so there is nothing to preview.'));
      return;
    }
    if (!key) {
      preview.replaceChildren(notice('info', 'Paste a key or generate one above to see the widget answer from your records.'));
      return;
    }
    const params = new URLSearchParams({ rag: ragId, key, accent: theme.accentColor ?? '', position: theme.position ?? '', scheme: theme.colorScheme ?? '' });
    // The key travels in the fragment: it never reaches the server's logs.
    preview.replaceChildren(h('iframe', { class: 'preview', title: 'Widget preview', src: `/dashboard/widget-preview#${params}` }));
  }

  const accent = h('input', { type: 'color', name: 'accentColor' });
  accent.value = theme.accentColor ?? '#2454d6';
  const position = h('select', { name: 'position' }, h('option', { value: 'bottom-right' }, 'Bottom right'), h('option', { value: 'bottom-left' }, 'Bottom left'));
  position.value = theme.position ?? 'bottom-right';
  const scheme = h(
    'select',
    { name: 'colorScheme' },
    h('option', { value: 'auto' }, "Follow the visitor's setting"),
    h('option', { value: 'light' }, 'Light'),
    h('option', { value: 'dark' }, 'Dark'),
  );
  scheme.value = theme.colorScheme ?? 'auto';
  const botName = h('input', { type: 'text', name: 'botName', required: true, maxlength: 80, autocomplete: 'off' });
  botName.value = ctx.kb.botName;
  const greeting = h('input', { type: 'text', name: 'greeting', maxlength: 300, autocomplete: 'off', placeholder: 'Hi! Ask me anything about this site.' });
  greeting.value = ctx.kb.greeting ?? '';
  // Shown as the answer (text only, never markup) when the records do not answer a question.
  const fallback = h('textarea', { name: 'fallbackMessage', rows: 3, maxlength: 500, autocomplete: 'off', placeholder: 'Ask us at help@shop.example' });
  fallback.value = ctx.kb.fallbackMessage ?? '';
  const save = h('button', { type: 'submit' }, 'Save appearance');
  const saved = h('div', { 'aria-live': 'polite' });
  const themeForm = h(
    'form',
    {},
    field('Bot name', botName, 'The title of the chat panel.'),
    field('Greeting', greeting, 'The first message visitors see; empty for the default.'),
    field(
      'Message when the bot has no answer',
      fallback,
      "What the bot answers when your records do not cover a question, e.g. how to reach you; up to 500 characters. Empty for the default, which follows the visitor's language.",
    ),
    h('div', { class: 'row' }, field('Accent colour', accent)),
    field('Position', position),
    field('Colour scheme', scheme),
    save,
    saved,
  );
  themeForm.addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(save, async () => {
      saved.replaceChildren();
      try {
        const next: Theme = { accentColor: accent.value, position: position.value as Theme['position'], colorScheme: scheme.value as Theme['colorScheme'] };
        const name = botName.value.trim();
        if (!name) {
          botName.setAttribute('aria-invalid', 'true');
          saved.replaceChildren(notice('error', 'The bot needs a name.'));
          return;
        }
        botName.removeAttribute('aria-invalid');
        await api.updateKnowledgeBase(ragId, {
          botName: name,
          greeting: greeting.value.trim() || null,
          fallbackMessage: fallback.value.trim() || null,
          theme: next,
        });
        Object.assign(theme, next);
        await ctx.refreshKb();
        saved.replaceChildren(notice('ok', 'Saved. Widgets on your site pick it up on their next page load.'));
        renderPreview();
      } catch (e) {
        saved.replaceChildren(notice('error', errorText(e)));
      }
    });
  });

  renderSnippet();
  renderPreview();
  panel.append(
    h(
      'div',
      { class: 'cols' },
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'w-key' },
        h('h2', { id: 'w-key' }, 'Key for the widget'),
        h('p', { class: 'muted small' }, 'The full key is shown only when it is made. Paste the one you use on your site, or generate a key for the widget.'),
        keyPicker(
          ragId,
          'widget',
          (k) => {
            key = k;
            renderSnippet();
            renderPreview();
          },
          true,
        ),
      ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'w-snippet' },
        h('h2', { id: 'w-snippet' }, 'Add it to your site'),
        field('Embed code', snippet, 'Paste it before </body> on every page that should show the chat.'),
        copy,
      ),
    ),
    h(
      'div',
      { class: 'cols' },
      h('section', { class: 'card', 'aria-labelledby': 'w-theme' }, h('h2', { id: 'w-theme' }, 'Appearance'), themeForm),
      h('section', { class: 'card', 'aria-labelledby': 'w-preview' }, h('h2', { id: 'w-preview' }, 'Live preview'), preview),
    ),
  );
}
