/**
 * Whether an error means the database cannot be reached or used right now —
 * a condition to report as `503 service_unavailable` with `Retry-After`, not
 * as a bug (`500 internal_error`). The storage adapters throw their drivers'
 * errors as they are; this recognises them by their stable codes. (A socket
 * error code can also come from another backing service; 503 is right for those too.)
 */

/** Socket-level failures while connecting to or talking with PostgreSQL. */
const networkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/**
 * PostgreSQL SQLSTATEs of an unusable server: class 08 (connection exception),
 * 53300 too_many_connections, 57P01–57P03 (shutting down, crashed, cannot connect now).
 */
const postgresStates = /^(08...|53300|57P0[123])$/;

/** pg's own messages for a connection that timed out or dropped (they carry no code). */
const postgresMessages = /^(timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error|Cannot use a pool after calling end)/;

/** SQLite result codes of a database that is locked, unreadable or full, not of a bad statement. */
const sqliteCodes = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL)/;

export function isStoreUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (networkCodes.has(code) || postgresStates.test(code) || sqliteCodes.test(code))) return true;
    if (postgresMessages.test(e.message)) return true;
    // better-sqlite3 on a closed handle (the store was closed, e.g. during shutdown).
    if (e instanceof TypeError && e.message === 'The database connection is not open') return true;
    // Node's happy-eyeballs connect reports every refused address in one AggregateError.
    if (e instanceof AggregateError && e.errors.some((inner) => isStoreUnavailable(inner))) return true;
  }
  return false;
}
