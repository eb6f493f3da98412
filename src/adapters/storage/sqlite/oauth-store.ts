/** OAuth clients, claims, codes, grants, refresh tokens, account keys and jti records in SQLite (see OAuthStore). */
import type Database from 'better-sqlite3';
import type { AccountKey, AgentRegistration, AuthorizationCode, Grant, OAuthClient, RefreshToken, RotateOutcome } from '../../../identity/oauth/model.js';
import { toAccountKey, toAuthorizationCode, toClaim, toClient, toGrant, toRefreshToken } from '../oauth-rows.js';
import type { GrantCredential, OAuthStore } from '../port.js';
import type { Row } from '../rows.js';
import { prepared } from './statements.js';

type Db = Database.Database;

const daysBefore = (at: string, days: number): string => new Date(Date.parse(at) - days * 86_400_000).toISOString();

export class SqliteOAuthStore implements OAuthStore {
  constructor(private readonly db: Db) {}

  private insertClient(c: OAuthClient): void {
    this.db
      .prepare('INSERT INTO oauth_clients (client_id, secret_hash, account_id, kind, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(c.clientId, c.secretHash, c.accountId, c.kind, JSON.stringify(c.metadata), c.createdAt);
  }

  private insertGrant(g: Grant, credential: GrantCredential): void {
    this.db
      .prepare('INSERT INTO oauth_grants (grant_id, client_id, account_id, kind, scope, resources, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)')
      .run(g.grantId, g.clientId, g.accountId, g.kind, g.scope, JSON.stringify(g.resources), g.createdAt);
    if (credential.refresh) this.insertRefresh(credential.refresh);
    if (credential.accountKey) this.insertAccountKey(credential.accountKey);
  }

  private insertRefresh(t: RefreshToken): void {
    this.db
      .prepare('INSERT INTO oauth_refresh_tokens (token_hash, grant_id, expires_at, rotated_at, created_at) VALUES (?, ?, ?, NULL, ?)')
      .run(t.tokenHash, t.grantId, t.expiresAt, t.createdAt);
  }

  private insertAccountKey(k: AccountKey): void {
    this.db
      .prepare('INSERT INTO account_api_keys (key_hash, key_id, grant_id, prefix, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(k.keyHash, k.keyId, k.grantId, k.prefix, k.createdAt);
  }

  async createClient(client: OAuthClient): Promise<void> {
    this.insertClient(client);
  }

  async getClient(clientId: string) {
    const row = prepared(this.db, 'SELECT * FROM oauth_clients WHERE client_id = ?').get(clientId) as Row | undefined;
    return row ? toClient(row) : undefined;
  }

  async registerAgent({ newAccount, client, claim: c }: AgentRegistration): Promise<void> {
    this.db
      .transaction(() => {
        if (newAccount) {
          prepared(this.db, 'INSERT INTO accounts (account_id, email, created_at) VALUES (?, NULL, ?)').run(newAccount.accountId, newAccount.createdAt);
        }
        this.insertClient(client);
        this.db
          .prepare(
            `INSERT INTO oauth_claims (claim_hash, code_hash, client_id, kind, email, verification_hash, attempts, confirmed_at, claimed_at, adopted_at, expires_at, created_at)
             VALUES (?, ?, ?, ?, ?, ?, 0, ?, NULL, NULL, ?, ?)`,
          )
          .run(c.claimHash, c.codeHash, c.clientId, c.kind, c.email, c.verificationHash, c.confirmedAt, c.expiresAt, c.createdAt);
      })
      .immediate();
  }

  async accountForExternalIdentity(issuer: string, subject: string, newAccountId: string, at: string): Promise<string> {
    return this.db
      .transaction(() => {
        const found = prepared(this.db, 'SELECT account_id FROM external_identities WHERE issuer = ? AND subject = ?').get(issuer, subject) as Row | undefined;
        if (found) return String(found.account_id);
        prepared(this.db, 'INSERT INTO accounts (account_id, email, created_at) VALUES (?, NULL, ?)').run(newAccountId, at);
        prepared(this.db, 'INSERT INTO external_identities (issuer, subject, account_id, created_at) VALUES (?, ?, ?, ?)').run(issuer, subject, newAccountId, at);
        return newAccountId;
      })
      .immediate();
  }

  async countEmailClaimsSince(email: string, since: string): Promise<number> {
    const row = this.db
      .prepare("SELECT count(*) AS n FROM oauth_claims WHERE kind = 'verified_email' AND email = ? AND created_at >= ?")
      .get(email, since) as Row;
    return Number(row.n);
  }

  async findClaim(claimHash: string) {
    const row = prepared(this.db, 'SELECT * FROM oauth_claims WHERE claim_hash = ?').get(claimHash) as Row | undefined;
    return row ? toClaim(row) : undefined;
  }

  async findClaimByCode(codeHash: string) {
    const row = prepared(this.db, 'SELECT * FROM oauth_claims WHERE code_hash = ?').get(codeHash) as Row | undefined;
    return row ? toClaim(row) : undefined;
  }

  async recordClaimAttempt(claimHash: string): Promise<number> {
    const row = prepared(this.db, 'UPDATE oauth_claims SET attempts = attempts + 1 WHERE claim_hash = ? RETURNING attempts').get(claimHash) as Row | undefined;
    return row ? Number(row.attempts) : Number.MAX_SAFE_INTEGER;
  }

  async confirmClaim(claimHash: string, accountId: string, at: string): Promise<boolean> {
    return this.db
      .transaction(() => {
        const row = this.db
          .prepare(
            "UPDATE oauth_claims SET confirmed_at = ? WHERE claim_hash = ? AND kind = 'verified_email' AND confirmed_at IS NULL AND expires_at > ? RETURNING client_id",
          )
          .get(at, claimHash, at) as Row | undefined;
        if (!row) return false;
        prepared(this.db, 'UPDATE oauth_clients SET account_id = ? WHERE client_id = ?').run(accountId, row.client_id);
        return true;
      })
      .immediate();
  }

  async redeemClaim(claimHash: string, at: string, grant: Grant, credential: GrantCredential): Promise<boolean> {
    return this.db
      .transaction(() => {
        const changed = this.db
          .prepare(
            `UPDATE oauth_claims SET claimed_at = ? WHERE claim_hash = ? AND claimed_at IS NULL AND expires_at > ?
             AND (kind <> 'verified_email' OR confirmed_at IS NOT NULL)`,
          )
          .run(at, claimHash, at).changes;
        if (changed !== 1) return false;
        this.insertGrant(grant, credential);
        return true;
      })
      .immediate();
  }

  async adoptAgentAccount(claimHash: string, intoAccountId: string, at: string): Promise<boolean> {
    return this.db
      .transaction(() => {
        const row = this.db
          .prepare(
            `SELECT c.account_id FROM oauth_claims k JOIN oauth_clients c ON c.client_id = k.client_id JOIN accounts a ON a.account_id = c.account_id
             WHERE k.claim_hash = ? AND k.kind = 'anonymous' AND k.adopted_at IS NULL AND a.email IS NULL`,
          )
          .get(claimHash) as Row | undefined;
        const from = row ? String(row.account_id) : undefined;
        if (!from || from === intoAccountId) return false;
        for (const table of ['oauth_clients', 'oauth_grants', 'oauth_authorization_codes', 'external_identities']) {
          prepared(this.db, `UPDATE ${table} SET account_id = ? WHERE account_id = ?`).run(intoAccountId, from);
        }
        prepared(this.db, 'UPDATE knowledge_bases SET owner_id = ? WHERE owner_id = ?').run(intoAccountId, from);
        prepared(this.db, 'UPDATE oauth_claims SET adopted_at = ? WHERE claim_hash = ?').run(at, claimHash);
        return true;
      })
      .immediate();
  }

  async putAuthorizationCode(c: AuthorizationCode): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO oauth_authorization_codes (code_hash, client_id, account_id, redirect_uri, code_challenge, scope, resources, expires_at, used_at, grant_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?)`,
      )
      .run(c.codeHash, c.clientId, c.accountId, c.redirectUri, c.codeChallenge, c.scope, JSON.stringify(c.resources), c.expiresAt, c.createdAt);
  }

  async findAuthorizationCode(codeHash: string) {
    const row = prepared(this.db, 'SELECT * FROM oauth_authorization_codes WHERE code_hash = ?').get(codeHash) as Row | undefined;
    return row ? toAuthorizationCode(row) : undefined;
  }

  async redeemAuthorizationCode(codeHash: string, at: string, grant: Grant, credential: GrantCredential): Promise<boolean> {
    return this.db
      .transaction(() => {
        const changed = this.db
          .prepare('UPDATE oauth_authorization_codes SET used_at = ?, grant_id = ? WHERE code_hash = ? AND used_at IS NULL')
          .run(at, grant.grantId, codeHash).changes;
        if (changed !== 1) return false;
        this.insertGrant(grant, credential);
        return true;
      })
      .immediate();
  }

  async createGrant(grant: Grant, credential: GrantCredential): Promise<void> {
    this.db.transaction(() => this.insertGrant(grant, credential)).immediate();
  }

  async getGrant(grantId: string) {
    const row = prepared(this.db, 'SELECT * FROM oauth_grants WHERE grant_id = ?').get(grantId) as Row | undefined;
    return row ? toGrant(row) : undefined;
  }

  async revokeGrant(grantId: string, at: string): Promise<void> {
    prepared(this.db, 'UPDATE oauth_grants SET revoked_at = ? WHERE grant_id = ? AND revoked_at IS NULL').run(at, grantId);
  }

  async findRefreshToken(tokenHash: string) {
    const row = prepared(this.db, 'SELECT * FROM oauth_refresh_tokens WHERE token_hash = ?').get(tokenHash) as Row | undefined;
    return row ? toRefreshToken(row) : undefined;
  }

  async rotateRefreshToken(tokenHash: string, next: RefreshToken, at: string): Promise<RotateOutcome> {
    return this.db
      .transaction((): RotateOutcome => {
        const row = prepared(this.db, 'SELECT * FROM oauth_refresh_tokens WHERE token_hash = ?').get(tokenHash) as Row | undefined;
        if (!row) return { kind: 'invalid' };
        const token = toRefreshToken(row);
        if (token.rotatedAt !== null) {
          prepared(this.db, 'UPDATE oauth_grants SET revoked_at = ? WHERE grant_id = ? AND revoked_at IS NULL').run(at, token.grantId);
          return { kind: 'reused' };
        }
        const grantRow = prepared(this.db, 'SELECT * FROM oauth_grants WHERE grant_id = ?').get(token.grantId) as Row | undefined;
        const grant = grantRow ? toGrant(grantRow) : undefined;
        if (!grant || grant.revokedAt !== null || token.expiresAt <= at) return { kind: 'invalid' };
        prepared(this.db, 'UPDATE oauth_refresh_tokens SET rotated_at = ? WHERE token_hash = ?').run(at, tokenHash);
        this.insertRefresh(next);
        return { kind: 'rotated', grant };
      })
      .immediate();
  }

  async findAccountKey(keyHash: string) {
    const row = prepared(this.db, 'SELECT * FROM account_api_keys WHERE key_hash = ?').get(keyHash) as Row | undefined;
    return row ? toAccountKey(row) : undefined;
  }

  async useJti(issuer: string, jti: string, expiresAt: string, at: string): Promise<boolean> {
    return this.db
      .transaction(() => {
        prepared(this.db, 'DELETE FROM oauth_used_jtis WHERE issuer = ? AND jti = ? AND expires_at <= ?').run(issuer, jti, at);
        return prepared(this.db, 'INSERT OR IGNORE INTO oauth_used_jtis (issuer, jti, expires_at) VALUES (?, ?, ?)').run(issuer, jti, expiresAt).changes === 1;
      })
      .immediate();
  }

  async purgeExpired(at: string): Promise<void> {
    this.db
      .transaction(() => {
        prepared(this.db, 'DELETE FROM oauth_used_jtis WHERE expires_at <= ?').run(at);
        prepared(this.db, 'DELETE FROM oauth_refresh_tokens WHERE expires_at <= ?').run(at);
        // Used codes are kept a day past expiry so a replay still revokes what was issued from them;
        // claims a week, so a late visitor to claim_uri is told it expired rather than "unknown".
        prepared(this.db, 'DELETE FROM oauth_authorization_codes WHERE expires_at <= ?').run(daysBefore(at, 1));
        prepared(this.db, 'DELETE FROM oauth_claims WHERE expires_at <= ?').run(daysBefore(at, 7));
      })
      .immediate();
  }
}
