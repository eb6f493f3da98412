/**
 * Playground tab: ask a question with a query key and watch the answer
 * stream in (POST /api/v1/query/stream). Citations reveal their passage;
 * everything from the answer is rendered as text. Like the widget, it keeps
 * the conversation in memory and sends its recent turns with each question,
 * so follow-ups can be tried; "Clear conversation" starts afresh.
 */
import { field, fill, h, notice } from './dom.js';
import type { TabContext } from './kb.js';
import { knownKeys } from './api.js';
import { keyPicker } from './keys.js';
import { readSse } from '../../sdk/sse.js';
import { maxConversationTurns, recentTurns, type Turn } from '../../sdk/conversation.js';

interface Citation {
  sourceName: string;
  recordId?: string;
  passage?: string;
  score?: number;
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

export async function playgroundTab(panel: HTMLElement, ctx: TabContext): Promise<void> {
  const ragId = ctx.kb.ragId;
  let key = knownKeys.get(ragId);

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
  const error = h('div', { 'aria-live': 'assertive' });
  const form = h(
    'form',
    {},
    field(
      'Question',
      question,
      'Enter asks, Shift+Enter starts a new line. Asked exactly as a visitor would, so it counts toward the query limits. Follow-up questions are understood in the context of this conversation.',
    ),
    h('div', { class: 'row' }, ask, stop, clear),
    error,
  );

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

  function showCitations(list: Citation[]): void {
    fill(
      citations,
      list.length ? h('h3', {}, 'Sources') : null,
      ...list.map((c, i) =>
        h(
          'details',
          { id: `cite-${i + 1}` },
          h('summary', {}, `[${i + 1}] ${c.sourceName}`, typeof c.score === 'number' ? h('span', { class: 'muted small' }, ` · score ${c.score.toFixed(2)}`) : null),
          h('p', { class: 'passage' }, c.passage ?? ''),
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

  async function run(): Promise<void> {
    const query = question.value.trim();
    error.replaceChildren();
    if (!key) {
      error.replaceChildren(notice('error', 'Paste a query key or generate one first.'));
      return;
    }
    if (!query) return;
    controller?.abort();
    controller = new AbortController();
    const started = performance.now();
    let firstToken: number | undefined;
    let text = '';
    const conversation = recentTurns(turns);
    answer.replaceChildren();
    citations.replaceChildren();
    showHistory(conversation);
    status.replaceChildren(h('span', { class: 'muted' }, 'Asking…'));
    answer.setAttribute('aria-busy', 'true');
    ask.disabled = true;
    stop.hidden = false;
    try {
      const response = await fetch('/api/v1/query/stream', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-api-key': key },
        body: JSON.stringify({ ragId, query, ...(conversation.length ? { conversation } : {}) }),
        signal: controller.signal,
      });
      if (!response.ok || !response.body) {
        const problem = (await response.json().catch(() => ({}))) as { detail?: string; code?: string };
        let message = problem.detail ?? `The query failed (${response.status}).`;
        if (problem.code === 'origin_not_allowed') message += ` Add ${location.hostname} to the key's whitelist (API Keys tab), or generate a playground key.`;
        if (response.status === 429) message += ` Try again in ${response.headers.get('retry-after') ?? 'a few'} seconds.`;
        throw new Error(message);
      }
      for await (const message of readSse(response.body)) {
        const data = JSON.parse(message.data) as Record<string, unknown>;
        if (message.event === 'sources') showCitations((data.sources as Citation[]) ?? []);
        else if (message.event === 'token') {
          firstToken ??= performance.now();
          text += String(data.text ?? '');
          answer.textContent = text;
        } else if (message.event === 'done') {
          // done.answer is authoritative (a fallback may replace the streamed tokens).
          const final = String(data.answer ?? text);
          const sources = (data.sources as Citation[]) ?? [];
          showCitations(sources);
          answer.replaceChildren(...answerNodes(final, openCitation));
          turns.push({ role: 'user', content: query }, { role: 'assistant', content: final });
          turns.splice(0, turns.length - maxConversationTurns);
          clear.disabled = false;
          const ms = Math.round((firstToken ?? performance.now()) - started);
          fill(
            status,
            h('span', { class: data.grounded ? 'badge ok' : 'badge warn' }, data.grounded ? 'Grounded in your records' : 'Not in your records'),
            data.cached ? h('span', { class: 'badge' }, 'From cache') : null,
            h('span', { class: 'muted' }, `first words after ${ms} ms`),
          );
        } else if (message.event === 'error') {
          throw new Error(String(data.message ?? 'The answer stream failed.'));
        }
      }
    } catch (e) {
      if (controller.signal.aborted) status.replaceChildren(h('span', { class: 'muted' }, 'Stopped.'));
      else {
        status.replaceChildren();
        error.replaceChildren(notice('error', e instanceof Error ? e.message : String(e)));
      }
    } finally {
      answer.setAttribute('aria-busy', 'false');
      ask.disabled = false;
      stop.hidden = true;
    }
  }

  panel.append(
    h(
      'div',
      { class: 'cols' },
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'pg-key' },
        h('h2', { id: 'pg-key' }, 'Key'),
        keyPicker(ragId, 'playground', (k) => (key = k)),
      ),
      h('section', { class: 'card', 'aria-labelledby': 'pg-ask' }, h('h2', { id: 'pg-ask' }, 'Ask a question'), form),
    ),
    h('section', { class: 'card', 'aria-labelledby': 'pg-answer' }, h('h2', { id: 'pg-answer' }, 'Answer'), history, status, answer, citations),
  );
}
