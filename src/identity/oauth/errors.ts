/**
 * Errors of the OAuth endpoints, answered as RFC 6749 §5.2 bodies
 * `{error, error_description}` — never as problem documents (product.md §8).
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'invalid_client_metadata'
  | 'invalid_redirect_uri'
  | 'unsupported_assertion_type'
  | 'authorization_pending'
  | 'access_denied'
  | 'expired_token'
  | 'unsupported_token_type'
  | 'invalid_token'
  | 'slow_down'
  | 'temporarily_unavailable'
  | 'server_error';

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
    /** Further members of the body, e.g. `interval` while a claim is pending (RFC 8628 §3.5). */
    readonly fields: Record<string, string | number> = {},
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  toJSON(): { error: OAuthErrorCode; error_description: string } & Record<string, string | number> {
    return { ...this.fields, error: this.error, error_description: this.message };
  }
}

export const invalidRequest = (description: string) => new OAuthError('invalid_request', description);
export const invalidGrant = (description: string, status = 400) => new OAuthError('invalid_grant', description, status);
