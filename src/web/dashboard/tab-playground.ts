/**
 * Playground tab: the owner asks their own knowledge base, with no query key
 * (POST /api/v1/knowledge-bases/{ragId}/playground/query/stream, through the
 * management client), and watches the answer stream in: the widget's answer,
 * with its own limits (docs/playground.md). Citations show the record's title
 * and reveal their passage; retrieval scores only when asked for. Everything
 * from the answer is rendered as text. Like the widget, it keeps the
 * conversation in memory and sends its recent turns with each question, so
 * follow-ups can be tried; "Clear conversation" starts afresh. Beside a
 * refusal it shows the words of the question no record uses, with "Add a
 * synonym" and "Add a record for this", as the Usage tab does for visitors'
 * unanswered questions, and the records a visitor is offered instead. The widget's starter
 * questions are buttons that ask them, as a visitor's click would.
 */
import { field, fill, h, notice } from './dom.js';
import { markTried } from './first-run.js';
import type { TabContext } from './kb.js';
import { api, ApiError, pending } from './api.js';
import type { Citation, Suggestion } from '../../sdk/query-client.js';
import { maxConversationTurns, recentTurns, type Turn } from '../../sdk/conversation.js';
import { addRecordButton, addSynonymButton, unknownWordsNote } from './unanswered-actions.js';

/** "Show retrieval scores", remembered for this browser tab's session. */
const scoresKey = 'gw-playground-scores';

function scoresWanted(): boolean {
  try {
    return sessionStorage.getItem(scoresKey) === '1';
  } catch {
    return false;
  }
}

function rememberScores(on: boolean): void {
  try {
    if (on) sessionStorage.setItem(scoresKey, '1');
    else sessionStorage.removeItem(scoresKey);
  } catch {
    // Storage refused: the choice lasts while the tab is shown.
  }
}

/** The answer text with its [n] markers as buttons that open citation n. */
function answerNodes(answer: string, openCitation: (n: number) => void): Node[] {
  const nodes: Node[] = [];
  let last = 0;
  for (const match of answer.matchAll(/\[(\d{1,3})\]/g)) {
    const n = Number(match[1]);
    nodes.push(document.createTextNode(answer.slice(last, match.index)));
    const button = h('button', { type: 'button', class: 'cite', 'aria-label': `Source ${n}` }, `[${n}]`);
    button.addEventListener('click', () => openCitation(n));
    nodes.push(button);
    last = (match.index ?? 0) + match[0].length;
  }
  nodes.push(document.createTextNode(answer.slice(last)));
  return nodes;
}

/** What went wrong, for the owner: the problem's detail, with when to retry after a limit. */
function failure(e: unknown): string {
  if (!(e instanceof ApiError)) return e instanceof Error ? e.message : String(e);
  return e.status === 429 && !/Try again/.test(e.detail) ? `${e.detail} Try again later.` : e.detail;
}

export async function playgroundTab(panel: HTMLElement, ctx: TabContext): Promise<void> {
  const ragId = ctx.kb.ragId;

  /** This knowledge base's conversation so far (the tab is rebuilt per knowledge base, so turns never cross). */
  const turns: Turn[] = [];

  const question = h('textarea', { rows: 2, maxlength: 4000, required: true, placeholder: 'How long does delivery take?' });
  const ask = h('button', { type: 'submit' }, 'Ask');
  const stop = h('button', { type: 'button', class: 'secondary', hidden: true }, 'Stop');
  const clear = h('button', { type: 'button', class: 'secondary', disabled: true }, 'Clear conversation');
  const history = h('details', { class: 'history', 'data-testid': 'conversation', hidden: true });
  const status = h('p', { class: 'row small', 'aria-live': 'polite' });
  const answer = h('div', { class: 'answer', 'data-testid': 'answer', 'aria-live': 'polite', 'aria-busy': 'false' });
  const citations = h('div', { class: 'citations', 'data-testid': 'citations' });
  /** Beside a refusal: why, and what to add. */
  const refused = h('div', { class: 'refusal-help', 'data-testid': 'refusal-help', hidden: true });
  const error = h('div', { 'aria-live': 'assertive' });
  const form = h(
    'form',
    {},
    field(
      'Question',
      question,
      "Enter asks, Shift+Enter starts a new line. Answered exactly as your widget would answer a visitor, without a key. Playground questions have their own limit: they do not use your visitors' quota and are not counted in Usage. Follow-up questions are understood in the context of this conversation.",
    ),
    h('div', { class: 'row' }, ask, stop, clear),
    error,
  );
  // The widget's starter questions, to try as a visitor who clicks one would (each asked on its own).
  const starterButtons = ctx.kb.starterQuestions.map((starter) => {
    const button = h('button', { type: 'button', class: 'secondary small' }, starter);
    button.addEventListener('click', () => void run(starter));
    return button;
  });
  const starters =
    starterButtons.length > 0
      ? h('div', { 'data-testid': 'starter-questions' }, h('p', { class: 'small' }, 'Your widget’s starter questions:'), h('div', { class: 'row' }, ...starterButtons))
      : null;

  let controller: AbortController | undefined;
  stop.addEventListener('click', () => controller?.abort());
  clear.addEventListener('click', () => {
    turns.length = 0;
    clear.disabled = true;
    showHistory([]);
    status.replaceChildren(h('span', { class: 'muted' }, 'Conversation cleared: the next question starts a new one.'));
    question.focus();
  });
  question.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      form.requestSubmit();
    }
  });

  const showScores = h('input', { type: 'checkbox' });
  showScores.checked = scoresWanted();
  const scoresToggle = h('label', { class: 'check small' }, showScores, ' Show retrieval scores');
  /** The citations shown, so the scores checkbox can redraw them. */
  let shownCitations: Citation[] = [];
  showScores.addEventListener('change', () => {
    rememberScores(showScores.checked);
    const open = [...citations.querySelectorAll<HTMLDetailsElement>('details[open]')].map((d) => d.id);
    showCitations(shownCitations);
    for (const id of open) citations.querySelector<HTMLDetailsElement>(`#${id}`)?.setAttribute('open', '');
  });

  /** Each citation by its record's title (the source's name when it has none), the source small beside it. */
  function showCitations(list: Citation[]): void {
    shownCitations = list;
    fill(
      citations,
      list.length ? h('h3', {}, 'Sources') : null,
      ...list.map((c, i) =>
        h(
          'details',
          { id: `cite-${i + 1}`, 'data-testid': 'citation' },
          h(
            'summary',
            {},
            `[${i + 1}] `,
            h('span', { class: 'cite-title' }, c.title ?? c.sourceName),
            c.title && c.title !== c.sourceName ? h('span', { class: 'muted small cite-source' }, ` · ${c.sourceName}`) : null,
            showScores.checked ? h('span', { class: 'muted small', 'data-testid': 'score' }, ` · score ${c.score.toFixed(2)}`) : null,
          ),
          h('p', { class: 'passage' }, c.passage),
        ),
      ),
    );
  }
  /** The earlier turns the shown answer was asked with. */
  function showHistory(sent: Turn[]): void {
    history.hidden = sent.length === 0;
    fill(
      history,
      h('summary', {}, `Asked as a follow-up to ${sent.length} earlier ${sent.length === 1 ? 'turn' : 'turns'}`),
      h('ol', {}, ...sent.map((turn) => h('li', {}, h('strong', {}, turn.role === 'user' ? 'Question: ' : 'Answer: '), turn.content))),
    );
  }
  /**
   * A refusal's words no record uses and what the owner can add (the server sends the words only
   * with a refusal), and the records a visitor is offered instead, each asked here when clicked.
   */
  function showRefusalHelp(refusal: { question: string; words: string[]; suggestions: Suggestion[] } | undefined): void {
    refused.hidden = refusal === undefined;
    if (refusal === undefined) {
      refused.replaceChildren();
      return;
    }
    const offered = refusal.suggestions.map((suggestion) => {
      const button = h('button', { type: 'button', class: 'secondary small' }, suggestion.title);
      // A record's title is a whole question: asked on its own, not as a follow-up to the refused one.
      button.addEventListener('click', () => void run(suggestion.title));
      return button;
    });
    fill(
      refused,
      unknownWordsNote(refusal.words) ??
        h('p', { class: 'small' }, 'Your records use the less common words of this question, but none of them answers it.'),
      h('div', { class: 'row' }, addRecordButton(ctx, refusal.question), addSynonymButton(ctx, refusal.words[0])),
      offered.length > 0 ? h('p', { class: 'small' }, 'Visitors are offered instead:') : null,
      offered.length > 0 ? h('div', { class: 'row', 'data-testid': 'suggestions' }, ...offered) : null,
    );
  }
  function openCitation(n: number): void {
    const details = citations.querySelector<HTMLDetailsElement>(`#cite-${n}`);
    if (!details) return;
    details.open = true;
    details.querySelector('summary')?.focus();
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void run();
  });

  /** Asks the question in the box, as a follow-up to the conversation; or `whole`, on its own. */
  async function run(whole?: string): Promise<void> {
    if (whole !== undefined) question.value = whole;
    const query = question.value.trim();
    error.replaceChildren();
    if (!query) return;
    controller?.abort();
    controller = new AbortController();
    const started = performance.now();
    let firstToken: number | undefined;
    let text = '';
    const conversation = whole === undefined ? recentTurns(turns) : [];
    answer.replaceChildren();
    citations.replaceChildren();
    showRefusalHelp(undefined);
    showHistory(conversation);
    status.replaceChildren(h('span', { class: 'muted' }, 'Asking…'));
    answer.setAttribute('aria-busy', 'true');
    ask.disabled = true;
    stop.hidden = false;
    try {
      const body = { query, ...(conversation.length ? { conversation } : {}) };
      for await (const data of api.streamPlaygroundQuery(ragId, body, controller.signal)) {
        if (data.type === 'sources') showCitations(data.sources);
        else if (data.type === 'token') {
          firstToken ??= performance.now();
          text += data.text;
          answer.textContent = text;
        } else if (data.type === 'done') {
          // done.answer is authoritative (a fallback may replace the streamed tokens).
          const final = data.answer;
          showCitations(data.sources);
          markTried(ragId);
          answer.replaceChildren(...answerNodes(final, openCitation));
          turns.push({ role: 'user', content: query }, { role: 'assistant', content: final });
          turns.splice(0, turns.length - maxConversationTurns);
          clear.disabled = false;
          showRefusalHelp(data.unknownWords === undefined ? undefined : { question: query, words: data.unknownWords, suggestions: data.suggestions ?? [] });
          const ms = Math.round((firstToken ?? performance.now()) - started);
          fill(
            status,
            data.smallTalk
              ? h('span', { class: 'badge' }, 'Small talk: answered without your records')
              : h('span', { class: data.grounded ? 'badge ok' : 'badge warn' }, data.grounded ? 'Grounded in your records' : 'Not in your records'),
            data.cached ? h('span', { class: 'badge' }, 'From cache') : null,
            h('span', { class: 'muted' }, `first words after ${ms} ms`),
          );
        } else if (data.type === 'error') {
          throw new Error(data.message || 'The answer stream failed.');
        }
      }
    } catch (e) {
      if (controller.signal.aborted) status.replaceChildren(h('span', { class: 'muted' }, 'Stopped.'));
      else {
        status.replaceChildren();
        error.replaceChildren(notice('error', failure(e)));
      }
    } finally {
      answer.setAttribute('aria-busy', 'false');
      ask.disabled = false;
      stop.hidden = true;
    }
  }

  panel.append(
    h('section', { class: 'card', 'aria-labelledby': 'pg-ask' }, h('h2', { id: 'pg-ask' }, 'Ask a question'), form, starters),
    h('section', { class: 'card', 'aria-labelledby': 'pg-answer' }, h('h2', { id: 'pg-answer' }, 'Answer'), history, status, answer, refused, scoresToggle, citations),
  );
  // Sent here from the Usage tab ("Try in Playground"): asked at once, as a question of its own, or
  // as a follow-up after the questions it was asked after, which are asked first.
  const sent = pending.ask;
  pending.ask = undefined;
  if (sent?.askedAfter !== undefined) {
    const { question: followUp } = sent;
    void run(sent.askedAfter).then(() => {
      question.value = followUp;
      return run();
    });
  } else if (sent) {
    void run(sent.question);
  }
}
