/**
 * Accounts, sign-in codes and sessions on PostgreSQL. The races that matter
 * are closed by single conditional statements, row locks or an advisory lock:
 * the per-address code budget, the guess counts, single use.
 */
import type pg from 'pg';
import type { Account, Session, SignInCode } from '../../../identity/model.js';
import type { AccountStore, SignInGuessLimits } from '../port.js';
import { counterHorizon, type Row, toAccount, toSession, toSignInCode } from '../rows.js';
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

  async putSignInCode(code: SignInCode, budget: { since: string; maxCodes: number }): Promise<boolean> {
    return transaction(this.pool, async (client) => {
      // Without this lock, parallel requests for one e-mail would each count
      // the others' uncommitted codes as absent and overshoot the budget.
      await client.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [LOCK_CLASS_SIGN_IN, code.email]);
      const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM sign_in_codes WHERE email = $1 AND created_at >= $2::timestamptz', [
        code.email,
        budget.since,
      ]);
      if (Number(rows[0]?.n ?? 0) >= budget.maxCodes) return false;
      await client.query(
        `INSERT INTO sign_in_codes (code_id, email, code_hash, expires_at, attempts, created_at)
         VALUES ($1, $2, $3, $4::timestamptz, $5, $6::timestamptz)`,
        [code.codeId, code.email, code.codeHash, code.expiresAt, code.attempts, code.createdAt],
      );
      return true;
    });
  }

  async countSignInCodesSince(email: string, since: string): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>('SELECT count(*) AS n FROM sign_in_codes WHERE email = $1 AND created_at >= $2::timestamptz', [
      email,
      since,
    ]);
    return Number(rows[0]?.n ?? 0);
  }

  async reserveSignInGuess(email: string, requester: string, at: string, limits: SignInGuessLimits): Promise<SignInCode[]> {
    return transaction(this.pool, async (client) => {
      // FOR UPDATE on the address's live codes: concurrent guesses for one
      // address queue here, so each reads the counts the previous one wrote.
      const live = (
        await client.query<Row>(
          `SELECT * FROM sign_in_codes WHERE email = $1 AND used_at IS NULL AND expires_at > $2::timestamptz AND attempts < $3
           ORDER BY created_at DESC, code_id FOR UPDATE`,
          [email, at, limits.perCode],
        )
      ).rows.map(toSignInCode);
      if (live.length === 0) return [];
      const ids = live.map((c) => c.codeId);
      const mine = new Map(
        (
          await client.query<{ code_id: string; attempts: number }>(
            'SELECT code_id, attempts FROM sign_in_code_guesses WHERE code_id = ANY($1::text[]) AND requester = $2',
            [ids, requester],
          )
        ).rows.map((r) => [r.code_id, Number(r.attempts)]),
      );
      const open = live.filter((c) => (mine.get(c.codeId) ?? 0) < limits.perRequester);
      if (open.length === 0) return [];
      const openIds = open.map((c) => c.codeId);
      await client.query('UPDATE sign_in_codes SET attempts = attempts + 1 WHERE code_id = ANY($1::text[])', [openIds]);
      await client.query(
        `INSERT INTO sign_in_code_guesses (code_id, requester, attempts) SELECT unnest($1::text[]), $2, 1
         ON CONFLICT (code_id, requester) DO UPDATE SET attempts = sign_in_code_guesses.attempts + 1`,
        [openIds, requester],
      );
      return open.map((c) => ({ ...c, attempts: c.attempts + 1 }));
    });
  }

  async consumeSignInCode(codeId: string): Promise<boolean> {
    return transaction(this.pool, async (client) => {
      // Locks the address's pending codes in the order reserveSignInGuess does
      // (no deadlock between them). A racing second consume waits here, then
      // FOR UPDATE re-checks `used_at IS NULL` and no longer finds the code.
      const { rows } = await client.query<{ code_id: string }>(
        `SELECT code_id FROM sign_in_codes WHERE email = (SELECT email FROM sign_in_codes WHERE code_id = $1) AND used_at IS NULL
         ORDER BY created_at DESC, code_id FOR UPDATE`,
        [codeId],
      );
      if (!rows.some((r) => r.code_id === codeId)) return false;
      await client.query('UPDATE sign_in_codes SET used_at = $1::timestamptz WHERE code_id = ANY($2::text[])', [now(), rows.map((r) => r.code_id)]);
      return true;
    });
  }

  async takeSignInAllowance(key: string, windowStart: string, limit: number): Promise<boolean> {
    // ON CONFLICT DO UPDATE locks the row, so parallel takes are counted one
    // after another; the WHERE makes the update (and RETURNING) conditional.
    const { rowCount } = await this.pool.query(
      `INSERT INTO sign_in_counters (counter_key, window_start, count) VALUES ($1, $2::timestamptz, 1)
       ON CONFLICT (counter_key) DO UPDATE
         SET count = CASE WHEN sign_in_counters.window_start = excluded.window_start THEN sign_in_counters.count + 1 ELSE 1 END,
             window_start = excluded.window_start
         WHERE sign_in_counters.window_start <> excluded.window_start OR sign_in_counters.count < $3
       RETURNING count`,
      [key, windowStart, limit],
    );
    return (rowCount ?? 0) === 1;
  }

  async returnSignInAllowance(key: string, windowStart: string): Promise<void> {
    await this.pool.query('UPDATE sign_in_counters SET count = count - 1 WHERE counter_key = $1 AND window_start = $2::timestamptz AND count > 0', [
      key,
      windowStart,
    ]);
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
    await this.pool.query('DELETE FROM sign_in_counters WHERE window_start <= $1::timestamptz', [counterHorizon(at)]);
  }
}
