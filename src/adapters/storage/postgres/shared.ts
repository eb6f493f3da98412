/** Pieces shared by the PostgreSQL store's parts: the clock, the advisory-lock classes and the transaction helper. */
import type pg from 'pg';

export type Queryable = pg.Pool | pg.PoolClient;

/** Timestamps come from the application clock, as in SqliteStore, so both backends agree with the `now` values callers pass in. */
export const now = (): string => new Date().toISOString();

/** First argument of the two-key advisory locks this store takes, so they cannot collide with other applications' one-key locks. */
export const LOCK_CLASS_MIGRATE = 0x67770001;
export const LOCK_CLASS_SIGN_IN = 0x67770002;

/**
 * Runs `work` in one transaction on a dedicated client. A client whose
 * ROLLBACK failed is in an unknown state, so it is destroyed rather than
 * returned to the pool.
 */
export async function transaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch (rollbackError) {
      broken = rollbackError as Error;
    }
    throw error;
  } finally {
    client.release(broken);
  }
}
