/** The account's knowledge bases, and creating one. */
import type { KnowledgeBase } from '../../sdk/management.js';
import { api } from './api.js';
import { busy, errorText, field, formatDate, h, notice } from './dom.js';
import type { Navigate } from './main.js';

function quotaMeter(kb: KnowledgeBase): HTMLElement {
  const id = `q-${kb.ragId}`;
  return h(
    'div',
    { class: 'meter' },
    h('span', { id, class: 'small' }, `${kb.quota.used} of ${kb.quota.limit} records used`),
    h('progress', { max: kb.quota.limit, value: kb.quota.used, 'aria-labelledby': id }),
  );
}

export async function homePage(view: HTMLElement): Promise<void> {
  document.title = 'Knowledge bases · Groundwork';
  const { items, limit } = await api.listKnowledgeBases();
  const full = items.length >= limit;
  const create = full
    ? h('button', { type: 'button', disabled: true, 'aria-describedby': 'limit-why' }, 'Create a knowledge base')
    : h('a', { class: 'button', href: '/dashboard/create' }, 'Create a knowledge base');
  view.append(
    h('div', { class: 'spread' }, h('h1', {}, 'Your knowledge bases'), create),
    h(
      'p',
      { id: 'limit-why', class: full ? 'notice warn' : 'muted small' },
      full
        ? `You have ${items.length} of ${limit} knowledge bases, the most your plan allows. Delete one to create another.`
        : `${items.length} of ${limit} knowledge bases used.`,
    ),
  );
  if (!items.length) {
    view.append(
      h(
        'div',
        { class: 'card' },
        h('h2', {}, 'No knowledge bases yet'),
        h('p', {}, 'Give your bot a name, then upload or paste what it should know. Answers come only from those records.'),
        h('a', { class: 'button', href: '/dashboard/create' }, 'Create your first knowledge base'),
      ),
    );
    return;
  }
  view.append(
    h(
      'ul',
      { class: 'grid list-plain', role: 'list' },
      items.map((kb) =>
        h(
          'li',
          { class: 'card kb-card' },
          h('h2', {}, h('a', { href: `/dashboard/kb/${kb.ragId}/knowledge` }, kb.botName)),
          h('p', { class: 'muted small' }, `${kb.recordCount} ${kb.recordCount === 1 ? 'record' : 'records'} · created ${formatDate(kb.createdAt)}`),
          quotaMeter(kb),
          h(
            'p',
            { class: 'row small' },
            h('a', { href: `/dashboard/kb/${kb.ragId}/keys`, 'aria-label': `API keys of ${kb.botName}` }, 'API keys'),
            h('a', { href: `/dashboard/kb/${kb.ragId}/playground`, 'aria-label': `Playground of ${kb.botName}` }, 'Playground'),
            h('a', { href: `/dashboard/kb/${kb.ragId}/usage`, 'aria-label': `Usage of ${kb.botName}` }, 'Usage'),
          ),
        ),
      ),
    ),
  );
}

export async function createPage(view: HTMLElement, navigate: Navigate): Promise<void> {
  document.title = 'Create a knowledge base · Groundwork';
  const { items, limit } = await api.listKnowledgeBases();
  const full = items.length >= limit;
  const input = h('input', { type: 'text', name: 'botName', required: true, maxlength: 80, autocomplete: 'off', placeholder: 'Shop helper', disabled: full });
  const submit = h('button', { type: 'submit', disabled: full }, 'Create and add knowledge');
  const error = h('div', { 'aria-live': 'assertive' });
  const form = h('form', {}, field('Bot name', input, 'The name your chat widget shows, 1–80 characters. You can change it later.'), submit, error);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const botName = input.value.trim();
    if (!botName) {
      input.setAttribute('aria-invalid', 'true');
      error.replaceChildren(notice('error', 'Give your bot a name.'));
      input.focus();
      return;
    }
    void busy(submit, async () => {
      try {
        const kb = await api.createKnowledgeBase({ botName });
        navigate(`/dashboard/kb/${kb.ragId}/knowledge`);
      } catch (e) {
        error.replaceChildren(notice('error', errorText(e)));
      }
    });
  });
  view.append(
    h(
      'div',
      { class: 'narrow card' },
      h('h1', {}, 'Create a knowledge base'),
      h('p', { class: 'muted' }, 'Step 1 of 2: name your bot. Next you add what it knows.'),
      full ? notice('warn', `You already have ${items.length} of ${limit} knowledge bases. `, h('a', { href: '/dashboard' }, 'Delete one'), ' to create another.') : null,
      form,
    ),
  );
  if (!full) input.focus();
}
