/**
 * Connected agents, for people (issue 15, item 7): what holds access to the signed-in person's
 * account, and revocation. Three views of the person's live grants:
 * - the OAuth clients holding grants for the account (a person's consent, a claim, a registration
 *   the account made), each with its grants;
 * - the account API keys (`gw_acct_…`, from a claim) of those grants and of adopted agents;
 * - the anonymous agents the person adopted on the claim page, with their grants.
 * An adopted agent is listed under adopted agents only, not again among the clients.
 *
 * Revoking is immediate everywhere: every credential is checked against its grant in the store
 * when presented (access tokens carry the grant in `sid`), and nothing caches a grant. Ids of
 * another account, or of something already revoked, are `not_found`, as unknown ones.
 */
import { DomainError } from '../../errors.js';
import type { ConnectedAgentStore } from '../../ports/storage.js';
import { defaultAccessTokenLifetimeSeconds } from '../oauth/access-tokens.js';
import type {
  AdoptedAgent,
  ConnectedAccountKey,
  ConnectedAgents,
  ConnectedClient,
  ConnectedGrantRow,
  GrantCredentialKind,
  GrantSummary,
} from './model.js';

/** Access tokens may be this much older than their lifetime on another instance's clock. */
const accessSlackMs = 60_000;

const later = (a: string | null | undefined, b: string | null | undefined): string | null => {
  if (!a) return b ?? null;
  if (!b) return a;
  return Date.parse(a) >= Date.parse(b) ? a : b;
};

function summary(row: ConnectedGrantRow): GrantSummary {
  const { grant } = row;
  const credentials: GrantCredentialKind[] = [];
  if (row.hasRefreshToken) credentials.push('refresh_token');
  if (row.accountKey) credentials.push('account_key');
  return {
    grantId: grant.grantId,
    kind: grant.kind,
    scope: grant.scope,
    resources: grant.resources,
    createdAt: grant.createdAt,
    lastUsedAt: later(grant.lastUsedAt, row.lastRefreshedAt),
    credentials,
  };
}

export class ConnectedAgentsService {
  constructor(
    private readonly store: ConnectedAgentStore,
    private readonly now: () => Date = () => new Date(),
    /** OAUTH_ACCESS_TOKEN_SECONDS: an access token issued this long ago may still be live. */
    private readonly accessTokenLifetimeSeconds: number = defaultAccessTokenLifetimeSeconds,
  ) {}

  async list(accountId: string): Promise<ConnectedAgents> {
    const at = this.now();
    const accessSince = new Date(at.getTime() - this.accessTokenLifetimeSeconds * 1000 - accessSlackMs).toISOString();
    const [rows, adopted] = await Promise.all([
      this.store.listConnectedGrants(accountId, at.toISOString(), accessSince),
      this.store.listAdoptedAgents(accountId),
    ]);
    const adoptedIds = new Set(adopted.map((a) => a.clientId));
    const adoptedAgents: AdoptedAgent[] = adopted.map((agent) => ({
      ...agent,
      grants: rows.filter((r) => r.client.clientId === agent.clientId).map(summary),
    }));

    const clients = new Map<string, ConnectedClient>();
    for (const row of rows) {
      // Only grants on the person's own account; an 'own'-adopted agent's are on its account.
      if (row.grant.accountId !== accountId || adoptedIds.has(row.client.clientId)) continue;
      let client = clients.get(row.client.clientId);
      if (!client) {
        client = { clientId: row.client.clientId, clientName: row.client.name, kind: row.client.kind, registeredAt: row.client.registeredAt, grants: [] };
        clients.set(client.clientId, client);
      }
      client.grants.push(summary(row));
    }

    const accountKeys: ConnectedAccountKey[] = rows.flatMap((row) =>
      row.accountKey
        ? [
            {
              keyId: row.accountKey.keyId,
              prefix: row.accountKey.prefix,
              clientId: row.client.clientId,
              clientName: row.client.name,
              grantId: row.grant.grantId,
              scope: row.grant.scope,
              createdAt: row.accountKey.createdAt,
              lastUsedAt: summary(row).lastUsedAt,
              adoptedAgent: adoptedIds.has(row.client.clientId),
            },
          ]
        : [],
    );
    return { clients: [...clients.values()], accountKeys, adoptedAgents };
  }

  /** Disconnects the client: all its grants for the account, pending codes, and its binding to the account. */
  async revokeClient(accountId: string, clientId: string): Promise<void> {
    if (!(await this.store.revokeClient(accountId, clientId, this.stamp()))) throw notFound('No client of this account has that id.');
  }

  async revokeGrant(accountId: string, grantId: string): Promise<void> {
    if (!(await this.store.revokeConnectedGrant(accountId, grantId, this.stamp()))) throw notFound('No live grant of this account has that id.');
  }

  async revokeAccountKey(accountId: string, keyId: string): Promise<void> {
    if (!(await this.store.revokeAccountKey(accountId, keyId, this.stamp()))) throw notFound('No live account key of this account has that id.');
  }

  async revokeAdoptedAgent(accountId: string, clientId: string): Promise<void> {
    if (!(await this.store.revokeAdoptedAgent(accountId, clientId, this.stamp()))) throw notFound('No agent adopted into this account has that id.');
  }

  private stamp(): string {
    return this.now().toISOString();
  }
}

const notFound = (detail: string) => new DomainError('not_found', detail);
