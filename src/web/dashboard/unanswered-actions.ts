/**
 * What the owner can do about a question the records did not answer, wherever the dashboard shows
 * one (the Usage tab's unanswered questions, a refusal in the Playground): see the words of it no
 * record uses, add a synonym for one of them, or add a record that answers it. Both additions open
 * the Knowledge tab with the form filled in (`pending`). An answer visitors found unhelpful can be
 * asked again in the Playground, which asks the `pending` question when it opens.
 */
import { pending } from './api.js';
import { h } from './dom.js';
import type { TabContext } from './kb.js';

/** "After: “Do you ship to Mexico?”", the questions a follow-up leaned on; null for a question asked on its own. */
export function askedAfterNote(askedAfter: string | undefined): HTMLElement | null {
  if (askedAfter === undefined) return null;
  return h('p', { class: 'muted small', 'data-testid': 'asked-after' }, `Asked as a follow-up to “${askedAfter}”`);
}

/** "No record uses: a, b", each word marked; null when there is none. */
export function unknownWordsNote(words: readonly string[]): HTMLElement | null {
  if (words.length === 0) return null;
  return h('p', { class: 'small', 'data-testid': 'unknown-words' }, 'No record uses: ', ...words.flatMap((w, i) => [i > 0 ? ', ' : '', h('mark', {}, w)]));
}

/** Opens the synonyms card with a new line that starts with `word`; null when there is no word to start it. */
export function addSynonymButton(ctx: TabContext, word: string | undefined): HTMLButtonElement | null {
  if (word === undefined) return null;
  const button = h('button', { type: 'button', class: 'secondary small' }, 'Add a synonym');
  button.addEventListener('click', () => {
    pending.synonym = word;
    ctx.navigate(`/dashboard/kb/${ctx.kb.ragId}/knowledge`);
  });
  return button;
}

/**
 * Opens the Playground and asks `question` there, as a visitor would: a question of its own, or a
 * follow-up after the questions it was `askedAfter`, which are asked first.
 */
export function tryInPlaygroundButton(ctx: TabContext, question: string, askedAfter?: string): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'secondary small' }, 'Try in Playground');
  button.addEventListener('click', () => {
    pending.ask = { question, askedAfter };
    ctx.navigate(`/dashboard/kb/${ctx.kb.ragId}/playground`);
  });
  return button;
}

/**
 * Opens the paste form with a question-and-answer record for `question` (a follow-up read with the
 * questions it was `askedAfter`), its answer left to write, in a source named `sourceName`.
 */
export function addRecordButton(ctx: TabContext, question: string, sourceName = 'Answers to unanswered questions', askedAfter?: string): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'small' }, 'Add a record for this');
  button.addEventListener('click', () => {
    pending.paste = { name: sourceName, text: `Q: ${askedAfter === undefined ? question : `${askedAfter} ${question}`}\nA: ` };
    ctx.navigate(`/dashboard/kb/${ctx.kb.ragId}/knowledge`);
  });
  return button;
}
