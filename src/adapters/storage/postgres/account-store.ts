/** Accounts, sign-in codes and sessions on PostgreSQL. The races that matter are closed by single atomic statements or an advisory lock. */
import type pg from 'pg';
import type { Account, Session, SignInCode } from '../../../identity/model.js';
import type { AccountStore } from '../port.js';
import { type Row, toAccount, toSession, toSignInCode } from '../rows.js';
import { LOCK_CLASS_SIGN_IN, now, transaction } from './shared.js';

export class PostgresAccountStore implements AccountStore {
  constructor(private readonly pool: pg.Pool) {}

  async accountForEmail(email: string, newAccountId: string): Promise<Account> {
    // A racing insert of the same e-mail makes ON CONFLICT wait for it, so the
    // SELECT (a new snapshot at READ COMMITTED) sees whichever row won.
    await this.pool.query(
      'INSERT INTO accounts (account_id, email, created_at) VALUES ($1, $2, $3::timestamptz) ON CONFLICT (email) DO NOTHING',
      [newAccountId, email, now()],
    );
    return toAccount((await this.pool.query<Row>('SELECT * FROM accounts WHERE email = $1', [email])).rows[0] as Row);
  }

  async getAccount(accountId: string) {
    const row = (await this.pool.query<Row>('SELECT * FROM accounts WHERE account_id = $1', [accountId])).rows[0];
    return row ? toAccount(row) : undefined;
  }

  async putSignInCode(code: SignInCode): Promise<void> {
    await transaction(this.pool, async (client) => {
      // Without this, two concurrent requests for one e-mail would each miss
      // the other's uncommitted code and leave two live codes.
      await client.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [LOCK_CLASS_SIGN_IN, code.email]);
      await client.query('UPDATE sign_in_codes SET used_at = $1::timestamptz WHERE email = $2 AND used_at IS NULL', [code.createdAt, code.email]);
      await client.query(
        `INSERT INTO sign_in_codes (code_id, email, code_hash, expires_at, attempts, created_at)
         VALUES ($1, $2, $3, $4::timestamptz, $5, $6::timestamptz)`,
        [code.codeId, code.email, code.codeHash, code.expiresAt, code.attempts, code.createdAt],
      );
    });
  }

  async countSignInCodesSince(email: string, since: string): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>('SELECT count(*) AS n FROM sign_in_codes WHERE email = $1 AND created_at >= $2::timestamptz', [
      email,
      since,
    ]);
    return Number(rows[0]?.n ?? 0);
  }

  async liveSignInCode(email: string, at: string) {
    const { rows } = await this.pool.query<Row>(
      'SELECT * FROM sign_in_codes WHERE email = $1 AND used_at IS NULL AND expires_at > $2::timestamptz ORDER BY created_at DESC LIMIT 1',
      [email, at],
    );
    return rows[0] ? toSignInCode(rows[0]) : undefined;
  }

  async recordFailedAttempt(codeId: string): Promise<number> {
    // One statement: the row lock taken by UPDATE makes concurrent wrong guesses count one each.
    const { rows } = await this.pool.query<{ attempts: number }>('UPDATE sign_in_codes SET attempts = attempts + 1 WHERE code_id = $1 RETURNING attempts', [
      codeId,
    ]);
    return rows[0]?.attempts ?? Number.MAX_SAFE_INTEGER;
  }

  async consumeSignInCode(codeId: string): Promise<boolean> {
    // A racing second UPDATE waits for the first, then re-checks `used_at IS NULL` and matches nothing.
    const result = await this.pool.query('UPDATE sign_in_codes SET used_at = $1::timestamptz WHERE code_id = $2 AND used_at IS NULL', [now(), codeId]);
    return result.rowCount === 1;
  }

  async putSession(session: Session): Promise<void> {
    await this.pool.query(
      'INSERT INTO sessions (token_hash, account_id, csrf_token, expires_at, created_at) VALUES ($1, $2, $3, $4::timestamptz, $5::timestamptz)',
      [session.tokenHash, session.accountId, session.csrfToken, session.expiresAt, session.createdAt],
    );
  }

  async getSession(tokenHash: string, at: string) {
    const { rows } = await this.pool.query<Row>('SELECT * FROM sessions WHERE token_hash = $1 AND expires_at > $2::timestamptz', [tokenHash, at]);
    return rows[0] ? toSession(rows[0]) : undefined;
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.pool.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash]);
  }

  async purgeExpired(at: string): Promise<void> {
    await this.pool.query('DELETE FROM sessions WHERE expires_at <= $1::timestamptz', [at]);
    await this.pool.query('DELETE FROM sign_in_codes WHERE expires_at <= $1::timestamptz', [at]);
  }
}
