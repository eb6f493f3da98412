/**
 * The Knowledge tab's synonyms card: the owner's groups of words that mean the same to their
 * visitors, one group a line, members separated by commas ("postage, delivery cost"). Saved with
 * PATCH /api/v1/knowledge-bases/{ragId} `{synonyms}`; a refused member is named by its line.
 */
import { api, pending } from './api.js';
import { busy, errorText, field, h, notice } from './dom.js';
import type { TabContext } from './kb.js';

/** The groups a text holds, a line each, members split at commas, with the line (1-based) each is on; blank lines and empty members dropped. */
function groupsOfText(text: string): { groups: string[][]; lines: number[] } {
  const groups: string[][] = [];
  const lines: number[] = [];
  text.split('\n').forEach((line, i) => {
    const group = line
      .split(',')
      .map((member) => member.trim())
      .filter((member) => member !== '');
    if (group.length === 0) return;
    groups.push(group);
    lines.push(i + 1);
  });
  return { groups, lines };
}

/** The text of stored groups, as the owner types them. */
function textOfGroups(groups: readonly (readonly string[])[]): string {
  return groups.map((group) => group.join(', ')).join('\n');
}

/** The service's message with "synonyms[2][1]" said as the line the group came from ("Line 4, word 2"). */
function withLines(message: string, lines: readonly number[]): string {
  return message.replace(/\bsynonyms\[(\d+)\](?:\[(\d+)\])?/u, (_, group: string, member?: string) => `Line ${lines[Number(group)] ?? Number(group) + 1}${member === undefined ? '' : `, word ${Number(member) + 1}`}`);
}

export function synonymsCard(ctx: TabContext): { section: HTMLElement; showPending(): void } {
  const ragId = ctx.kb.ragId;
  const words = h('textarea', { name: 'synonyms', rows: 5, autocomplete: 'off', spellcheck: 'false', placeholder: 'postage, delivery cost\nsign up, account' });
  words.value = textOfGroups(ctx.kb.synonyms);
  const save = h('button', { type: 'submit' }, 'Save words');
  const status = h('div', { 'aria-live': 'polite' });
  const form = h(
    'form',
    {},
    field(
      'Words that mean the same',
      words,
      'One group a line, separated by commas: a visitor who writes one of them gets the records that use another. Put the word your records use in each line; up to 100 lines of 10 words.',
    ),
    save,
    status,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(save, async () => {
      status.replaceChildren();
      const { groups, lines } = groupsOfText(words.value);
      const single = groups.findIndex((group) => new Set(group.map((m) => m.toLowerCase())).size < 2);
      if (single >= 0) {
        words.setAttribute('aria-invalid', 'true');
        status.replaceChildren(notice('error', `Line ${lines[single] ?? single + 1} needs at least two different words, separated by commas.`));
        return;
      }
      try {
        const kb = await api.updateKnowledgeBase(ragId, { synonyms: groups });
        words.removeAttribute('aria-invalid');
        words.value = textOfGroups(kb.synonyms);
        await ctx.refreshKb();
        status.replaceChildren(notice('ok', groups.length === 0 ? 'Saved: no synonyms.' : 'Saved. The next questions use them.'));
      } catch (e) {
        words.setAttribute('aria-invalid', 'true');
        status.replaceChildren(notice('error', withLines(errorText(e), lines)));
      }
    });
  });
  // From "Add a synonym" (an unanswered question on the Usage tab, a refusal in the Playground): a new line starting with its word.
  const word = pending.synonym;
  pending.synonym = undefined;
  if (word !== undefined) words.value = `${words.value}${words.value === '' || words.value.endsWith('\n') ? '' : '\n'}${word}, `;
  const section = h(
    'section',
    { class: 'card', 'aria-labelledby': 'synonyms-title' },
    h('h2', { id: 'synonyms-title' }, 'Synonyms'),
    h('p', { class: 'muted small' }, 'Your visitors may not use your words: "postage" where your records say "delivery cost". The unanswered questions on the Usage tab, and a refusal in the Playground, show which words they use.'),
    form,
  );
  /** Once the tab has laid out its records: the new line in view, the caret after the word. */
  const showPending = (): void => {
    if (word === undefined) return;
    words.focus();
    words.setSelectionRange(words.value.length, words.value.length);
    words.scrollIntoView({ block: 'center' });
  };
  return { section, showPending };
}
