/** Accounts, sign-in codes and sessions in SQLite: every read-then-write runs in one BEGIN IMMEDIATE transaction, so no other writer interleaves. */
import type Database from 'better-sqlite3';
import type { Account, Session, SignInCode } from '../../../identity/model.js';
import type { AccountStore, SignInGuessLimits } from '../port.js';
import { counterHorizon, type Row, toAccount, toSession, toSignInCode } from '../rows.js';
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

  async putSignInCode(code: SignInCode, budget: { since: string; maxCodes: number }): Promise<boolean> {
    return this.db
      .transaction(() => {
        const { n } = prepared(this.db, 'SELECT count(*) AS n FROM sign_in_codes WHERE email = ? AND created_at >= ?').get(code.email, budget.since) as { n: number };
        if (n >= budget.maxCodes) return false;
        prepared(this.db, 'INSERT INTO sign_in_codes (code_id, email, code_hash, expires_at, attempts, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(
          code.codeId,
          code.email,
          code.codeHash,
          code.expiresAt,
          code.attempts,
          code.createdAt,
        );
        return true;
      })
      .immediate();
  }

  async countSignInCodesSince(email: string, since: string): Promise<number> {
    return (prepared(this.db, 'SELECT count(*) AS n FROM sign_in_codes WHERE email = ? AND created_at >= ?').get(email, since) as { n: number }).n;
  }

  async reserveSignInGuess(email: string, requester: string, at: string, limits: SignInGuessLimits): Promise<SignInCode[]> {
    return this.db
      .transaction((): SignInCode[] => {
        const live = (
          prepared(
            this.db,
            `SELECT c.*, coalesce(g.attempts, 0) AS mine FROM sign_in_codes c
             LEFT JOIN sign_in_code_guesses g ON g.code_id = c.code_id AND g.requester = ?
             WHERE c.email = ? AND c.used_at IS NULL AND c.expires_at > ? AND c.attempts < ? ORDER BY c.created_at DESC, c.code_id`,
          ).all(requester, email, at, limits.perCode) as Row[]
        ).filter((row) => Number(row.mine) < limits.perRequester);
        const count = prepared(this.db, 'UPDATE sign_in_codes SET attempts = attempts + 1 WHERE code_id = ?');
        const mine = prepared(
          this.db,
          `INSERT INTO sign_in_code_guesses (code_id, requester, attempts) VALUES (?, ?, 1)
           ON CONFLICT (code_id, requester) DO UPDATE SET attempts = attempts + 1`,
        );
        return live.map((row) => {
          count.run(row.code_id);
          mine.run(row.code_id, requester);
          const code = toSignInCode(row);
          return { ...code, attempts: code.attempts + 1 };
        });
      })
      .immediate();
  }

  async consumeSignInCode(codeId: string): Promise<boolean> {
    return this.db
      .transaction(() => {
        const row = prepared(this.db, 'SELECT email FROM sign_in_codes WHERE code_id = ? AND used_at IS NULL').get(codeId) as { email: string } | undefined;
        if (!row) return false;
        prepared(this.db, 'UPDATE sign_in_codes SET used_at = ? WHERE email = ? AND used_at IS NULL').run(now(), row.email);
        return true;
      })
      .immediate();
  }

  async takeSignInAllowance(key: string, windowStart: string, limit: number): Promise<boolean> {
    const row = prepared(
      this.db,
      `INSERT INTO sign_in_counters (counter_key, window_start, count) VALUES (?, ?, 1)
       ON CONFLICT (counter_key) DO UPDATE
         SET count = CASE WHEN window_start = excluded.window_start THEN count + 1 ELSE 1 END, window_start = excluded.window_start
         WHERE window_start <> excluded.window_start OR count < ?
       RETURNING count`,
    ).get(key, windowStart, limit);
    return row !== undefined;
  }

  async returnSignInAllowance(key: string, windowStart: string): Promise<void> {
    prepared(this.db, 'UPDATE sign_in_counters SET count = count - 1 WHERE counter_key = ? AND window_start = ? AND count > 0').run(key, windowStart);
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
    prepared(this.db, 'DELETE FROM sign_in_counters WHERE window_start <= ?').run(counterHorizon(at));
  }
}
