/**
 * The guided first run (docs/first-run.md): a short checklist on a knowledge base's page that leads
 * from an empty knowledge base to a widget answering on the owner's site. Every step is read from
 * what the server knows, except "tried it", which this browser remembers:
 *
 * 1. Add knowledge: the knowledge base has records.
 * 2. Try it: a question asked in the Playground (`markTried`).
 * 3. Make a key for your website: a live key whose whitelist names a host other than this dashboard's.
 * 4. Paste the snippet and 5. it answers on your site: the server's `widgetSeen`, written by the first
 *    allowed widget request from another site. While that is the one step left, the list re-reads the
 *    knowledge base when the owner comes back to this tab and every few seconds while it is shown.
 *
 * When every step is done it says so once, with the site's host; the owner can hide the list.
 */
import type { ApiKey, KnowledgeBase } from '../../sdk/management.js';
import { api } from './api.js';
import { h } from './dom.js';

const triedKey = (ragId: string) => `gw-first-run-tried:${ragId}`;
const hiddenKey = (ragId: string) => `gw-first-run-hidden:${ragId}`;

function stored(key: string): boolean {
  try {
    return localStorage.getItem(key) === '1';
  } catch {
    return false;
  }
}

function store(key: string, on: boolean): void {
  try {
    if (on) localStorage.setItem(key, '1');
    else localStorage.removeItem(key);
  } catch {
    // Storage refused (private mode): the step stays unticked until the next question.
  }
  window.dispatchEvent(new CustomEvent('gw-first-run', { detail: key }));
}

/** Called by the Playground when it has answered a question: ticks "Try it". */
export function markTried(ragId: string): void {
  if (!stored(triedKey(ragId))) store(triedKey(ragId), true);
}

/** A host other than this dashboard's in a key's whitelist: the key is meant for a website. */
export function siteHosts(key: Pick<ApiKey, 'allowedDomains'>): string[] {
  return key.allowedDomains.filter((domain) => domain !== location.hostname);
}

interface Progress {
  records: boolean;
  tried: boolean;
  siteKey: string | undefined;
  seen: KnowledgeBase['widgetSeen'];
}

function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return origin;
  }
}

/** How often the list re-reads the knowledge base while it waits for the widget's first visit. */
const pollMs = 5000;

/**
 * The checklist element for a knowledge base page. `refreshKb` re-reads the knowledge base (the page
 * header updates with it); `tabHref` links a step to its tab.
 */
export interface FirstRunGuide {
  element: HTMLElement;
  /** The knowledge base as just re-read by the page (after an upload, say): the list follows, and reads the keys again. */
  update(kb: KnowledgeBase): void;
}

export function firstRunGuide(initial: KnowledgeBase, refreshKb: () => Promise<KnowledgeBase>, tabHref: (tab: string) => string): FirstRunGuide {
  const ragId = initial.ragId;
  const box = h('section', { class: 'card first-run', 'aria-labelledby': 'first-run-title' });
  let kb = initial;
  let keys: ApiKey[] | undefined;
  let timer: number | undefined;
  let loading = false;

  const progress = (): Progress => ({
    records: kb.recordCount > 0,
    tried: stored(triedKey(ragId)),
    siteKey: keys?.map(siteHosts).find((hosts) => hosts.length > 0)?.join(', '),
    seen: kb.widgetSeen,
  });

  function step(done: boolean, current: boolean, title: string, detail: Node | string, link?: { tab: string; label: string }): HTMLElement {
    return h(
      'li',
      { class: done ? 'done' : current ? 'current' : '', 'aria-current': current ? 'step' : null },
      h('span', { class: 'mark', 'aria-hidden': 'true' }, done ? '✓' : ''),
      h(
        'div',
        {},
        h('strong', {}, title),
        h('span', { class: 'sr-only' }, done ? ' (done)' : ' (to do)'),
        h('p', { class: 'muted small' }, detail, link && !done ? ' ' : null, link && !done ? h('a', { href: tabHref(link.tab) }, link.label) : null),
      ),
    );
  }

  function render(): void {
    if (stored(hiddenKey(ragId))) {
      stop();
      const show = h('button', { type: 'button', class: 'secondary small' }, 'Show the setup guide');
      show.addEventListener('click', () => {
        store(hiddenKey(ragId), false);
        render();
        void reload();
      });
      box.className = 'first-run-hidden';
      box.replaceChildren(show);
      return;
    }
    box.className = 'card first-run';
    const p = progress();
    const order = [p.records, p.tried, Boolean(p.siteKey), Boolean(p.seen), Boolean(p.seen)];
    const current = order.indexOf(false);
    const hide = h('button', { type: 'button', class: 'secondary small' }, 'Hide');
    hide.addEventListener('click', () => {
      store(hiddenKey(ragId), true);
      render();
    });
    const seenHost = p.seen ? hostOf(p.seen.origin) : undefined;
    const heading = current === -1 ? `Your bot is live on ${seenHost ?? 'your site'}` : 'Set up your bot';
    box.replaceChildren(
      h('div', { class: 'spread' }, h('h2', { id: 'first-run-title' }, heading), hide),
      h(
        'ol',
        { class: 'steps list-plain' },
        step(p.records, current === 0, 'Add what your bot should know', p.records ? `${kb.recordCount} records.` : 'Upload files or paste text.', { tab: 'knowledge', label: 'Open Knowledge' }),
        step(p.tried, current === 1, 'Try it', p.tried ? 'You asked it a question.' : 'Ask a question the way a visitor would.', { tab: 'playground', label: 'Open the Playground' }),
        step(Boolean(p.siteKey), current === 2, 'Make a key for your website', p.siteKey ? `A key works on ${p.siteKey}.` : "Name your site's domain; the key only works there.", {
          tab: 'widget',
          label: 'Open Widget',
        }),
        step(Boolean(p.seen), current === 3, 'Paste the snippet on your site', p.seen ? 'Done.' : 'Copy the one-line snippet into your pages, before </body>.', { tab: 'widget', label: 'Get the snippet' }),
        step(
          Boolean(p.seen),
          current === 4 || (current === 3 && Boolean(p.siteKey)),
          'See it answer on your site',
          p.seen ? `We saw your widget on ${seenHost} (${new Date(p.seen.at).toLocaleString()}).` : 'Open a page of your site with the snippet: this ticks by itself when the widget first loads there.',
        ),
      ),
    );
    // Waiting only for the widget's first visit: look again from time to time.
    if (!p.seen && p.siteKey && current >= 3) start();
    else stop();
  }

  /** Re-reads the keys, and the knowledge base unless it was just read (`fresh`). */
  async function reload(fresh?: KnowledgeBase): Promise<void> {
    if (gone()) return;
    if (loading) return;
    loading = true;
    try {
      [kb, keys] = await Promise.all([fresh ?? refreshKb(), api.listKeys(ragId).then((list) => list.items)]);
    } catch {
      // A failed look changes nothing; the next one tries again.
    } finally {
      loading = false;
    }
    render();
  }

  function start(): void {
    if (timer === undefined) timer = window.setInterval(() => !gone() && document.visibilityState === 'visible' && void reload(), pollMs);
  }
  function stop(): void {
    if (timer !== undefined) window.clearInterval(timer);
    timer = undefined;
  }

  const onFocus = () => (gone() ? undefined : void reload());
  const onChange = () => (gone() ? undefined : render());
  /**
   * True once the page has moved on (another tab or page replaced this list; the first render runs
   * before it is attached): then its timer and listeners are dropped.
   */
  function gone(): boolean {
    if (box.isConnected || !attached) return false;
    stop();
    window.removeEventListener('focus', onFocus);
    window.removeEventListener('gw-first-run', onChange);
    return true;
  }
  let attached = false;
  queueMicrotask(() => {
    attached = box.isConnected;
  });
  window.addEventListener('focus', onFocus);
  window.addEventListener('gw-first-run', onChange);
  render();
  void reload(initial);
  return {
    element: box,
    update(next) {
      kb = next;
      render();
      void reload(next);
    },
  };
}
