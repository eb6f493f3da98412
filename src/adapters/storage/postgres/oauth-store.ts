/**
 * OAuth clients, claims, codes, grants, refresh tokens, account keys and jti
 * records on PostgreSQL (see OAuthStore). Single-use rules are one
 * conditional UPDATE (or an upsert) each; refresh-token rotation locks the
 * token row so two concurrent exchanges of one token cannot both succeed.
 */
import type pg from 'pg';
import type { AccountKey, AgentRegistration, AuthorizationCode, Grant, OAuthClient, RefreshToken, RotateOutcome } from '../../../identity/oauth/model.js';
import { toAccountKey, toAuthorizationCode, toClaim, toClient, toGrant, toRefreshToken } from '../oauth-rows.js';
import type { GrantCredential, OAuthStore } from '../port.js';
import type { Row } from '../rows.js';
import { type Queryable, transaction } from './shared.js';

const daysBefore = (at: string, days: number): string => new Date(Date.parse(at) - days * 86_400_000).toISOString();

async function one(db: Queryable, sql: string, params: unknown[]): Promise<Row | undefined> {
  return (await db.query<Row>(sql, params)).rows[0];
}

async function insertClient(db: Queryable, c: OAuthClient): Promise<void> {
  await db.query(
    'INSERT INTO oauth_clients (client_id, secret_hash, account_id, kind, metadata, created_at) VALUES ($1, $2, $3, $4, $5::jsonb, $6::timestamptz)',
    [c.clientId, c.secretHash, c.accountId, c.kind, JSON.stringify(c.metadata), c.createdAt],
  );
}

async function insertRefresh(db: Queryable, t: RefreshToken): Promise<void> {
  await db.query(
    'INSERT INTO oauth_refresh_tokens (token_hash, grant_id, expires_at, rotated_at, created_at) VALUES ($1, $2, $3::timestamptz, NULL, $4::timestamptz)',
    [t.tokenHash, t.grantId, t.expiresAt, t.createdAt],
  );
}

async function insertAccountKey(db: Queryable, k: AccountKey): Promise<void> {
  await db.query('INSERT INTO account_api_keys (key_hash, key_id, grant_id, prefix, created_at) VALUES ($1, $2, $3, $4, $5::timestamptz)', [
    k.keyHash,
    k.keyId,
    k.grantId,
    k.prefix,
    k.createdAt,
  ]);
}

async function insertGrant(db: Queryable, g: Grant, credential: GrantCredential): Promise<void> {
  await db.query(
    `INSERT INTO oauth_grants (grant_id, client_id, account_id, kind, scope, resources, created_at, revoked_at)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::timestamptz, NULL)`,
    [g.grantId, g.clientId, g.accountId, g.kind, g.scope, JSON.stringify(g.resources), g.createdAt],
  );
  if (credential.refresh) await insertRefresh(db, credential.refresh);
  if (credential.accountKey) await insertAccountKey(db, credential.accountKey);
}

export class PostgresOAuthStore implements OAuthStore {
  constructor(private readonly pool: pg.Pool) {}

  async createClient(client: OAuthClient): Promise<void> {
    await insertClient(this.pool, client);
  }

  async getClient(clientId: string) {
    const row = await one(this.pool, 'SELECT * FROM oauth_clients WHERE client_id = $1', [clientId]);
    return row ? toClient(row) : undefined;
  }

  async registerAgent({ newAccount, client, claim: c }: AgentRegistration): Promise<void> {
    await transaction(this.pool, async (db) => {
      if (newAccount) {
        await db.query('INSERT INTO accounts (account_id, email, created_at) VALUES ($1, NULL, $2::timestamptz)', [newAccount.accountId, newAccount.createdAt]);
      }
      await insertClient(db, client);
      await db.query(
        `INSERT INTO oauth_claims (claim_hash, code_hash, client_id, kind, email, verification_hash, attempts, confirmed_at, claimed_at, adopted_at, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, 0, $7::timestamptz, NULL, NULL, $8::timestamptz, $9::timestamptz)`,
        [c.claimHash, c.codeHash, c.clientId, c.kind, c.email, c.verificationHash, c.confirmedAt, c.expiresAt, c.createdAt],
      );
    });
  }

  async accountForExternalIdentity(issuer: string, subject: string, newAccountId: string, at: string): Promise<string> {
    return transaction(this.pool, async (db) => {
      // The lock makes two first sign-ins of one identity agree on one account.
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`external_identity:${issuer}\n${subject}`]);
      const found = await one(db, 'SELECT account_id FROM external_identities WHERE issuer = $1 AND subject = $2', [issuer, subject]);
      if (found) return String(found.account_id);
      await db.query('INSERT INTO accounts (account_id, email, created_at) VALUES ($1, NULL, $2::timestamptz)', [newAccountId, at]);
      await db.query('INSERT INTO external_identities (issuer, subject, account_id, created_at) VALUES ($1, $2, $3, $4::timestamptz)', [
        issuer,
        subject,
        newAccountId,
        at,
      ]);
      return newAccountId;
    });
  }

  async countEmailClaimsSince(email: string, since: string): Promise<number> {
    const row = await one(this.pool, "SELECT count(*) AS n FROM oauth_claims WHERE kind = 'verified_email' AND email = $1 AND created_at >= $2::timestamptz", [
      email,
      since,
    ]);
    return Number(row?.n ?? 0);
  }

  async findClaim(claimHash: string) {
    const row = await one(this.pool, 'SELECT * FROM oauth_claims WHERE claim_hash = $1', [claimHash]);
    return row ? toClaim(row) : undefined;
  }

  async findClaimByCode(codeHash: string) {
    const row = await one(this.pool, 'SELECT * FROM oauth_claims WHERE code_hash = $1', [codeHash]);
    return row ? toClaim(row) : undefined;
  }

  async recordClaimAttempt(claimHash: string): Promise<number> {
    const row = await one(this.pool, 'UPDATE oauth_claims SET attempts = attempts + 1 WHERE claim_hash = $1 RETURNING attempts', [claimHash]);
    return row ? Number(row.attempts) : Number.MAX_SAFE_INTEGER;
  }

  async confirmClaim(claimHash: string, accountId: string, at: string): Promise<boolean> {
    return transaction(this.pool, async (db) => {
      const row = await one(
        db,
        `UPDATE oauth_claims SET confirmed_at = $1::timestamptz WHERE claim_hash = $2 AND kind = 'verified_email' AND confirmed_at IS NULL
         AND expires_at > $1::timestamptz RETURNING client_id`,
        [at, claimHash],
      );
      if (!row) return false;
      await db.query('UPDATE oauth_clients SET account_id = $1 WHERE client_id = $2', [accountId, row.client_id]);
      return true;
    });
  }

  async redeemClaim(claimHash: string, at: string, grant: Grant, credential: GrantCredential): Promise<boolean> {
    return transaction(this.pool, async (db) => {
      const { rowCount } = await db.query(
        `UPDATE oauth_claims SET claimed_at = $1::timestamptz WHERE claim_hash = $2 AND claimed_at IS NULL AND expires_at > $1::timestamptz
         AND (kind <> 'verified_email' OR confirmed_at IS NOT NULL)`,
        [at, claimHash],
      );
      if (rowCount !== 1) return false;
      await insertGrant(db, grant, credential);
      return true;
    });
  }

  async adoptAgentAccount(claimHash: string, intoAccountId: string, at: string): Promise<boolean> {
    return transaction(this.pool, async (db) => {
      const row = await one(
        db,
        `SELECT c.account_id FROM oauth_claims k JOIN oauth_clients c ON c.client_id = k.client_id JOIN accounts a ON a.account_id = c.account_id
         WHERE k.claim_hash = $1 AND k.kind = 'anonymous' AND k.adopted_at IS NULL AND a.email IS NULL FOR UPDATE OF k`,
        [claimHash],
      );
      const from = row ? String(row.account_id) : undefined;
      if (!from || from === intoAccountId) return false;
      for (const table of ['oauth_clients', 'oauth_grants', 'oauth_authorization_codes', 'external_identities']) {
        await db.query(`UPDATE ${table} SET account_id = $1 WHERE account_id = $2`, [intoAccountId, from]);
      }
      await db.query('UPDATE knowledge_bases SET owner_id = $1 WHERE owner_id = $2', [intoAccountId, from]);
      await db.query('UPDATE oauth_claims SET adopted_at = $1::timestamptz WHERE claim_hash = $2', [at, claimHash]);
      return true;
    });
  }

  async putAuthorizationCode(c: AuthorizationCode): Promise<void> {
    await this.pool.query(
      `INSERT INTO oauth_authorization_codes (code_hash, client_id, account_id, redirect_uri, code_challenge, scope, resources, expires_at, used_at, grant_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::timestamptz, NULL, NULL, $9::timestamptz)`,
      [c.codeHash, c.clientId, c.accountId, c.redirectUri, c.codeChallenge, c.scope, JSON.stringify(c.resources), c.expiresAt, c.createdAt],
    );
  }

  async findAuthorizationCode(codeHash: string) {
    const row = await one(this.pool, 'SELECT * FROM oauth_authorization_codes WHERE code_hash = $1', [codeHash]);
    return row ? toAuthorizationCode(row) : undefined;
  }

  async redeemAuthorizationCode(codeHash: string, at: string, grant: Grant, credential: GrantCredential): Promise<boolean> {
    return transaction(this.pool, async (db) => {
      const { rowCount } = await db.query(
        'UPDATE oauth_authorization_codes SET used_at = $1::timestamptz, grant_id = $2 WHERE code_hash = $3 AND used_at IS NULL',
        [at, grant.grantId, codeHash],
      );
      if (rowCount !== 1) return false;
      await insertGrant(db, grant, credential);
      return true;
    });
  }

  async createGrant(grant: Grant, credential: GrantCredential): Promise<void> {
    await transaction(this.pool, (db) => insertGrant(db, grant, credential));
  }

  async getGrant(grantId: string) {
    const row = await one(this.pool, 'SELECT * FROM oauth_grants WHERE grant_id = $1', [grantId]);
    return row ? toGrant(row) : undefined;
  }

  async revokeGrant(grantId: string, at: string): Promise<void> {
    await this.pool.query('UPDATE oauth_grants SET revoked_at = $1::timestamptz WHERE grant_id = $2 AND revoked_at IS NULL', [at, grantId]);
  }

  async findRefreshToken(tokenHash: string) {
    const row = await one(this.pool, 'SELECT * FROM oauth_refresh_tokens WHERE token_hash = $1', [tokenHash]);
    return row ? toRefreshToken(row) : undefined;
  }

  async rotateRefreshToken(tokenHash: string, next: RefreshToken, at: string): Promise<RotateOutcome> {
    return transaction(this.pool, async (db): Promise<RotateOutcome> => {
      // FOR UPDATE: a concurrent exchange of the same token waits, then sees it rotated (and counts as reuse).
      const row = await one(db, 'SELECT * FROM oauth_refresh_tokens WHERE token_hash = $1 FOR UPDATE', [tokenHash]);
      if (!row) return { kind: 'invalid' };
      const token = toRefreshToken(row);
      if (token.rotatedAt !== null) {
        await db.query('UPDATE oauth_grants SET revoked_at = $1::timestamptz WHERE grant_id = $2 AND revoked_at IS NULL', [at, token.grantId]);
        return { kind: 'reused' };
      }
      const grantRow = await one(db, 'SELECT * FROM oauth_grants WHERE grant_id = $1', [token.grantId]);
      const grant = grantRow ? toGrant(grantRow) : undefined;
      if (!grant || grant.revokedAt !== null || Date.parse(token.expiresAt) <= Date.parse(at)) return { kind: 'invalid' };
      await db.query('UPDATE oauth_refresh_tokens SET rotated_at = $1::timestamptz WHERE token_hash = $2', [at, tokenHash]);
      await insertRefresh(db, next);
      return { kind: 'rotated', grant };
    });
  }

  async findAccountKey(keyHash: string) {
    const row = await one(this.pool, 'SELECT * FROM account_api_keys WHERE key_hash = $1', [keyHash]);
    return row ? toAccountKey(row) : undefined;
  }

  async useJti(issuer: string, jti: string, expiresAt: string, at: string): Promise<boolean> {
    // Inserted, or taken over from an expired record: either way this is the first live use.
    const { rowCount } = await this.pool.query(
      `INSERT INTO oauth_used_jtis (issuer, jti, expires_at) VALUES ($1, $2, $3::timestamptz)
       ON CONFLICT (issuer, jti) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE oauth_used_jtis.expires_at <= $4::timestamptz`,
      [issuer, jti, expiresAt, at],
    );
    return rowCount === 1;
  }

  async purgeExpired(at: string): Promise<void> {
    await this.pool.query('DELETE FROM oauth_used_jtis WHERE expires_at <= $1::timestamptz', [at]);
    await this.pool.query('DELETE FROM oauth_refresh_tokens WHERE expires_at <= $1::timestamptz', [at]);
    // Used codes are kept a day past expiry so a replay still revokes what was issued from them;
    // claims a week, so a late visitor to claim_uri is told it expired rather than "unknown".
    await this.pool.query('DELETE FROM oauth_authorization_codes WHERE expires_at <= $1::timestamptz', [daysBefore(at, 1)]);
    await this.pool.query('DELETE FROM oauth_claims WHERE expires_at <= $1::timestamptz', [daysBefore(at, 7)]);
  }
}
