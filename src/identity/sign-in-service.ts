/**
 * Passwordless sign-in for people: a one-time code by e-mail, exchanged for a
 * session. Codes are 6 characters from a 32-symbol alphabet (about a billion
 * values), live 10 minutes, are single-use, stored only as a salted SHA-256,
 * and die after 5 wrong guesses; an address gets at most 5 codes per 15
 * minutes. Sessions are 256-bit random tokens stored hashed.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { Mailer } from '../adapters/mail/mailer.js';
import type { AccountStore } from '../adapters/storage/port.js';
import { DomainError } from '../errors.js';
import { newId } from '../ids.js';
import { hashSecret, safeEqual } from '../secrets.js';
import type { Account } from './model.js';

/** Upper-case letters and digits without the look-alikes I, O, 0 and 1. */
const codeAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const signInPolicy = {
  codeTtlMs: 10 * 60_000,
  maxAttempts: 5,
  sendWindowMs: 15 * 60_000,
  maxCodesPerWindow: 5,
  sessionTtlMs: 30 * 24 * 3600_000,
};

export interface SignedIn {
  account: Account;
  /** The session token for the cookie; shown once, stored hashed. */
  sessionToken: string;
  csrfToken: string;
  expiresAt: Date;
}

export interface CurrentSession {
  account: Account;
  csrfToken: string;
}

/** Lower-cases and trims an address; refuses anything that is not a plausible single address. */
export function normaliseEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (email.length > 254 || !/^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\]+$/.test(email)) {
    throw new DomainError('validation_failed', 'email must be a valid e-mail address', { errors: [{ location: '/email', message: 'not an e-mail address' }] });
  }
  return email;
}

/** Codes are shown as `ABC-DEF`; people may type them with spaces, dashes or in lower case. */
export function normaliseCode(raw: string): string {
  return raw.toUpperCase().replace(/[\s-]/g, '');
}

function generateCode(): string {
  let code = '';
  for (let i = 0; i < 6; i++) code += codeAlphabet[randomInt(codeAlphabet.length)];
  return code;
}

export class SignInService {
  constructor(
    private readonly accounts: AccountStore,
    private readonly mailer: Mailer,
    private readonly publicUrl: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Sends a new code to the address. Answers the same whether or not an account exists. */
  async requestCode(rawEmail: string): Promise<{ expiresInSeconds: number }> {
    const email = normaliseEmail(rawEmail);
    const at = this.now();
    const since = new Date(at.getTime() - signInPolicy.sendWindowMs).toISOString();
    if ((await this.accounts.countSignInCodesSince(email, since)) >= signInPolicy.maxCodesPerWindow) {
      throw new DomainError('too_many_attempts', 'Too many codes were requested for this address. Try again later.', {
        retryAfterMs: signInPolicy.sendWindowMs,
      });
    }
    const code = generateCode();
    const codeId = newId('code');
    await this.accounts.putSignInCode({
      codeId,
      email,
      codeHash: hashSecret(`${codeId}:${code}`),
      expiresAt: new Date(at.getTime() + signInPolicy.codeTtlMs).toISOString(),
      attempts: 0,
      createdAt: at.toISOString(),
    });
    const shown = `${code.slice(0, 3)}-${code.slice(3)}`;
    await this.mailer.send({
      to: email,
      subject: `Your Groundwork sign-in code: ${shown}`,
      text: [
        `Your sign-in code is ${shown}`,
        '',
        `Enter it on the sign-in page of ${this.publicUrl}. It expires in 10 minutes and works once.`,
        'If you did not ask for it, ignore this message.',
      ].join('\n'),
    });
    return { expiresInSeconds: signInPolicy.codeTtlMs / 1000 };
  }

  /** Exchanges a code for a session; wrong, used and expired codes all give `invalid_code`. */
  async verifyCode(rawEmail: string, rawCode: string): Promise<SignedIn> {
    const email = normaliseEmail(rawEmail);
    const code = normaliseCode(rawCode);
    const at = this.now();
    const live = await this.accounts.liveSignInCode(email, at.toISOString());
    if (!live) throw new DomainError('invalid_code', 'The code is wrong, used or expired. Request a new one.');
    if (!safeEqual(live.codeHash, hashSecret(`${live.codeId}:${code}`))) {
      const attempts = await this.accounts.recordFailedAttempt(live.codeId);
      if (attempts >= signInPolicy.maxAttempts) {
        await this.accounts.consumeSignInCode(live.codeId);
        throw new DomainError('too_many_attempts', 'Too many wrong codes. Request a new code.', { retryAfterMs: 0 });
      }
      throw new DomainError('invalid_code', 'The code is wrong, used or expired. Request a new one.', {
        attemptsLeft: signInPolicy.maxAttempts - attempts,
      });
    }
    if (!(await this.accounts.consumeSignInCode(live.codeId))) {
      throw new DomainError('invalid_code', 'The code is wrong, used or expired. Request a new one.');
    }
    const account = await this.accounts.accountForEmail(email, newId('acc'));
    const sessionToken = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(24).toString('base64url');
    const expiresAt = new Date(at.getTime() + signInPolicy.sessionTtlMs);
    await this.accounts.putSession({
      tokenHash: hashSecret(sessionToken),
      accountId: account.accountId,
      csrfToken,
      expiresAt: expiresAt.toISOString(),
      createdAt: at.toISOString(),
    });
    return { account, sessionToken, csrfToken, expiresAt };
  }

  async session(sessionToken: string): Promise<CurrentSession | undefined> {
    if (!sessionToken || sessionToken.length > 100) return undefined;
    const session = await this.accounts.getSession(hashSecret(sessionToken), this.now().toISOString());
    if (!session) return undefined;
    const account = await this.accounts.getAccount(session.accountId);
    return account ? { account, csrfToken: session.csrfToken } : undefined;
  }

  async signOut(sessionToken: string): Promise<void> {
    await this.accounts.deleteSession(hashSecret(sessionToken));
  }
}
