/** `/tools` (the catalogue) and `/tools/{id}` (one tool): the same page, chosen by the path. */
import { h } from '../dashboard/dom.js';
import { renderCatalogue } from './catalogue-page.js';
import { findTool } from './catalogue.js';
import { renderToolPage } from './tool-page.js';

const main = document.getElementById('main') as HTMLElement;
const id = /^\/tools\/([a-z0-9-]+)\/?$/.exec(location.pathname)?.[1];

if (!id) {
  renderCatalogue(main);
} else {
  const meta = findTool(id);
  if (meta) renderToolPage(main, meta);
  else {
    document.title = 'Tool not found — Groundwork';
    main.replaceChildren(h('h1', {}, 'No such tool'), h('p', {}, 'There is no tool at this address. ', h('a', { href: '/tools' }, 'See all tools'), '.'));
  }
}
