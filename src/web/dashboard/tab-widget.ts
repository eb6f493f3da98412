/**
 * Widget tab: the one-line snippet with a live key, theme options saved to the knowledge base, a
 * live preview. The key comes from the server each time the tab opens: the knowledge base's live
 * publishable keys (docs/widget-keys.md), which the server shows again, so a revoked key is never
 * offered and a reload keeps the snippet whole. The choice is remembered per knowledge base in
 * localStorage as a key id only, never the key.
 */
import type { ApiKey, Theme } from '../../sdk/management.js';
import { offeredQuestions, starterQuestionLimits } from '../../sdk/starter-questions.js';
import { api, hasWidget, keepKnownKeyIfLive, knownKeys } from './api.js';
import { busy, copyText, errorText, field, h, notice, toast, uid } from './dom.js';
import type { TabContext } from './kb.js';
import { allowsHost, domainRules, listWords, widgetWhitelist } from './keys.js';

const pastedChoice = 'pasted';
const memoryKey = (ragId: string) => `gw-widget-key:${ragId}`;

function remembered(ragId: string): string | null {
  try {
    return localStorage.getItem(memoryKey(ragId));
  } catch {
    return null;
  }
}

function remember(ragId: string, keyId: string | null): void {
  try {
    if (keyId) localStorage.setItem(memoryKey(ragId), keyId);
    else localStorage.removeItem(memoryKey(ragId));
  } catch {
    // storage unavailable (private mode): the choice lasts this visit only
  }
}

/** A live publishable key with its full key (one whose sealed copy the server could open). */
type WidgetKey = ApiKey & { apiKey: string };

export async function widgetTab(panel: HTMLElement, ctx: TabContext): Promise<void> {
  const ragId = ctx.kb.ragId;
  const here = location.hostname;
  const [widgetAvailable, rules] = await Promise.all([hasWidget(), domainRules()]);
  const theme: Theme = { accentColor: '#2454d6', position: 'bottom-right', colorScheme: 'auto', ...ctx.kb.theme };

  // Re-read on every opening: a key revoked since (here or anywhere) is gone from every choice.
  let live: ApiKey[] = [];
  let loadError: string | undefined;
  try {
    live = (await api.listKeys(ragId)).items;
  } catch (e) {
    loadError = errorText(e);
  }
  keepKnownKeyIfLive(ragId, live);
  const widgetKeys = (): WidgetKey[] => live.filter((k): k is WidgetKey => k.publishable && typeof k.apiKey === 'string');
  const secretKeys = (): ApiKey[] => live.filter((k) => !k.publishable);

  /** The chosen publishable key's id, or `pasted`. */
  let choice: string | undefined;
  function defaultChoice(): string | undefined {
    const keys = widgetKeys();
    const memo = remembered(ragId);
    if (memo && !keys.some((k) => k.keyId === memo)) remember(ragId, null); // revoked: forget it
    if (memo && keys.some((k) => k.keyId === memo)) return memo;
    if (keys.length) return keys.at(-1)?.keyId; // the newest
    return pasted.value.trim() ? pastedChoice : undefined;
  }

  // A secret key cannot be shown again: the owner may paste one (kept in this tab only).
  const pasted = h('input', { type: 'password', autocomplete: 'off', spellcheck: 'false', placeholder: 'gw_live_…' });
  pasted.value = knownKeys.get(ragId) ?? '';
  pasted.id = uid('paste');
  const show = h('button', { type: 'button', class: 'secondary small', 'aria-pressed': 'false' }, 'Show');
  show.addEventListener('click', () => {
    const visible = pasted.type === 'password';
    pasted.type = visible ? 'text' : 'password';
    show.setAttribute('aria-pressed', String(visible));
    show.textContent = visible ? 'Hide' : 'Show';
  });
  pasted.addEventListener('input', () => {
    const value = pasted.value.trim();
    if (value) knownKeys.set(ragId, value);
    else knownKeys.delete(ragId);
    choice = value || widgetKeys().length === 0 ? pastedChoice : defaultChoice();
    renderChoices();
    update();
  });

  /** The key the snippet and the preview use, with its whitelist when the server listed it. */
  function current(): { key: string; domains: string[] | undefined; live: boolean } | undefined {
    if (choice === pastedChoice) {
      const value = pasted.value.trim();
      if (!value) return undefined;
      const match = live.find((k) => value.startsWith(k.prefix));
      return { key: value, domains: match?.allowedDomains, live: Boolean(match) };
    }
    const key = widgetKeys().find((k) => k.keyId === choice);
    return key ? { key: key.apiKey, domains: key.allowedDomains, live: true } : undefined;
  }

  const snippet = h('textarea', { readonly: true, rows: 4, class: 'snippet', spellcheck: 'false' });
  const copy = h('button', { type: 'button' }, 'Copy snippet');
  copy.addEventListener('click', async () => toast((await copyText(snippet.value, snippet)) ? 'Snippet copied.' : 'Select the snippet and copy it.'));
  const where = h('p', { class: 'small', 'data-testid': 'widget-where', 'aria-live': 'polite' });
  const preview = h('div', {});

  /** Where the snippet works, in words, from the key's whitelist. */
  function whereText(domains: string[]): string {
    const sites = domains.filter((d) => d !== here);
    const previewNote = allowsHost(rules, domains) ? ` It also works here (${here}), for the preview.` : '';
    if (!sites.length) return `This key only works on ${here}, this dashboard: add your website's domain to its whitelist (API Keys tab).`;
    return `This snippet works on pages at ${listWords(sites)}.${previewNote}`;
  }

  function renderSnippet(): void {
    const keyText = current()?.key ?? 'YOUR_API_KEY';
    snippet.value = `<script src="${location.origin}/widget.js" data-rag-id="${ragId}" data-api-key="${keyText}" async></script>`;
    const selected = current();
    if (!selected) where.textContent = '';
    else if (!selected.live) where.textContent = 'This key is not a live key of this knowledge base (revoked, or of another one): the widget will not start with it.';
    else if (selected.domains) where.textContent = whereText(selected.domains);
    else where.textContent = '';
  }

  function renderPreview(): void {
    if (!widgetAvailable) {
      preview.replaceChildren(notice('info', 'The widget script (/widget.js) is not available on this server yet, so there is nothing to preview.'));
      return;
    }
    const selected = current();
    if (!selected) {
      preview.replaceChildren(notice('info', 'Create the widget key (or choose or paste one) to see the widget answer from your records.'));
      return;
    }
    if (!selected.live) {
      preview.replaceChildren(notice('warn', 'This key is not a live key of this knowledge base, so there is nothing to preview. Choose another key.'));
      return;
    }
    if (selected.domains && !allowsHost(rules, selected.domains)) {
      preview.replaceChildren(
        notice(
          'info',
          `The preview cannot run here: this key's whitelist does not include ${here}, the host of this dashboard, so the widget would be refused on this page. `,
          `${whereText(selected.domains)} To preview here, add ${here} to the key's whitelist (API Keys tab).`,
        ),
      );
      return;
    }
    const params = new URLSearchParams({ rag: ragId, key: selected.key, accent: theme.accentColor ?? '', position: theme.position ?? '', scheme: theme.colorScheme ?? '' });
    // The key travels in the fragment: it never reaches the server's logs.
    preview.replaceChildren(h('iframe', { class: 'preview', title: 'Widget preview', src: `/dashboard/widget-preview#${params}` }));
  }

  function update(): void {
    renderSnippet();
    renderPreview();
  }

  // The choice of key: a radio group of the live publishable keys (and a pasted key).
  const choices = h('div', {});
  function renderChoices(): void {
    const keys = widgetKeys();
    const offerPaste = secretKeys().length > 0;
    if (!keys.length) {
      choices.replaceChildren();
      return;
    }
    const name = uid('widget-key');
    const option = (value: string, label: string, detail: string | null) => {
      const radio = h('input', { type: 'radio', name, value, id: `${name}-${value}` });
      radio.checked = choice === value;
      radio.addEventListener('change', () => {
        if (!radio.checked) return;
        choice = value;
        if (value !== pastedChoice) remember(ragId, value);
        else pasted.focus();
        update();
      });
      return h('div', { class: 'choice' }, radio, h('label', { for: radio.id }, label, detail ? h('span', { class: 'hint' }, detail) : null));
    };
    choices.replaceChildren(
      h(
        'fieldset',
        { class: 'choices' },
        h('legend', {}, 'Key in the snippet'),
        keys.map((k) => option(k.keyId, `${k.prefix}…${k.name ? ` ${k.name}` : ''}`, `Works on ${listWords(k.allowedDomains) || 'no website (server-to-server only)'}`)),
        offerPaste ? option(pastedChoice, 'A secret key you paste below', null) : null,
      ),
    );
  }

  // Making the widget key, in place: one click, one key.
  const domains = h('input', { type: 'text', autocomplete: 'off', spellcheck: 'false', placeholder: 'shop.example.com', required: true });
  const create = h('button', { type: 'submit' }, 'Create the widget key');
  const createStatus = h('div', { 'aria-live': 'polite' });
  const createForm = h(
    'form',
    { class: 'create-widget-key' },
    field(
      "Your website's domain",
      domains,
      `The key works only on the sites you list, e.g. shop.example.com or *.shop.example.com for its subdomains; separate several with spaces or commas. ${here} is added so the preview below works.`,
    ),
    h('div', { class: 'row' }, create),
    createStatus,
  );
  const another = h('button', { type: 'button', class: 'secondary' }, 'Create another key');
  let creating = false;
  let wantAnother = false;
  another.addEventListener('click', () => {
    wantAnother = true;
    renderCreate();
    domains.focus();
  });
  createForm.addEventListener('submit', (event) => {
    event.preventDefault();
    if (creating) return;
    createStatus.replaceChildren();
    let allowedDomains: string[];
    try {
      allowedDomains = widgetWhitelist(rules, domains.value, here);
      domains.removeAttribute('aria-invalid');
    } catch (e) {
      domains.setAttribute('aria-invalid', 'true');
      createStatus.replaceChildren(notice('error', errorText(e)));
      domains.focus();
      return;
    }
    creating = true;
    void busy(create, async () => {
      try {
        const made = await api.createKey(ragId, { name: 'Website widget', allowedDomains, publishable: true });
        live = [...live, { ...made.key, apiKey: made.apiKey }];
        choice = made.key.keyId;
        remember(ragId, choice);
        wantAnother = false;
        domains.value = '';
        renderChoices();
        renderCreate();
        update();
        toast(`Widget key ${made.key.prefix}… created. It is in the snippet.`);
        // The setup checklist above the tabs reads the keys again.
        void ctx.refreshKb().catch(() => undefined);
      } catch (e) {
        createStatus.replaceChildren(notice('error', errorText(e)));
      } finally {
        creating = false;
      }
    });
  });

  const createArea = h('div', {});
  function renderCreate(): void {
    const hasKeys = widgetKeys().length > 0;
    createArea.replaceChildren(...(hasKeys && !wantAnother ? [h('div', { class: 'row' }, another)] : [createForm]));
  }

  const secretsNote = h('div', {});
  function renderSecrets(): void {
    const count = secretKeys().length;
    if (!count) {
      secretsNote.replaceChildren();
      return;
    }
    const hintEl = h(
      'p',
      { class: 'hint', id: `${pasted.id}-hint` },
      `${count === 1 ? 'This knowledge base also has a secret key' : `This knowledge base also has ${count} secret keys`}: only the start of a secret key is kept, so it cannot be shown again. To use one, paste it here; it is kept in this browser tab only.`,
    );
    pasted.setAttribute('aria-describedby', hintEl.id);
    secretsNote.replaceChildren(h('div', { class: 'field' }, h('label', { for: pasted.id }, 'Paste a key'), h('div', { class: 'key-row' }, pasted, show), hintEl));
  }

  choice = defaultChoice();

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
  // One question a line; blank lines are dropped. The server checks each (422 names the one refused).
  const starters = h('textarea', { name: 'starterQuestions', rows: 3, autocomplete: 'off', placeholder: 'What does delivery cost?\nHow do I return an item?' });
  starters.value = ctx.kb.starterQuestions.join('\n');
  // Fills the empty lines up to 5 with records' own questions (a Q&A record's title): the bot answers those.
  const fromRecords = h('button', { type: 'button', class: 'secondary' }, 'Take from your records');
  const fromRecordsStatus = h('span', { class: 'small', 'aria-live': 'polite' });
  fromRecords.addEventListener('click', () => {
    void busy(fromRecords, async () => {
      fromRecordsStatus.textContent = '';
      try {
        const { questions } = questionsOfText(starters.value);
        const { maxQuestions } = starterQuestionLimits;
        const asked = (await api.allRecords(ragId, 500)).flatMap((r) => (r.title?.trim().endsWith('?') ? [r.title] : []));
        const taken = offeredQuestions(asked, maxQuestions - questions.length, questions);
        if (taken.length === 0) {
          fromRecordsStatus.textContent = questions.length >= maxQuestions ? `There are ${maxQuestions} already.` : 'No other record is written as a question: write your own.';
          return;
        }
        starters.value = [...questions, ...taken].join('\n');
        fromRecordsStatus.textContent = `Added ${taken.length} from your records; save to use them.`;
      } catch (e) {
        fromRecordsStatus.textContent = errorText(e);
      }
    });
  });
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
    field(
      'Starter questions',
      starters,
      'Up to 5 questions, one a line, that the widget offers as buttons before the visitor types. Each new one is asked once when you save, and named if the bot does not answer it.',
    ),
    h('div', { class: 'row' }, fromRecords, fromRecordsStatus),
    h('div', { class: 'row' }, field('Accent colour', accent)),
    field('Position', position),
    field('Colour scheme', scheme),
    save,
    saved,
  );
  let starterLines: number[] = [];
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
        const { questions, lines } = questionsOfText(starters.value);
        starterLines = lines;
        const before = ctx.kb.starterQuestions;
        const updated = await api.updateKnowledgeBase(ragId, {
          botName: name,
          greeting: greeting.value.trim() || null,
          fallbackMessage: fallback.value.trim() || null,
          starterQuestions: questions,
          theme: next,
        });
        Object.assign(theme, next);
        await ctx.refreshKb();
        saved.replaceChildren(notice('ok', 'Saved. Widgets on your site pick it up on their next page load.'));
        // New starter questions are asked once, as in the Playground: one the bot refuses would greet visitors with a refusal.
        const added = updated.starterQuestions.filter((q) => !before.includes(q));
        const refused = await refusedQuestions(ragId, added);
        if (refused.length > 0) {
          saved.append(
            notice(
              'warn',
              `The bot does not answer ${refused.length === 1 ? 'this starter question' : 'these starter questions'} yet: ${refused.map((q) => `“${q}”`).join(', ')}. `,
              'Add a record that answers it, or write it in the words your records use.',
            ),
          );
        }
        renderPreview();
      } catch (e) {
        // "starterQuestions[1]" said as the line of the box it came from.
        saved.replaceChildren(notice('error', errorText(e).replace(/\bstarterQuestions\[(\d+)\]/u, (_, i: string) => `Starter question on line ${starterLines[Number(i)] ?? Number(i) + 1}`)));
      }
    });
  });

  renderChoices();
  renderCreate();
  renderSecrets();
  update();
  panel.append(
    h(
      'div',
      { class: 'cols' },
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'w-key' },
        h('h2', { id: 'w-key' }, 'Key for the widget'),
        h(
          'p',
          { class: 'muted small' },
          'A widget key is publishable: it sits in the HTML of every page with the widget, so it is listed here again. Its whitelist of website domains is what protects it.',
        ),
        loadError ? notice('error', `The keys could not be read: ${loadError}`) : null,
        choices,
        createArea,
        secretsNote,
      ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'w-snippet' },
        h('h2', { id: 'w-snippet' }, 'Add it to your site'),
        field('Embed code', snippet, 'Paste it before </body> on every page that should show the chat.'),
        where,
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

/** The questions a text holds, a line each (blank lines dropped), with the line (1-based) each is on. */
function questionsOfText(text: string): { questions: string[]; lines: number[] } {
  const questions: string[] = [];
  const lines: number[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim().length === 0) return;
    questions.push(line.trim());
    lines.push(i + 1);
  });
  return { questions, lines };
}

/**
 * Which of `questions` the bot refuses, asked in turn as the Playground asks (the owner's own
 * Playground limits; cached answers are reused). A question that cannot be asked (a limit reached,
 * the network) is not reported: the check only warns, it never blocks a save.
 */
async function refusedQuestions(ragId: string, questions: readonly string[]): Promise<string[]> {
  const refused: string[] = [];
  for (const query of questions) {
    try {
      const answer = await api.playgroundQuery(ragId, { query });
      if (!answer.grounded && !answer.smallTalk) refused.push(query);
    } catch {
      break;
    }
  }
  return refused;
}
