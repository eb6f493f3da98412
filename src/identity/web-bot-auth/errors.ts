/**
 * Why a Web Bot Auth signature was refused. The reason goes to the client in
 * the 401 problem document (`reason`) and to the log; it never holds
 * signature bytes or key material.
 */
import { GuardedFetchError } from '../../net/guarded-fetch.js';

export type BotAuthReason =
  | 'malformed'
  | 'missing_signature'
  | 'missing_agent'
  | 'wrong_tag'
  | 'insufficient_coverage'
  | 'not_yet_valid'
  | 'expired'
  | 'validity_too_long'
  | 'unknown_key'
  | 'unsupported_algorithm'
  | 'bad_signature'
  | 'replayed'
  | 'directory_unavailable';

export class BotAuthError extends Error {
  constructor(
    readonly reason: BotAuthReason,
    message: string,
  ) {
    super(message);
    this.name = 'BotAuthError';
  }
}

/**
 * What a client is told whenever an agent's key directory cannot be fetched
 * or used, whatever the cause. The directory URL is the requester's to
 * choose, so a cause in the answer (does not resolve, resolves to a private
 * address, connection refused, timed out, answered 404) would make us a DNS
 * and network scanner for anyone. The cause goes to the debug log only.
 */
export const DIRECTORY_UNAVAILABLE = "the agent's key directory could not be fetched";

/**
 * Why a key directory could not be used (SSRF guard, DNS, connection, HTTP,
 * format). Its message is for the server's log, never for the client. The
 * guard itself (src/net/guarded-fetch.ts) throws its parent class; key-directory.ts
 * treats both alike.
 */
export class DirectoryFetchError extends GuardedFetchError {
  constructor(
    message: string,
    /** The system error code behind it, when there is one (ENOTFOUND, ECONNREFUSED…). */
    code?: string,
  ) {
    super(message, code);
    this.name = 'DirectoryFetchError';
  }
}
