/**
 * The dashboard: a small single-page app. Routes:
 *   /dashboard                      sign-in, or the account's knowledge bases
 *   /dashboard/create               name a bot, then straight to its Knowledge tab
 *   /dashboard/kb/{ragId}[/{tab}]   knowledge | keys | widget | playground | usage
 *   /dashboard/agents               connected agents: who acts for the account, and revoking them
 */
import { ApiError, api, knownKeys, loadSession, state } from './api.js';
import { homePage, createPage } from './pages.js';
import { kbPage, tabs, type TabId } from './kb.js';
import { signInPage } from './sign-in.js';
import { connectedAgentsPage } from './connected-agents.js';
import { h } from './dom.js';

export type Navigate = (path: string, options?: { replace?: boolean }) => void;

const main = document.getElementById('main') as HTMLElement;
const nav = document.getElementById('account-nav') as HTMLElement;
let firstRender = true;

export const navigate: Navigate = (path, options = {}) => {
  if (options.replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  void render();
};

function renderNav(): void {
  const session = state.session;
  if (!session) {
    nav.replaceChildren(h('a', { href: '/docs' }, 'API'));
    return;
  }
  const signOut = h('button', { type: 'button', class: 'secondary small' }, 'Sign out');
  signOut.addEventListener('click', async () => {
    try {
      await api.signOut();
    } finally {
      state.session = null;
      knownKeys.clear();
      navigate('/dashboard');
    }
  });
  nav.replaceChildren(
    h('a', { href: '/dashboard' }, 'Knowledge bases'),
    h('a', { href: '/dashboard/agents' }, 'Connected agents'),
    h('a', { href: '/docs' }, 'API'),
    h('span', { class: 'account' }, session.account.email ?? 'Agent account'),
    signOut,
  );
}

async function render(): Promise<void> {
  const view = h('div');
  main.replaceChildren(view);
  try {
    if (state.session === undefined) await loadSession();
    renderNav();
    const path = location.pathname.replace(/\/+$/, '') || '/dashboard';
    if (!state.session) {
      await signInPage(view, () => void render());
    } else if (path === '/dashboard') {
      await homePage(view);
    } else if (path === '/dashboard/create') {
      await createPage(view, navigate);
    } else if (path === '/dashboard/agents') {
      await connectedAgentsPage(view);
    } else {
      const match = /^\/dashboard\/kb\/([A-Za-z0-9_-]{1,64})(?:\/([a-z]+))?$/.exec(path);
      const tab = (match?.[2] ?? 'knowledge') as TabId;
      if (match?.[1] && tabs.some((t) => t.id === tab)) await kbPage(view, match[1], tab, navigate);
      else {
        document.title = 'Not found · Groundwork';
        view.append(h('h1', { tabindex: '-1' }, 'Page not found'), h('p', {}, h('a', { href: '/dashboard' }, 'Back to your knowledge bases')));
      }
    }
  } catch (error) {
    if (error instanceof ApiError && error.status === 401 && state.session) {
      // The session ended (expired or signed out elsewhere): back to sign-in, same address.
      state.session = null;
      return render();
    }
    view.append(
      h('h1', { tabindex: '-1' }, 'Something went wrong'),
      h('p', { role: 'alert', class: 'notice error' }, error instanceof Error ? error.message : String(error)),
      h('p', {}, h('a', { href: location.pathname }, 'Try again')),
    );
  }
  // Move focus to the new page's heading, so screen readers announce the change (not on first load).
  if (!firstRender && !view.contains(document.activeElement)) {
    const heading = view.querySelector('h1');
    if (heading) {
      heading.setAttribute('tabindex', '-1');
      heading.focus();
    }
  }
  firstRender = false;
}

// Same-origin dashboard links navigate without reloading the page.
document.addEventListener('click', (event) => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = (event.target as Element | null)?.closest?.('a');
  if (!link || link.target || link.hasAttribute('download') || link.origin !== location.origin) return;
  if (!link.pathname.startsWith('/dashboard') || link.pathname.startsWith('/dashboard/widget-preview')) return;
  event.preventDefault();
  if (link.pathname + link.search !== location.pathname + location.search) navigate(link.pathname + link.search);
});
window.addEventListener('popstate', () => void render());

void render();
