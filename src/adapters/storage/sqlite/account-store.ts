/** Accounts, sign-in codes and sessions in SQLite. */
import type Database from 'better-sqlite3';
import type { Account, Session, SignInCode } from '../../../identity/model.js';
import type { AccountStore } from '../port.js';
import { type Row, toAccount, toSession, toSignInCode } from '../rows.js';
import { now } from './clock.js';
import { prepared } from './statements.js';

type Db = Database.Database;

export class SqliteAccountStore implements AccountStore {
  constructor(private readonly db: Db) {}

  async accountForEmail(email: string, newAccountId: string): Promise<Account> {
    prepared(this.db, 'INSERT INTO accounts (account_id, email, created_at) VALUES (?, ?, ?) ON CONFLICT (email) DO NOTHING').run(newAccountId, email, now());
    return toAccount(prepared(this.db, 'SELECT * FROM accounts WHERE email = ?').get(email) as Row);
  }

  async getAccount(accountId: string) {
    const row = prepared(this.db, 'SELECT * FROM accounts WHERE account_id = ?').get(accountId) as Row | undefined;
    return row ? toAccount(row) : undefined;
  }

  async putSignInCode(code: SignInCode): Promise<void> {
    this.db
      .transaction(() => {
        prepared(this.db, 'UPDATE sign_in_codes SET used_at = ? WHERE email = ? AND used_at IS NULL').run(code.createdAt, code.email);
        this.db
          .prepare('INSERT INTO sign_in_codes (code_id, email, code_hash, expires_at, attempts, created_at) VALUES (?, ?, ?, ?, ?, ?)')
          .run(code.codeId, code.email, code.codeHash, code.expiresAt, code.attempts, code.createdAt);
      })
      .immediate();
  }

  async countSignInCodesSince(email: string, since: string): Promise<number> {
    return (prepared(this.db, 'SELECT count(*) AS n FROM sign_in_codes WHERE email = ? AND created_at >= ?').get(email, since) as { n: number }).n;
  }

  async liveSignInCode(email: string, at: string) {
    const row = this.db
      .prepare('SELECT * FROM sign_in_codes WHERE email = ? AND used_at IS NULL AND expires_at > ? ORDER BY created_at DESC LIMIT 1')
      .get(email, at) as Row | undefined;
    return row ? toSignInCode(row) : undefined;
  }

  async recordFailedAttempt(codeId: string): Promise<number> {
    const row = prepared(this.db, 'UPDATE sign_in_codes SET attempts = attempts + 1 WHERE code_id = ? RETURNING attempts').get(codeId) as
      | { attempts: number }
      | undefined;
    return row?.attempts ?? Number.MAX_SAFE_INTEGER;
  }

  async consumeSignInCode(codeId: string): Promise<boolean> {
    return prepared(this.db, 'UPDATE sign_in_codes SET used_at = ? WHERE code_id = ? AND used_at IS NULL').run(now(), codeId).changes === 1;
  }

  async putSession(session: Session): Promise<void> {
    this.db
      .prepare('INSERT INTO sessions (token_hash, account_id, csrf_token, expires_at, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(session.tokenHash, session.accountId, session.csrfToken, session.expiresAt, session.createdAt);
  }

  async getSession(tokenHash: string, at: string) {
    const row = prepared(this.db, 'SELECT * FROM sessions WHERE token_hash = ? AND expires_at > ?').get(tokenHash, at) as Row | undefined;
    return row ? toSession(row) : undefined;
  }

  async deleteSession(tokenHash: string): Promise<void> {
    prepared(this.db, 'DELETE FROM sessions WHERE token_hash = ?').run(tokenHash);
  }

  async purgeExpired(at: string): Promise<void> {
    prepared(this.db, 'DELETE FROM sessions WHERE expires_at <= ?').run(at);
    prepared(this.db, 'DELETE FROM sign_in_codes WHERE expires_at <= ?').run(at);
  }
}
