/** `/tools`: every tool by group, with a search that filters as you type. */
import { fill, h } from '../dashboard/dom.js';
import { matches, toolGroups, tools } from './catalogue.js';

export function renderCatalogue(main: HTMLElement): void {
  document.title = 'Free tools — Groundwork';
  const search = h('input', { type: 'search', id: 'tool-search', placeholder: 'Search, e.g. "pdf merge" or "json"', autocomplete: 'off' });
  const status = h('p', { class: 'muted small', role: 'status', 'aria-live': 'polite' });
  const sections = toolGroups.map((group) => {
    const cards = tools
      .filter((meta) => meta.group === group.id)
      .map((meta) => ({
        meta,
        el: h('li', { class: 'tool-card' }, h('a', { href: `/tools/${meta.id}` }, meta.name), h('p', { class: 'small muted' }, meta.description)),
      }));
    const list = h('ul', { class: 'tool-grid' }, cards.map((c) => c.el));
    const section = h('section', { 'aria-labelledby': `group-${group.id}` }, h('h2', { id: `group-${group.id}` }, group.name), h('p', { class: 'muted small' }, group.description), list);
    return { section, cards };
  });

  const apply = (): void => {
    let shown = 0;
    for (const { section, cards } of sections) {
      let inSection = 0;
      for (const { meta, el } of cards) {
        el.hidden = !matches(meta, search.value);
        if (!el.hidden) inSection++;
      }
      section.hidden = inSection === 0;
      shown += inSection;
    }
    status.textContent = search.value.trim() ? `${shown} of ${tools.length} tools match.` : `${tools.length} tools.`;
  };
  search.addEventListener('input', apply);

  fill(main, 
    h('h1', {}, 'Free tools'),
    h('p', {}, 'Developer, PDF, image and AI tools that run in your browser. No account. ', h('strong', {}, 'Your files never leave your device'), ' — most tools can also be called as a JSON API.'),
    h('div', { class: 'field' }, h('label', { for: search.id }, 'Search tools'), search),
    status,
    sections.map((s) => s.section),
  );
  apply();
}
