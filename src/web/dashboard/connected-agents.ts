/**
 * /dashboard/agents: the agents connected to the signed-in person's account — OAuth clients with
 * their grants, account API keys, adopted anonymous agents — each with a revoke button behind a
 * confirmation (docs/dashboard.md). Everything from the server goes in as text.
 */
import type { AdoptedAgent, ConnectedAccountKey, ConnectedAgents, ConnectedClient, ConnectedGrant } from '../../sdk/management.js';
import { api } from './api.js';
import { confirmDialog, errorText, formatDate, h, notice, toast } from './dom.js';

const credentialNames: Record<ConnectedGrant['credentials'][number], string> = { refresh_token: 'refresh token', account_key: 'account key' };
const grantKinds: Record<ConnectedGrant['kind'], string> = {
  authorization_code: 'you allowed it',
  claim: 'agent claim',
  client_credentials: 'acts for your account',
  jwt_bearer: 'identity assertion',
};

const nameOf = (item: { clientName: string | null; clientId: string }) => item.clientName ?? `Unnamed client ${item.clientId.slice(0, 12)}…`;
const lastUsed = (at: string | null) => (at ? `last used ${formatDate(at)}` : 'never used');

/** A revoke button: asks first, then runs `revoke` and reloads the page's lists. */
function revokeButton(label: string, title: string, text: string, confirmLabel: string, revoke: () => Promise<void>, reload: () => Promise<void>, done: string) {
  const button = h('button', { type: 'button', class: 'danger small', 'aria-label': label }, confirmLabel);
  button.addEventListener('click', async () => {
    if (!(await confirmDialog(title, text, confirmLabel))) return;
    button.disabled = true;
    try {
      await revoke();
      toast(done);
      await reload();
    } catch (e) {
      button.disabled = false;
      toast(errorText(e));
    }
  });
  return button;
}

function grantLine(grant: ConnectedGrant, who: string, reload: () => Promise<void>): HTMLLIElement {
  const holds = grant.credentials.length ? ` · holds a ${grant.credentials.map((c) => credentialNames[c]).join(' and ')}` : '';
  return h(
    'li',
    { 'data-testid': 'grant' },
    h(
      'div',
      { class: 'body' },
      h('p', { class: 'row small' }, ...grant.scope.split(' ').filter(Boolean).map((s) => h('span', { class: 'badge' }, s))),
      h('p', { class: 'muted small' }, `Granted ${formatDate(grant.createdAt)} (${grantKinds[grant.kind]}) · ${lastUsed(grant.lastUsedAt)}${holds}`),
    ),
    revokeButton(
      `Revoke this grant of ${who}`,
      `Revoke this grant of ${who}?`,
      'Its tokens and keys stop working at once, on every server. This cannot be undone.',
      'Revoke grant',
      () => api.revokeConnectedGrant(grant.grantId),
      reload,
      'Grant revoked.',
    ),
  );
}

function clientItem(client: ConnectedClient, reload: () => Promise<void>): HTMLLIElement {
  const who = nameOf(client);
  return h(
    'li',
    { 'data-testid': 'connected-client' },
    h(
      'div',
      { class: 'body' },
      h('div', { class: 'row' }, h('strong', {}, who), h('span', { class: 'badge' }, client.kind === 'agent' ? 'Agent' : 'App')),
      h('p', { class: 'muted small' }, `Client ${client.clientId} · registered ${formatDate(client.registeredAt)}`),
      h('ul', { class: 'list', 'aria-label': `Grants of ${who}` }, client.grants.map((g) => grantLine(g, who, reload))),
    ),
    revokeButton(
      `Disconnect ${who}`,
      `Disconnect ${who}?`,
      'Every grant it holds for your account is revoked at once, on every server; it needs your consent again to come back.',
      'Disconnect',
      () => api.revokeConnectedClient(client.clientId),
      reload,
      `${who} disconnected.`,
    ),
  );
}

function keyItem(key: ConnectedAccountKey, reload: () => Promise<void>): HTMLLIElement {
  const who = nameOf(key);
  return h(
    'li',
    { 'data-testid': 'account-key' },
    h(
      'div',
      { class: 'body' },
      h('div', { class: 'row' }, h('code', {}, `${key.prefix}…`), h('span', {}, `held by ${who}`), key.adoptedAgent ? h('span', { class: 'badge' }, 'Adopted agent') : null),
      h('p', { class: 'muted small' }, `Created ${formatDate(key.createdAt)} · ${lastUsed(key.lastUsedAt)} · ${key.scope}`),
    ),
    revokeButton(
      `Revoke key ${key.prefix} of ${who}`,
      `Revoke the key ${key.prefix}…?`,
      `${who} can no longer use it, from its next request. This cannot be undone.`,
      'Revoke key',
      () => api.revokeAccountKey(key.keyId),
      reload,
      'Key revoked.',
    ),
  );
}

function adoptedItem(agent: AdoptedAgent, reload: () => Promise<void>): HTMLLIElement {
  const who = nameOf(agent);
  const access = agent.access === 'own' ? 'Uses only the knowledge bases it made' : 'Uses your whole account';
  return h(
    'li',
    { 'data-testid': 'adopted-agent' },
    h(
      'div',
      { class: 'body' },
      h('div', { class: 'row' }, h('strong', {}, who), agent.grants.length ? h('span', { class: 'badge ok' }, 'Active') : h('span', { class: 'badge' }, 'Revoked')),
      h('p', { class: 'muted small' }, `${access} · adopted ${formatDate(agent.adoptedAt)}`),
      agent.grants.length ? h('ul', { class: 'list', 'aria-label': `Grants of ${who}` }, agent.grants.map((g) => grantLine(g, who, reload))) : null,
    ),
    agent.grants.length
      ? revokeButton(
          `Revoke everything ${who} holds`,
          `Revoke everything ${who} holds?`,
          'Its tokens and keys stop working at once, on every server. What it made stays in your account.',
          'Revoke agent',
          () => api.revokeAdoptedAgent(agent.clientId),
          reload,
          `${who} revoked.`,
        )
      : null,
  );
}

function section(id: string, title: string, hint: string, items: HTMLLIElement[], empty: string): HTMLElement {
  return h(
    'section',
    { class: 'card', 'aria-labelledby': id },
    h('h2', { id }, title),
    h('p', { class: 'muted small' }, hint),
    h('ul', { class: 'list', 'data-testid': id }, items.length ? items : h('li', { class: 'muted' }, empty)),
  );
}

export async function connectedAgentsPage(view: HTMLElement): Promise<void> {
  document.title = 'Connected agents · Groundwork';
  const content = h('div', { 'aria-live': 'polite' });
  view.append(
    h('h1', {}, 'Connected agents'),
    h('p', { class: 'muted' }, 'Apps and AI agents that can act for your account, the account keys they hold, and the agents you adopted. Revoking takes effect at once.'),
    content,
  );

  async function load(): Promise<void> {
    let listed: ConnectedAgents;
    try {
      listed = await api.connectedAgents();
    } catch (e) {
      content.replaceChildren(notice('error', errorText(e)));
      return;
    }
    content.replaceChildren(
      section(
        'connected-clients',
        'Apps and agents you authorised',
        'Each holds one or more grants: what it may do (scopes) and how long it stays signed in.',
        listed.clients.map((c) => clientItem(c, load)),
        'No app or agent holds access to your account.',
      ),
      section(
        'account-keys',
        'Account keys',
        'Long-lived keys (gw_acct_…) that agents claimed. Only their start is shown.',
        listed.accountKeys.map((k) => keyItem(k, load)),
        'No account keys.',
      ),
      section(
        'adopted-agents',
        'Agents you adopted',
        'Anonymous agents you took ownership of on their claim page.',
        listed.adoptedAgents.map((a) => adoptedItem(a, load)),
        'You have not adopted any agent.',
      ),
    );
  }
  await load();
}
