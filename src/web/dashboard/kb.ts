/** A knowledge base's page: header with quota, and the tabs as sub-routes. */
import type { KnowledgeBase } from '../../sdk/management.js';
import { api } from './api.js';
import { confirmDialog, errorText, h, toast } from './dom.js';
import { firstRunGuide } from './first-run.js';
import type { Navigate } from './main.js';
import { knowledgeTab } from './tab-knowledge.js';
import { keysTab } from './tab-keys.js';
import { playgroundTab } from './tab-playground.js';
import { usageTab } from './tab-usage.js';
import { widgetTab } from './tab-widget.js';

export const tabs = [
  { id: 'knowledge', label: 'Knowledge' },
  { id: 'keys', label: 'API Keys' },
  { id: 'widget', label: 'Widget' },
  { id: 'playground', label: 'Playground' },
  { id: 'usage', label: 'Usage' },
] as const;
export type TabId = (typeof tabs)[number]['id'];

export interface TabContext {
  kb: KnowledgeBase;
  /** Re-reads the knowledge base (record count, quota) and updates the header. */
  refreshKb(): Promise<KnowledgeBase>;
  navigate: Navigate;
}

export async function kbPage(view: HTMLElement, ragId: string, tab: TabId, navigate: Navigate): Promise<void> {
  let kb = await api.getKnowledgeBase(ragId);
  const label = tabs.find((t) => t.id === tab)?.label ?? '';
  document.title = `${label} · ${kb.botName} · Groundwork`;

  const quotaText = h('span', { id: 'kb-quota', class: 'small' });
  const quotaBar = h('progress', { 'aria-labelledby': 'kb-quota' });
  const showQuota = () => {
    quotaText.textContent = `${kb.quota.used} of ${kb.quota.limit} records used`;
    quotaBar.max = kb.quota.limit;
    quotaBar.value = kb.quota.used;
  };
  showQuota();

  const remove = h('button', { type: 'button', class: 'danger small' }, 'Delete knowledge base');
  remove.addEventListener('click', async () => {
    const ok = await confirmDialog(
      `Delete “${kb.botName}”?`,
      'Its records, sources and API keys are deleted for good; websites using its keys stop getting answers.',
      'Delete knowledge base',
    );
    if (!ok) return;
    try {
      await api.deleteKnowledgeBase(kb.ragId);
      toast(`Deleted ${kb.botName}.`);
      navigate('/dashboard');
    } catch (e) {
      toast(errorText(e));
    }
  });

  const heading = h('h1', {}, kb.botName);
  view.append(
    h('p', { class: 'small' }, h('a', { href: '/dashboard' }, '← All knowledge bases')),
    h(
      'div',
      { class: 'kb-head' },
      h('div', {}, heading, h('p', { class: 'muted small' }, 'Knowledge base ', h('code', {}, kb.ragId))),
      h('div', { class: 'meter' }, quotaText, quotaBar),
    ),
    h(
      'nav',
      { class: 'tabs', 'aria-label': 'Knowledge base sections' },
      tabs.map((t) => h('a', { href: `/dashboard/kb/${kb.ragId}/${t.id}`, 'aria-current': t.id === tab ? 'page' : null }, t.label)),
    ),
  );
  const panel = h('section', { 'aria-label': label });

  async function reread(): Promise<KnowledgeBase> {
    kb = await api.getKnowledgeBase(ragId);
    ctx.kb = kb;
    heading.textContent = kb.botName;
    showQuota();
    return kb;
  }
  // The setup checklist, above the tabs' content, until the owner hides it.
  const guide = firstRunGuide(kb, reread, (id) => `/dashboard/kb/${kb.ragId}/${id}`);
  view.append(guide.element, panel, h('div', { class: 'row danger-zone' }, remove));

  const ctx: TabContext = {
    kb,
    navigate,
    async refreshKb() {
      const fresh = await reread();
      guide.update(fresh);
      return fresh;
    },
  };
  const render = { knowledge: knowledgeTab, keys: keysTab, widget: widgetTab, playground: playgroundTab, usage: usageTab }[tab];
  await render(panel, ctx);
}
