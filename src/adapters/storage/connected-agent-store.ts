/**
 * The person's connected agents (ConnectedAgentStore): live grants with their client and
 * credentials, adopted anonymous agents, and revocation. Every statement is confined to the
 * person's grants — those of the account and of agent accounts adopted into it — so another
 * account's ids change nothing and answer as unknown ones do.
 */
import type { ExpressionBuilder } from 'kysely';
import type { AdoptedAgentRow, ConnectedGrantRow } from '../../identity/connected-agents/model.js';
import type { ClientKind, ClientMetadata } from '../../identity/oauth/model.js';
import type { ConnectedAgentStore } from '../../ports/storage.js';
import { toGrant } from './oauth-rows.js';
import type { Row } from './rows.js';
import type { Schema } from './schema.js';
import { affected, type Db, type SqlContext } from './sql.js';

const text = (value: unknown): string => (value instanceof Date ? value.toISOString() : String(value));
const nullableText = (value: unknown): string | null => (value === null || value === undefined ? null : text(value));
/** SQLite answers EXISTS with 0/1, PostgreSQL with a boolean. */
const truthy = (value: unknown): boolean => value === true || Number(value) === 1;

function clientName(metadata: unknown): string | null {
  const parsed = (typeof metadata === 'string' ? JSON.parse(metadata) : metadata) as Partial<ClientMetadata> | null;
  return typeof parsed?.client_name === 'string' ? parsed.client_name : null;
}

/** `account_id` names the person's account or an agent account adopted into it. */
function ownedBy<DB extends Schema, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>, column: string, accountId: string) {
  const e = eb as unknown as ExpressionBuilder<Schema, 'oauth_grants'>;
  const ref = column as 'oauth_grants.account_id';
  return e.or([e(ref, '=', accountId), e(ref, 'in', e.selectFrom('accounts').select('accounts.account_id').where('accounts.adopted_into', '=', accountId))]);
}

export class SqlConnectedAgentStore implements ConnectedAgentStore {
  constructor(private readonly ctx: SqlContext) {}

  private get db(): Db {
    return this.ctx.db;
  }

  async listConnectedGrants(accountId: string, now: string, accessSince: string): Promise<ConnectedGrantRow[]> {
    const rows = await this.db
      .selectFrom('oauth_grants as g')
      .innerJoin('oauth_clients as c', 'c.client_id', 'g.client_id')
      .leftJoin('account_api_keys as k', 'k.grant_id', 'g.grant_id')
      .selectAll('g')
      .select(['c.kind as client_kind', 'c.metadata as client_metadata', 'c.created_at as client_created_at'])
      .select(['k.key_id as key_id', 'k.prefix as key_prefix', 'k.created_at as key_created_at'])
      .select((eb) => [
        eb
          .selectFrom('oauth_refresh_tokens as r')
          .select((r) => r.fn.max('r.rotated_at').as('m'))
          .whereRef('r.grant_id', '=', 'g.grant_id')
          .as('last_refreshed_at'),
        eb
          .exists(
            eb
              .selectFrom('oauth_refresh_tokens as r')
              .select('r.token_hash')
              .whereRef('r.grant_id', '=', 'g.grant_id')
              .where('r.rotated_at', 'is', null)
              .where('r.expires_at', '>', now),
          )
          .as('has_refresh'),
      ])
      .where('g.revoked_at', 'is', null)
      .where((eb) => ownedBy(eb, 'g.account_id', accountId))
      .where((eb) =>
        eb.or([
          eb('k.key_id', 'is not', null),
          eb('g.created_at', '>', accessSince),
          eb.exists(
            eb
              .selectFrom('oauth_refresh_tokens as r')
              .select('r.token_hash')
              .whereRef('r.grant_id', '=', 'g.grant_id')
              .where('r.rotated_at', 'is', null)
              .where('r.expires_at', '>', now),
          ),
        ]),
      )
      .orderBy('g.created_at')
      .orderBy('g.grant_id')
      .execute();
    return rows.map((row) => {
      const r = row as Row;
      return {
        grant: toGrant(r),
        client: {
          clientId: text(r.client_id),
          kind: text(r.client_kind) as ClientKind,
          name: clientName(r.client_metadata),
          registeredAt: text(r.client_created_at),
        },
        accountKey: r.key_id === null || r.key_id === undefined ? null : { keyId: text(r.key_id), prefix: text(r.key_prefix), createdAt: text(r.key_created_at) },
        hasRefreshToken: truthy(r.has_refresh),
        lastRefreshedAt: nullableText(r.last_refreshed_at),
      };
    });
  }

  async listAdoptedAgents(accountId: string): Promise<AdoptedAgentRow[]> {
    const rows = await this.db
      .selectFrom('oauth_claims as k')
      .innerJoin('oauth_clients as c', 'c.client_id', 'k.client_id')
      .leftJoin('accounts as a', 'a.account_id', 'c.account_id')
      .select(['c.client_id', 'c.account_id', 'c.metadata', 'c.created_at', 'k.adopted_at'])
      .where('k.kind', '=', 'anonymous')
      .where('k.adopted_at', 'is not', null)
      .where((eb) => eb.or([eb('c.account_id', '=', accountId), eb('a.adopted_into', '=', accountId)]))
      .orderBy('k.adopted_at')
      .orderBy('c.client_id')
      .execute();
    return rows.map((r) => ({
      clientId: r.client_id,
      clientName: clientName(r.metadata),
      // 'account': adoption re-bound the agent's client to the person's account; 'own': it kept its own.
      access: r.account_id === accountId ? 'account' : 'own',
      adoptedAt: text(r.adopted_at),
      registeredAt: text(r.created_at),
    }));
  }

  async revokeClient(accountId: string, clientId: string, now: string): Promise<boolean> {
    return this.ctx.write(async (tx) => {
      const grants = await tx
        .updateTable('oauth_grants')
        .set({ revoked_at: now })
        .where('client_id', '=', clientId)
        .where('account_id', '=', accountId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      // A code granted before the revocation must not become a new grant after it.
      const codes = await tx
        .updateTable('oauth_authorization_codes')
        .set({ used_at: now })
        .where('client_id', '=', clientId)
        .where('account_id', '=', accountId)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      const unbound = await tx.updateTable('oauth_clients').set({ account_id: null }).where('client_id', '=', clientId).where('account_id', '=', accountId).executeTakeFirst();
      return affected(grants) + affected(codes) + affected(unbound) > 0;
    });
  }

  async revokeConnectedGrant(accountId: string, grantId: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('oauth_grants')
      .set({ revoked_at: now })
      .where('grant_id', '=', grantId)
      .where('revoked_at', 'is', null)
      .where((eb) => ownedBy(eb, 'oauth_grants.account_id', accountId))
      .executeTakeFirst();
    return affected(result) === 1;
  }

  async revokeAccountKey(accountId: string, keyId: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('oauth_grants')
      .set({ revoked_at: now })
      .where('grant_id', 'in', (eb) => eb.selectFrom('account_api_keys').select('account_api_keys.grant_id').where('account_api_keys.key_id', '=', keyId))
      .where('revoked_at', 'is', null)
      .where((eb) => ownedBy(eb, 'oauth_grants.account_id', accountId))
      .executeTakeFirst();
    return affected(result) === 1;
  }

  async revokeAdoptedAgent(accountId: string, clientId: string, now: string): Promise<boolean> {
    return this.ctx.write(async (tx) => {
      const adopted = await tx
        .selectFrom('oauth_claims as k')
        .innerJoin('oauth_clients as c', 'c.client_id', 'k.client_id')
        .leftJoin('accounts as a', 'a.account_id', 'c.account_id')
        .select('c.client_id')
        .where('k.client_id', '=', clientId)
        .where('k.kind', '=', 'anonymous')
        .where('k.adopted_at', 'is not', null)
        .where((eb) => eb.or([eb('c.account_id', '=', accountId), eb('a.adopted_into', '=', accountId)]))
        .executeTakeFirst();
      if (!adopted) return false;
      await tx
        .updateTable('oauth_grants')
        .set({ revoked_at: now })
        .where('client_id', '=', clientId)
        .where('revoked_at', 'is', null)
        .where((eb) => ownedBy(eb, 'oauth_grants.account_id', accountId))
        .execute();
      return true;
    });
  }

  async noteGrantUsed(grantId: string, at: string, staleBefore: string): Promise<void> {
    await this.db
      .updateTable('oauth_grants')
      .set({ last_used_at: at })
      .where('grant_id', '=', grantId)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
      .execute();
  }
}
