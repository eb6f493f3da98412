/**
 * Why a Web Bot Auth signature was refused. The reason goes to the client in
 * the 401 problem document (`reason`) and to the log; it never holds
 * signature bytes or key material.
 */
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

/** Why a key directory could not be used (SSRF guard, HTTP, format). */
export class DirectoryFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DirectoryFetchError';
  }
}
