/**
 * The embeddable chat widget (docs/widget.md): one `<script>` tag, a shadow
 * root on `<groundwork-chat>` at the end of `<body>`, a launcher button and a
 * non-modal dialog that streams grounded answers with numbered citations.
 * Answer and source text only ever go into text nodes (`textContent`,
 * `createTextNode`); the one `innerHTML` is the constant skeleton below.
 */
import {
  type Citation,
  fetchWidgetConfig,
  maxConversationTurns,
  QueryError,
  type QueryTarget,
  recentTurns,
  sendFeedback,
  streamQuery,
  type Suggestion,
  type Turn,
  type WidgetConfig,
} from '../sdk/query-client.js';
import { offeredQuestions } from '../sdk/starter-questions.js';
import { browser, type WElement, type WEvent } from './dom.js';
import { pickLanguage } from './strings.js';
import { css } from './styles.js';

const doc = browser.document;

const skeleton =
  '<div class="r"><button class="l" type="button" aria-expanded="false" aria-controls="p">' +
  '<svg class="i1" viewBox="0 0 24 24" aria-hidden="true"><path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12z"/></svg>' +
  '<svg class="i2" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 6l12 12M18 6 6 18"/></svg></button>' +
  '<div class="p" id="p" role="dialog" aria-modal="false" aria-labelledby="h" hidden><div class="h"><h2 id="h"></h2><button class="x" type="button">×</button></div>' +
  '<div class="g" role="log" aria-live="polite"></div>' +
  '<form class="f"><label class="sr" for="q"></label><textarea id="q" rows="1" maxlength="4000" enterkeyhint="send"></textarea><button class="sd" type="submit"></button></form></div></div>';

interface Options {
  target: QueryTarget;
  attr: (name: string) => string | null;
}

function el(tag: string, className?: string, text?: string): WElement {
  const e = doc.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** Text colour for an accent: dark on light accents, white on dark ones (WCAG relative luminance). */
function textOn(hex: string): string {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5) > 0.18 ? '#111827' : '#ffffff';
}

function relative(ms: number, lang: string): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  const [n, unit]: [number, 'second' | 'minute' | 'hour'] = s < 90 ? [s, 'second'] : s < 5400 ? [Math.round(s / 60), 'minute'] : [Math.round(s / 3600), 'hour'];
  return new Intl.RelativeTimeFormat(lang, { numeric: 'auto' }).format(n, unit);
}

/**
 * `auto` follows the page: a page that declares only one scheme (`color-scheme: dark` on <html>, or
 * `<meta name="color-scheme" content="light">`) gets that one; otherwise `prefers-color-scheme` decides.
 */
function pageScheme(): string {
  const computed = browser.getComputedStyle(doc.documentElement).colorScheme;
  const declared = ((computed !== 'normal' && computed) || doc.querySelector('meta[name="color-scheme"]')?.getAttribute('content') || '')
    .split(/\s+/)
    .filter((word) => word && word !== 'only');
  return declared.length === 1 && (declared[0] === 'light' || declared[0] === 'dark') ? declared[0] : 'auto';
}

/**
 * The one console warning for a refused configuration request: the server's reason (its problem
 * `detail`) and what the site's owner should do about it.
 */
function refusalWarning(error: QueryError, host: string): string {
  const fix =
    error.status === 403
      ? `Add ${host} to the whitelist of this key in the Groundwork dashboard (API Keys), or use a key whose whitelist lists it.`
      : 'Check data-api-key: use a live key of this knowledge base (Groundwork dashboard, Widget tab).';
  return `Groundwork widget not shown on ${host}: ${error.message} ${fix}`;
}

function mount({ target, attr }: Options): void {
  const { lang, strings: t } = pickLanguage([attr('data-lang'), doc.documentElement.getAttribute('lang'), browser.navigator.language]);
  const host = doc.createElement('groundwork-chat');
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML = skeleton;
  // A constructed stylesheet is CSSOM, which Content-Security-Policy does not restrict: the widget
  // keeps its looks on pages whose CSP forbids inline styles. A <style> element where unsupported.
  if (browser.CSSStyleSheet && root.adoptedStyleSheets) {
    const sheet = new browser.CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [sheet];
  } else {
    root.prepend(el('style', '', css));
  }
  const q = (s: string) => root.querySelector(s) as WElement;
  const [r, launcher, panel, title, closeButton, log, form, input, send, label] = ['.r', '.l', '.p', 'h2', '.x', '.g', 'form', 'textarea', '.sd', 'label'].map(q) as WElement[] as [
    WElement, WElement, WElement, WElement, WElement, WElement, WElement, WElement, WElement, WElement,
  ];
  r.setAttribute('lang', lang);
  launcher.setAttribute('aria-label', t.open);
  closeButton.setAttribute('aria-label', t.close);
  label.textContent = t.label;
  input.setAttribute('placeholder', t.placeholder);
  send.textContent = t.send;
  title.textContent = attr('data-title') || t.title;
  const greeting = el('p', 'm', attr('data-greeting') || t.greeting);
  log.append(greeting);
  /** The owner's message for what the records do not answer (a contact, say), shown after an answer that did not help. */
  let fallbackMessage: string | null = null;
  /** The owner's starter questions under the greeting, until the visitor asks something (`ask` removes them). */
  let starters: WElement | undefined;
  let asked = false;

  const theme = (accent: string | null | undefined, scheme: string | null | undefined, position: string | null | undefined) => {
    if (accent && /^#[0-9a-f]{6}$/i.test(accent)) {
      r.style.setProperty('--_a', accent);
      r.style.setProperty('--_at', textOn(accent));
    }
    r.classList.remove('light', 'dark', 'auto');
    r.classList.add(scheme === 'light' || scheme === 'dark' ? scheme : pageScheme());
    r.classList.toggle('left', position === 'bottom-left' || position === 'left');
  };
  theme(attr('data-accent'), attr('data-color-scheme'), attr('data-position'));

  const emit = (name: string, detail?: unknown) => host.dispatchEvent(new browser.CustomEvent(`groundwork:${name}`, { detail, bubbles: true, composed: true }));

  let refusal: string | undefined;
  let controller: AbortController | undefined;
  /**
   * This page session's questions and answers, sent with each new question so follow-ups are
   * understood (the server keeps no state). One widget per page, bound to one knowledge base:
   * turns never travel to another. Memory only: a reload starts a new conversation.
   */
  const turns: Turn[] = [];

  const messageFor = (error: unknown): string => {
    if (!(error instanceof QueryError)) return t.failed;
    if (error.status === 403) return t.notAllowed;
    if (error.status === 401) return t.badKey;
    if (error.status === 429) return (error.details.limit === 'day' ? t.daily : t.busy).replace('{t}', relative(error.details.retryAfterMs ?? 60_000, lang));
    if (error.code === 'network_error') return t.network;
    if (error.code === 'aborted') return t.stopped;
    if (error.status === 0 || error.code === 'stream_error') return t.interrupted;
    return t.failed;
  };

  const scroll = () => {
    log.scrollTop = log.scrollHeight;
  };

  void fetchWidgetConfig(target).then(
    (config: WidgetConfig) => {
      if (!attr('data-title')) title.textContent = config.botName;
      if (!attr('data-greeting') && config.greeting) greeting.textContent = config.greeting;
      fallbackMessage = config.fallbackMessage;
      // The page's own (data-starter-questions, "|" between them; empty for none) win over the knowledge base's.
      const own = attr('data-starter-questions');
      const questions = own === null ? config.starterQuestions : offeredQuestions(own.split('|'));
      if (!asked && questions.length > 0) {
        starters = buttons(questions, t.starters);
        greeting.after(starters);
      }
      theme(attr('data-accent') || config.theme.accentColor, attr('data-color-scheme') || config.theme.colorScheme, attr('data-position') || config.theme.position);
      emit('ready', { botName: config.botName });
    },
    (error: unknown) => {
      emit('error', { phase: 'config', status: error instanceof QueryError ? error.status : 0, code: error instanceof QueryError ? error.code : 'failed' });
      // A definite refusal (a bad or revoked key, a page not on the whitelist) shows no widget at all,
      // and tells the site's owner why in the console; a network blip leaves the chat usable.
      if (error instanceof QueryError && (error.status === 401 || error.status === 403)) {
        refusal = messageFor(error);
        console.warn(refusalWarning(error, browser.location.hostname));
        host.remove();
      }
    },
  );

  /** The answer as text with `[n]` markers turned into buttons that reveal source n, and the source list. */
  const render = (body: WElement, answer: string, sources: Citation[]) => {
    const list = el('ol', 's');
    list.setAttribute('aria-label', t.sources);
    const details = sources.map((source, i) => {
      const d = el('details');
      const summary = el('summary', '', `[${i + 1}] ${source.title ?? source.sourceName}`);
      d.append(summary, el('p', '', source.passage));
      const item = el('li');
      item.append(d);
      list.append(item);
      return { d, summary };
    });
    const parts: (WElement | string)[] = [];
    let last = 0;
    for (const match of answer.matchAll(/\[(\d+)\]/g)) {
      const n = Number(match[1]);
      const target = details[n - 1];
      if (!target) continue;
      parts.push(answer.slice(last, match.index));
      const button = el('button', 'c', String(n));
      button.setAttribute('type', 'button');
      const cited = sources[n - 1];
      button.setAttribute('aria-label', `${t.source} ${n}: ${cited ? (cited.title ?? cited.sourceName) : ''}`);
      button.addEventListener('click', () => {
        target.d.open = true;
        target.summary.focus();
      });
      parts.push(button);
      last = (match.index ?? 0) + match[0].length;
    }
    parts.push(answer.slice(last));
    body.replaceChildren(...parts);
    if (sources.length) body.append(list);
  };

  /**
   * A group of buttons named `name`, each asking its question whole: a record's title or a starter
   * question is asked on its own, not as a follow-up to what came before. `shown` labels the group.
   */
  const buttons = (questions: readonly string[], name: string, shown?: string) => {
    const group = el('div', 'o');
    group.setAttribute('role', 'group');
    group.setAttribute('aria-label', name);
    if (shown) group.append(el('span', '', shown));
    for (const question of questions) {
      const button = el('button', 'k', question);
      button.setAttribute('type', 'button');
      button.addEventListener('click', () => void ask(question, false));
      group.append(button);
    }
    return group;
  };

  /**
   * Under an answer from the records: "Was this helpful?" with Yes and No. A press sends the
   * visitor's question and the records cited to the owner's usage report (`POST /api/v1/feedback`,
   * counted as no question) and leaves a thank-you; after No, the owner's fallback message too (a
   * way on, such as a contact), when there is one. A failure to send is not the visitor's concern.
   * `data-feedback="off"` leaves it out.
   */
  const askFeedback = (body: WElement, question: string, sources: readonly Citation[], conversation: readonly Turn[]) => {
    const row = el('div', 'y');
    row.setAttribute('role', 'group');
    row.setAttribute('aria-label', t.helpful);
    row.append(el('span', '', t.helpful));
    for (const [label, helpful] of [[t.yes, true], [t.no, false]] as const) {
      const button = el('button', '', label);
      button.setAttribute('type', 'button');
      button.addEventListener('click', () => {
        // The pressed button goes: focus, which it held, moves to the thanks rather than to the page.
        const hadFocus = row.contains(root.activeElement);
        row.replaceChildren(el('span', '', helpful ? t.thanks : t.notHelped));
        if (!helpful && fallbackMessage) row.append(el('span', 'w', fallbackMessage));
        row.setAttribute('role', 'status');
        row.removeAttribute('aria-label');
        row.setAttribute('tabindex', '-1');
        if (hadFocus) row.focus({ preventScroll: true });
        emit('feedback', { question, helpful });
        sendFeedback(target, question, helpful, sources, undefined, { conversation }).catch(() => undefined);
      });
      row.append(button);
    }
    body.append(row);
  };

  /** Beside a refusal, the records the visitor may ask about instead: a button each that asks its title. */
  const offer = (body: WElement, suggestions: readonly Suggestion[]) => {
    body.append(buttons(suggestions.map((s) => s.title), t.related, t.related));
  };

  /** Asks `question`; with `followUp` false it is sent without the earlier turns (a whole question). */
  const ask = async (question: string, followUp = true) => {
    if (controller || refusal) return;
    const abort = new AbortController();
    controller = abort;
    send.disabled = true;
    asked = true;
    starters?.remove();
    starters = undefined;
    log.append(el('p', 'm u', question));
    const body = el('div', 'm');
    body.setAttribute('aria-busy', 'true');
    const typing = el('span', 't', t.thinking);
    body.append(typing);
    log.append(body);
    scroll();
    emit('question', { question });
    let text: ReturnType<typeof doc.createTextNode> | undefined;
    try {
      // The turns it was asked with go with its feedback too: a follow-up is listed for the owner with the questions it leaned on.
      const conversation = followUp ? recentTurns(turns) : [];
      for await (const event of streamQuery(target, question, abort.signal, { conversation })) {
        if (event.type === 'token') {
          if (!text) {
            text = doc.createTextNode('');
            body.replaceChildren(text);
          }
          text.appendData(event.text);
        } else if (event.type === 'done') {
          // `done.answer` is authoritative: it replaces whatever was streamed.
          render(body, event.answer, event.sources);
          if (event.suggestions?.length) offer(body, event.suggestions);
          if (event.grounded && !event.smallTalk && event.sources.length > 0 && attr('data-feedback') !== 'off') askFeedback(body, question, event.sources, conversation);
          turns.push({ role: 'user', content: question }, { role: 'assistant', content: event.answer });
          turns.splice(0, turns.length - maxConversationTurns);
          emit('answer', { question, answer: event.answer, sources: event.sources, grounded: event.grounded, suggestions: event.suggestions ?? [] });
        } else if (event.type === 'error') {
          throw new QueryError(0, 'stream_error', event.message);
        }
        scroll();
      }
    } catch (error) {
      if (abort.signal.aborted) typing.remove();
      const message = messageFor(abort.signal.aborted ? new QueryError(0, 'aborted', '') : error);
      if (!text) body.replaceChildren();
      body.append(el('span', 'n', message));
      if (!abort.signal.aborted) body.classList.add('e');
      emit('error', { phase: 'answer', status: error instanceof QueryError ? error.status : 0, code: error instanceof QueryError ? error.code : 'failed' });
      scroll();
    } finally {
      body.removeAttribute('aria-busy');
      controller = undefined;
      send.disabled = Boolean(refusal);
    }
  };

  /** `focus: false` opens without moving focus (the dashboard's framed preview must not take it). */
  const open = (focus = true) => {
    if (!panel.hidden) return;
    panel.hidden = false;
    launcher.setAttribute('aria-expanded', 'true');
    launcher.setAttribute('aria-label', t.close);
    if (focus) (refusal ? closeButton : input).focus();
    scroll();
    emit('open');
  };
  const close = () => {
    if (panel.hidden) return;
    controller?.abort();
    panel.hidden = true;
    launcher.setAttribute('aria-expanded', 'false');
    launcher.setAttribute('aria-label', t.open);
    launcher.focus();
    emit('close');
  };

  launcher.addEventListener('click', () => (panel.hidden ? open() : close()));
  closeButton.addEventListener('click', close);
  panel.addEventListener('keydown', (e: WEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      close();
    }
  });
  input.addEventListener('keydown', (e: WEvent) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      submit();
    }
  });
  const submit = () => {
    const question = input.value.trim();
    if (!question || controller || refusal) return;
    input.value = '';
    void ask(question);
  };
  form.addEventListener('submit', (e: WEvent) => {
    e.preventDefault();
    submit();
  });

  doc.body?.append(host);
  browser.GroundworkWidget = { open: (options?: { focus?: boolean }) => open(options?.focus !== false), close, ask: (question: string) => ask(question), element: host };
}

function boot(): void {
  if (browser.GroundworkWidget) return; // loaded twice: one widget per page
  browser.GroundworkWidget = {};
  const script = doc.currentScript ?? doc.querySelector('script[data-rag-id]');
  if (!script) return;
  const attr = (name: string) => script.getAttribute(name);
  const ragId = attr('data-rag-id');
  const apiKey = attr('data-api-key');
  if (!ragId || !apiKey) {
    console.warn('Groundwork widget: data-rag-id and data-api-key are required.');
    return;
  }
  const baseUrl = attr('data-api-base') || new URL(script.src).origin;
  const start = () => mount({ target: { baseUrl, ragId, apiKey }, attr });
  if (doc.body) start();
  else doc.addEventListener('DOMContentLoaded', start, { once: true });
}

boot();
