/** Accounts, sign-in codes and sessions for people (product.md §4, §9). */
export interface Account {
  accountId: string;
  /** Verified e-mail address, lower-cased; null for an agent's anonymous account. */
  email: string | null;
  createdAt: string;
}

export interface SignInCode {
  codeId: string;
  email: string;
  /** SHA-256 of `codeId:code`; the code itself is never stored. */
  codeHash: string;
  expiresAt: string;
  attempts: number;
  createdAt: string;
}

export interface Session {
  /** SHA-256 of the session token carried by the cookie. */
  tokenHash: string;
  accountId: string;
  /** Value the browser must echo in `X-CSRF-Token` for cookie-authenticated writes. */
  csrfToken: string;
  expiresAt: string;
  createdAt: string;
}
