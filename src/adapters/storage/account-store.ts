/**
 * Accounts, sign-in codes and sessions. The races that matter — the
 * per-address code budget, the guess counts, single use — are closed by one
 * write transaction each, with the address locked on PostgreSQL (an advisory
 * lock for the budget, its live codes `FOR UPDATE` for guesses), or by one
 * conditional upsert (the per-requester counters).
 */
import type { Account, Session, SignInCode } from '../../identity/model.js';
import type { AccountStore, SignInGuessLimits } from '../../ports/storage.js';
import { counterHorizon, type Row, toAccount, toSession, toSignInCode } from './rows.js';
import { type Db, LOCK_CLASS_SIGN_IN, now, type SqlContext } from './sql.js';

export class SqlAccountStore implements AccountStore {
  constructor(private readonly ctx: SqlContext) {}

  private get db(): Db {
    return this.ctx.db;
  }

  async accountForEmail(email: string, newAccountId: string): Promise<Account> {
    // On PostgreSQL a racing insert of the same e-mail makes ON CONFLICT wait for it, so the
    // SELECT (a new snapshot at READ COMMITTED) sees whichever row won.
    await this.db
      .insertInto('accounts')
      .values({ account_id: newAccountId, email, created_at: now() })
      .onConflict((oc) => oc.column('email').doNothing())
      .execute();
    return toAccount((await this.db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirstOrThrow()) as Row);
  }

  async getAccount(accountId: string) {
    const row = await this.db.selectFrom('accounts').selectAll().where('account_id', '=', accountId).executeTakeFirst();
    return row ? toAccount(row as Row) : undefined;
  }

  private async countCodes(db: Db, email: string, since: string): Promise<number> {
    const row = await db
      .selectFrom('sign_in_codes')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('email', '=', email)
      .where('created_at', '>=', since)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async putSignInCode(code: SignInCode, budget: { since: string; maxCodes: number }): Promise<boolean> {
    return this.ctx.write(async (tx) => {
      // Without the lock, parallel requests for one address would each count the others'
      // uncommitted codes as absent and overshoot the budget.
      await this.ctx.advisoryLock(tx, code.email, LOCK_CLASS_SIGN_IN);
      if ((await this.countCodes(tx, code.email, budget.since)) >= budget.maxCodes) return false;
      await tx
        .insertInto('sign_in_codes')
        .values({
          code_id: code.codeId,
          email: code.email,
          code_hash: code.codeHash,
          expires_at: code.expiresAt,
          attempts: code.attempts,
          created_at: code.createdAt,
        })
        .execute();
      return true;
    });
  }

  async countSignInCodesSince(email: string, since: string): Promise<number> {
    return this.countCodes(this.db, email, since);
  }

  async reserveSignInGuess(email: string, requester: string, at: string, limits: SignInGuessLimits): Promise<SignInCode[]> {
    return this.ctx.write(async (tx) => {
      // FOR UPDATE on the address's live codes: concurrent guesses for one address queue here, so
      // each reads the counts the previous one wrote.
      const live = (
        await this.ctx
          .lockForUpdate(
            tx
              .selectFrom('sign_in_codes')
              .selectAll()
              .where('email', '=', email)
              .where('used_at', 'is', null)
              .where('expires_at', '>', at)
              .where('attempts', '<', limits.perCode)
              .orderBy('created_at', 'desc')
              .orderBy('code_id'),
          )
          .execute()
      ).map((row) => toSignInCode(row as Row));
      if (live.length === 0) return [];
      const mine = new Map(
        (
          await tx
            .selectFrom('sign_in_code_guesses')
            .select(['code_id', 'attempts'])
            .where(
              'code_id',
              'in',
              live.map((c) => c.codeId),
            )
            .where('requester', '=', requester)
            .execute()
        ).map((r) => [r.code_id, Number(r.attempts)]),
      );
      const open = live.filter((c) => (mine.get(c.codeId) ?? 0) < limits.perRequester);
      if (open.length === 0) return [];
      const openIds = open.map((c) => c.codeId);
      await tx
        .updateTable('sign_in_codes')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('code_id', 'in', openIds)
        .execute();
      await tx
        .insertInto('sign_in_code_guesses')
        .values(openIds.map((codeId) => ({ code_id: codeId, requester, attempts: 1 })))
        .onConflict((oc) => oc.columns(['code_id', 'requester']).doUpdateSet((eb) => ({ attempts: eb('sign_in_code_guesses.attempts', '+', 1) })))
        .execute();
      return open.map((c) => ({ ...c, attempts: c.attempts + 1 }));
    });
  }

  async consumeSignInCode(codeId: string): Promise<boolean> {
    return this.ctx.write(async (tx) => {
      // Locks the address's pending codes in the order reserveSignInGuess does (no deadlock between
      // them). A racing second consume waits here, then re-checks `used_at IS NULL` and no longer
      // finds the code.
      const rows = await this.ctx
        .lockForUpdate(
          tx
            .selectFrom('sign_in_codes')
            .select('code_id')
            .where('email', '=', (eb) => eb.selectFrom('sign_in_codes').select('email').where('code_id', '=', codeId))
            .where('used_at', 'is', null)
            .orderBy('created_at', 'desc')
            .orderBy('code_id'),
        )
        .execute();
      if (!rows.some((r) => r.code_id === codeId)) return false;
      await tx
        .updateTable('sign_in_codes')
        .set({ used_at: now() })
        .where(
          'code_id',
          'in',
          rows.map((r) => r.code_id),
        )
        .execute();
      return true;
    });
  }

  async takeSignInAllowance(key: string, windowStart: string, limit: number): Promise<boolean> {
    // ON CONFLICT DO UPDATE locks the row, so parallel takes are counted one after another; the
    // WHERE makes the update (and RETURNING) conditional: no row returned = refused.
    const row = await this.db
      .insertInto('sign_in_counters')
      .values({ counter_key: key, window_start: windowStart, count: 1 })
      .onConflict((oc) =>
        oc
          .column('counter_key')
          .doUpdateSet((eb) => ({
            count: eb
              .case()
              .when('sign_in_counters.window_start', '=', eb.ref('excluded.window_start'))
              .then(eb('sign_in_counters.count', '+', 1))
              .else(1)
              .end(),
            window_start: eb.ref('excluded.window_start'),
          }))
          .where((eb) =>
            eb.or([eb('sign_in_counters.window_start', '<>', eb.ref('excluded.window_start')), eb('sign_in_counters.count', '<', limit)]),
          ),
      )
      .returning('count')
      .executeTakeFirst();
    return row !== undefined;
  }

  async returnSignInAllowance(key: string, windowStart: string): Promise<void> {
    await this.db
      .updateTable('sign_in_counters')
      .set((eb) => ({ count: eb('count', '-', 1) }))
      .where('counter_key', '=', key)
      .where('window_start', '=', windowStart)
      .where('count', '>', 0)
      .execute();
  }

  async putSession(session: Session): Promise<void> {
    await this.db
      .insertInto('sessions')
      .values({
        token_hash: session.tokenHash,
        account_id: session.accountId,
        csrf_token: session.csrfToken,
        expires_at: session.expiresAt,
        created_at: session.createdAt,
      })
      .execute();
  }

  async getSession(tokenHash: string, at: string) {
    const row = await this.db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).where('expires_at', '>', at).executeTakeFirst();
    return row ? toSession(row as Row) : undefined;
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
  }

  async purgeExpired(at: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('expires_at', '<=', at).execute();
    await this.db.deleteFrom('sign_in_codes').where('expires_at', '<=', at).execute();
    await this.db.deleteFrom('sign_in_counters').where('window_start', '<=', counterHorizon(at)).execute();
  }
}
