/**
 * OAuth clients, claims, codes, grants, refresh tokens, account keys and jti
 * records (see OAuthStore). Single-use rules are one conditional UPDATE (or an
 * upsert) each; refresh-token rotation locks the token row, so two concurrent
 * exchanges of one token cannot both rotate it: the later one, within the
 * grace window, is handed the same successor (or else revokes the grant).
 */
import type { AccountKey, AgentAccess, AgentRegistration, AuthorizationCode, Grant, OAuthClient, RefreshToken, RotateOutcome } from '../../identity/oauth/model.js';
import type { GrantCredential, OAuthStore } from '../../ports/storage.js';
import { toAccountKey, toAuthorizationCode, toClaim, toClient, toGrant, toRefreshToken } from './oauth-rows.js';
import type { Row } from './rows.js';
import { affected, type Db, LOCK_CLASS_CLAIM_MAIL, type SqlContext } from './sql.js';

const daysBefore = (at: string, days: number): string => new Date(Date.parse(at) - days * 86_400_000).toISOString();

async function insertClient(db: Db, c: OAuthClient): Promise<void> {
  await db
    .insertInto('oauth_clients')
    .values({ client_id: c.clientId, secret_hash: c.secretHash, account_id: c.accountId, kind: c.kind, metadata: JSON.stringify(c.metadata), created_at: c.createdAt })
    .execute();
}

async function insertRefresh(db: Db, t: RefreshToken): Promise<void> {
  await db
    .insertInto('oauth_refresh_tokens')
    .values({ token_hash: t.tokenHash, grant_id: t.grantId, expires_at: t.expiresAt, rotated_at: null, created_at: t.createdAt })
    .execute();
}

async function insertAccountKey(db: Db, k: AccountKey): Promise<void> {
  await db.insertInto('account_api_keys').values({ key_hash: k.keyHash, key_id: k.keyId, grant_id: k.grantId, prefix: k.prefix, created_at: k.createdAt }).execute();
}

async function insertGrant(db: Db, g: Grant, credential: GrantCredential): Promise<void> {
  await db
    .insertInto('oauth_grants')
    .values({
      grant_id: g.grantId,
      client_id: g.clientId,
      account_id: g.accountId,
      kind: g.kind,
      scope: g.scope,
      resources: JSON.stringify(g.resources),
      created_at: g.createdAt,
      revoked_at: null,
    })
    .execute();
  if (credential.refresh) await insertRefresh(db, credential.refresh);
  if (credential.accountKey) await insertAccountKey(db, credential.accountKey);
}

async function revoke(db: Db, grantId: string, at: string): Promise<void> {
  await db.updateTable('oauth_grants').set({ revoked_at: at }).where('grant_id', '=', grantId).where('revoked_at', 'is', null).execute();
}

export class SqlOAuthStore implements OAuthStore {
  constructor(private readonly ctx: SqlContext) {}

  private get db(): Db {
    return this.ctx.db;
  }

  async createClient(client: OAuthClient): Promise<void> {
    await insertClient(this.db, client);
  }

  async saveDocumentClient(c: OAuthClient): Promise<void> {
    await this.db
      .insertInto('oauth_clients')
      .values({ client_id: c.clientId, secret_hash: null, account_id: null, kind: 'cimd', metadata: JSON.stringify(c.metadata), created_at: c.createdAt })
      .onConflict((oc) =>
        oc
          .column('client_id')
          .doUpdateSet({ metadata: JSON.stringify(c.metadata) })
          .where('oauth_clients.kind', '=', 'cimd'),
      )
      .execute();
  }

  async getClient(clientId: string) {
    const row = await this.db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst();
    return row ? toClient(row as Row) : undefined;
  }

  async registerAgent({ newAccount, client, claim: c }: AgentRegistration, mailBudget?: { since: string; max: number }): Promise<boolean> {
    return this.ctx.write(async (tx) => {
      if (mailBudget && c.email !== null) {
        // One registration per address at a time, so the count cannot be stale.
        await this.ctx.advisoryLock(tx, c.email, LOCK_CLASS_CLAIM_MAIL);
        const row = await tx
          .selectFrom('oauth_claims')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('kind', '=', 'verified_email')
          .where('email', '=', c.email)
          .where('created_at', '>=', mailBudget.since)
          .executeTakeFirst();
        if (Number(row?.n ?? 0) >= mailBudget.max) return false;
      }
      if (newAccount) await tx.insertInto('accounts').values({ account_id: newAccount.accountId, email: null, created_at: newAccount.createdAt }).execute();
      await insertClient(tx, client);
      await tx
        .insertInto('oauth_claims')
        .values({
          claim_hash: c.claimHash,
          code_hash: c.codeHash,
          client_id: c.clientId,
          kind: c.kind,
          email: c.email,
          verification_hash: c.verificationHash,
          attempts: 0,
          confirmed_at: c.confirmedAt,
          claimed_at: null,
          adopted_at: null,
          expires_at: c.expiresAt,
          created_at: c.createdAt,
        })
        .execute();
      return true;
    });
  }

  async accountForExternalIdentity(issuer: string, subject: string, newAccountId: string, at: string): Promise<string> {
    return this.ctx.write(async (tx) => {
      // The lock makes two first sign-ins of one identity agree on one account.
      await this.ctx.advisoryLock(tx, `external_identity:${issuer}\n${subject}`);
      const found = await tx.selectFrom('external_identities').select('account_id').where('issuer', '=', issuer).where('subject', '=', subject).executeTakeFirst();
      if (found) return String(found.account_id);
      await tx.insertInto('accounts').values({ account_id: newAccountId, email: null, created_at: at }).execute();
      await tx.insertInto('external_identities').values({ issuer, subject, account_id: newAccountId, created_at: at }).execute();
      return newAccountId;
    });
  }

  async findClaim(claimHash: string) {
    const row = await this.db.selectFrom('oauth_claims').selectAll().where('claim_hash', '=', claimHash).executeTakeFirst();
    return row ? toClaim(row as Row) : undefined;
  }

  async findClaimByCode(codeHash: string) {
    const row = await this.db.selectFrom('oauth_claims').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
    return row ? toClaim(row as Row) : undefined;
  }

  async reserveClaimAttempt(claimHash: string, maxAttempts: number, at: string): Promise<boolean> {
    // One conditional UPDATE: the row lock it takes makes concurrent reservations queue and re-check.
    const result = await this.db
      .updateTable('oauth_claims')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('claim_hash', '=', claimHash)
      .where('kind', '=', 'verified_email')
      .where('confirmed_at', 'is', null)
      .where('expires_at', '>', at)
      .where('attempts', '<', maxAttempts)
      .executeTakeFirst();
    return affected(result) === 1;
  }

  async confirmClaim(claimHash: string, accountId: string, at: string): Promise<boolean> {
    return this.ctx.write(async (tx) => {
      const row = await tx
        .updateTable('oauth_claims')
        .set({ confirmed_at: at })
        .where('claim_hash', '=', claimHash)
        .where('kind', '=', 'verified_email')
        .where('confirmed_at', 'is', null)
        .where('expires_at', '>', at)
        .returning('client_id')
        .executeTakeFirst();
      if (!row) return false;
      await tx.updateTable('oauth_clients').set({ account_id: accountId }).where('client_id', '=', row.client_id).execute();
      return true;
    });
  }

  async redeemClaim(claimHash: string, at: string, grant: Grant, credential: GrantCredential): Promise<boolean> {
    return this.ctx.write(async (tx) => {
      const result = await tx
        .updateTable('oauth_claims')
        .set({ claimed_at: at })
        .where('claim_hash', '=', claimHash)
        .where('claimed_at', 'is', null)
        .where('expires_at', '>', at)
        .where((eb) => eb.or([eb('kind', '<>', 'verified_email'), eb('confirmed_at', 'is not', null)]))
        .executeTakeFirst();
      if (affected(result) !== 1) return false;
      await insertGrant(tx, grant, credential);
      return true;
    });
  }

  async adoptAgentAccount(claimHash: string, intoAccountId: string, at: string, access: AgentAccess): Promise<boolean> {
    return this.ctx.write(async (tx) => {
      // The agent account's row is locked too (PostgreSQL): a knowledge base it creates meanwhile
      // (which locks that row first) is then either moved here or created after, into the adopting account.
      const row = await this.ctx
        .lockRow(
          tx
            .selectFrom('oauth_claims as k')
            .innerJoin('oauth_clients as c', 'c.client_id', 'k.client_id')
            .innerJoin('accounts as a', 'a.account_id', 'c.account_id')
            .select('c.account_id')
            .where('k.claim_hash', '=', claimHash)
            .where('k.kind', '=', 'anonymous')
            .where('k.adopted_at', 'is', null)
            .where('a.email', 'is', null)
            .where('a.adopted_into', 'is', null),
          ['k', 'a'] as never,
        )
        .executeTakeFirst();
      const from = row?.account_id ?? undefined;
      if (!from || from === intoAccountId) return false;
      if (access === 'account') {
        for (const table of ['oauth_clients', 'oauth_grants', 'oauth_authorization_codes', 'external_identities'] as const) {
          await tx.updateTable(table).set({ account_id: intoAccountId }).where('account_id', '=', from).execute();
        }
        await tx.updateTable('knowledge_bases').set({ owner_id: intoAccountId }).where('owner_id', '=', from).execute();
      } else {
        // The agent keeps its own account as its identity; what it made so far is marked as its own.
        await tx.updateTable('knowledge_bases').set({ owner_id: intoAccountId, created_by: from }).where('owner_id', '=', from).execute();
        await tx.updateTable('accounts').set({ adopted_into: intoAccountId }).where('account_id', '=', from).execute();
      }
      await tx.updateTable('oauth_claims').set({ adopted_at: at }).where('claim_hash', '=', claimHash).execute();
      return true;
    });
  }

  async putAuthorizationCode(c: AuthorizationCode): Promise<void> {
    await this.db
      .insertInto('oauth_authorization_codes')
      .values({
        code_hash: c.codeHash,
        client_id: c.clientId,
        account_id: c.accountId,
        redirect_uri: c.redirectUri,
        code_challenge: c.codeChallenge,
        scope: c.scope,
        resources: JSON.stringify(c.resources),
        expires_at: c.expiresAt,
        used_at: null,
        grant_id: null,
        created_at: c.createdAt,
      })
      .execute();
  }

  async findAuthorizationCode(codeHash: string) {
    const row = await this.db.selectFrom('oauth_authorization_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
    return row ? toAuthorizationCode(row as Row) : undefined;
  }

  async redeemAuthorizationCode(codeHash: string, at: string, grant: Grant, credential: GrantCredential): Promise<boolean> {
    return this.ctx.write(async (tx) => {
      const result = await tx
        .updateTable('oauth_authorization_codes')
        .set({ used_at: at, grant_id: grant.grantId })
        .where('code_hash', '=', codeHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (affected(result) !== 1) return false;
      await insertGrant(tx, grant, credential);
      return true;
    });
  }

  async createGrant(grant: Grant, credential: GrantCredential): Promise<void> {
    await this.ctx.write((tx) => insertGrant(tx, grant, credential));
  }

  async getGrant(grantId: string) {
    const row = await this.db.selectFrom('oauth_grants').selectAll().where('grant_id', '=', grantId).executeTakeFirst();
    return row ? toGrant(row as Row) : undefined;
  }

  async revokeGrant(grantId: string, at: string): Promise<void> {
    await revoke(this.db, grantId, at);
  }

  async findRefreshToken(tokenHash: string) {
    const row = await this.db.selectFrom('oauth_refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    return row ? toRefreshToken(row as Row) : undefined;
  }

  async rotateRefreshToken(tokenHash: string, chain: readonly RefreshToken[], at: string, graceSince?: string): Promise<RotateOutcome> {
    return this.ctx.write(async (tx): Promise<RotateOutcome> => {
      // FOR UPDATE: a concurrent exchange of the same token waits, then sees it rotated (a repeat, or reuse).
      const row = await this.ctx.lockForUpdate(tx.selectFrom('oauth_refresh_tokens').selectAll().where('token_hash', '=', tokenHash)).executeTakeFirst();
      const first = chain[0];
      if (!row || !first) return { kind: 'invalid' };
      const token = toRefreshToken(row as Row);
      const grantRow = await tx.selectFrom('oauth_grants').selectAll().where('grant_id', '=', token.grantId).executeTakeFirst();
      const grant = grantRow ? toGrant(grantRow as Row) : undefined;
      if (token.rotatedAt !== null) {
        if (graceSince !== undefined && Date.parse(token.rotatedAt) > Date.parse(graceSince) && grant && grant.revokedAt === null) {
          // Within the window the chain of successors is followed to the live one (a client that
          // read the token before a parallel request rotated it twice gets what the others hold).
          // Each is locked too, so it cannot be exchanged between this check and the answer.
          for (let i = 0; i < chain.length; i++) {
            const found = await this.ctx
              .lockForUpdate(tx.selectFrom('oauth_refresh_tokens').selectAll().where('token_hash', '=', (chain[i] as RefreshToken).tokenHash).where('grant_id', '=', token.grantId))
              .executeTakeFirst();
            const successor = found ? toRefreshToken(found as Row) : undefined;
            if (!successor || Date.parse(successor.expiresAt) <= Date.parse(at)) break;
            if (successor.rotatedAt === null) return { kind: 'rotated', grant, repeated: true, successor: i };
          }
        }
        await revoke(tx, token.grantId, at);
        return { kind: 'reused' };
      }
      if (!grant || grant.revokedAt !== null || Date.parse(token.expiresAt) <= Date.parse(at)) return { kind: 'invalid' };
      await tx.updateTable('oauth_refresh_tokens').set({ rotated_at: at }).where('token_hash', '=', tokenHash).execute();
      await insertRefresh(tx, first);
      return { kind: 'rotated', grant, successor: 0 };
    });
  }

  async findAccountKey(keyHash: string) {
    const row = await this.db.selectFrom('account_api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
    return row ? toAccountKey(row as Row) : undefined;
  }

  async useJti(issuer: string, jti: string, expiresAt: string, at: string): Promise<boolean> {
    // Inserted, or taken over from an expired record: either way this is the first live use.
    const row = await this.db
      .insertInto('oauth_used_jtis')
      .values({ issuer, jti, expires_at: expiresAt })
      .onConflict((oc) =>
        oc
          .columns(['issuer', 'jti'])
          .doUpdateSet((eb) => ({ expires_at: eb.ref('excluded.expires_at') }))
          .where('oauth_used_jtis.expires_at', '<=', at),
      )
      .returning('jti')
      .executeTakeFirst();
    return row !== undefined;
  }

  async purgeExpired(at: string): Promise<void> {
    await this.db.deleteFrom('oauth_used_jtis').where('expires_at', '<=', at).execute();
    await this.db.deleteFrom('oauth_refresh_tokens').where('expires_at', '<=', at).execute();
    // Used codes are kept a day past expiry so a replay still revokes what was issued from them;
    // claims a week, so a late visitor to claim_uri is told it expired rather than "unknown".
    await this.db.deleteFrom('oauth_authorization_codes').where('expires_at', '<=', daysBefore(at, 1)).execute();
    // An adopted claim stays: it records the adoption, which the person's connected agents list.
    await this.db.deleteFrom('oauth_claims').where('expires_at', '<=', daysBefore(at, 7)).where('adopted_at', 'is', null).execute();
  }
}
