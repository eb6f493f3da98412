/**
 * Passwordless sign-in for people: a one-time code by e-mail, exchanged for a
 * session. Codes are 6 characters from a 32-symbol alphabet (about a billion
 * values), live 10 minutes, are single-use and stored only as a salted
 * SHA-256. A code is compared with at most 10 guesses, at most 5 of them from
 * one requester; an address is mailed at most 5 codes per 10 minutes, and a
 * new code does not invalidate the pending ones (signing in uses them all up).
 * Sessions are 256-bit random tokens stored hashed.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { Mailer } from '../ports/mailer.js';
import type { AccountStore } from '../ports/storage.js';
import { DomainError } from '../errors.js';
import { newId } from '../ids.js';
import { hashSecret, safeEqual } from '../secrets.js';
import type { Account } from './model.js';

/** Upper-case letters and digits without the look-alikes I, O, 0 and 1. */
const codeAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/**
 * The limits, and whom each one binds (docs/decisions.md, "Counted limits
 * under concurrency, and sign-in that cannot lock a victim out"). Nothing an
 * outsider does can make the service refuse the owner of an address:
 * per-address limits only stop sending mail or stop evaluating one
 * requester's guesses; refusals (429) are per requester.
 */
export const signInPolicy = {
  codeTtlMs: 10 * 60_000,
  /** Mails per address per window. The window equals the code lifetime, so whenever the budget is spent, the codes it paid for are still valid in the owner's inbox. */
  sendWindowMs: 10 * 60_000,
  maxCodesPerWindow: 5,
  /** Guesses evaluated against one code, from everyone (brute force: at most 10 in 32^6 per code). */
  maxAttemptsPerCode: 10,
  /** Guesses evaluated against one code from one requester: one requester cannot use up the code for the others. */
  maxAttemptsPerRequesterPerCode: 5,
  /** Per-requester (IP) fixed windows: starts, and failed verifies across all addresses. */
  requesterWindowMs: 10 * 60_000,
  maxStartsPerRequester: 50,
  maxFailedVerifiesPerRequester: 30,
  sessionTtlMs: 30 * 24 * 3600_000,
};

/**
 * The requester a per-requester limit counts: the client IP, an IPv6 address
 * by its /64 (one host usually holds a whole /64, so counting single addresses
 * would give it 2^64 allowances).
 */
export function requesterKey(ip: string): string {
  const bare = ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
  if (!bare.includes(':')) return bare;
  const [head = '', tail = ''] = bare.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = bare.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (g || '0').toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

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

  /**
   * Sends a new code to the address, unless the address's mail budget is
   * spent. Answers the same whether or not an account exists, a mail was sent
   * or codes are pending; earlier codes stay valid. Refuses (429) only a
   * requester that started too many sign-ins, never the address.
   */
  async requestCode(rawEmail: string, requesterIp: string): Promise<{ expiresInSeconds: number }> {
    const email = normaliseEmail(rawEmail);
    const at = this.now();
    await this.takeRequesterAllowance(`start:${requesterKey(requesterIp)}`, signInPolicy.maxStartsPerRequester, at, 'Too many sign-in requests from this client.');
    const code = generateCode();
    const codeId = newId('code');
    const stored = await this.accounts.putSignInCode(
      {
        codeId,
        email,
        codeHash: hashSecret(`${codeId}:${code}`),
        expiresAt: new Date(at.getTime() + signInPolicy.codeTtlMs).toISOString(),
        attempts: 0,
        createdAt: at.toISOString(),
      },
      { since: new Date(at.getTime() - signInPolicy.sendWindowMs).toISOString(), maxCodes: signInPolicy.maxCodesPerWindow },
    );
    if (stored) {
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
    }
    return { expiresInSeconds: signInPolicy.codeTtlMs / 1000 };
  }

  /**
   * Exchanges a code for a session. Every failure is the same `invalid_code`,
   * whether the code is wrong, used, expired, out of attempts or was never
   * requested, so the answer does not tell whether a sign-in is pending. A
   * requester with too many failed verifies (any address) gets 429.
   */
  async verifyCode(rawEmail: string, rawCode: string, requesterIp: string): Promise<SignedIn> {
    const email = normaliseEmail(rawEmail);
    const code = normaliseCode(rawCode);
    const at = this.now();
    const requester = requesterKey(requesterIp);
    // Taken before the guess is evaluated and given back on success: parallel
    // guesses cannot all pass a check made before any of them was counted.
    const failures = await this.takeRequesterAllowance(
      `verify-fail:${requester}`,
      signInPolicy.maxFailedVerifiesPerRequester,
      at,
      'Too many wrong sign-in codes from this client.',
    );
    const candidates = await this.accounts.reserveSignInGuess(email, requester, at.toISOString(), {
      perCode: signInPolicy.maxAttemptsPerCode,
      perRequester: signInPolicy.maxAttemptsPerRequesterPerCode,
    });
    // Every candidate is compared (no early exit), so the time taken does not depend on which one matched.
    let match: string | undefined;
    for (const candidate of candidates) {
      if (safeEqual(candidate.codeHash, hashSecret(`${candidate.codeId}:${code}`))) match ??= candidate.codeId;
    }
    if (match === undefined || !(await this.accounts.consumeSignInCode(match))) {
      throw new DomainError('invalid_code', 'The code is wrong, used or expired. Request a new one.');
    }
    await this.accounts.returnSignInAllowance(failures.key, failures.windowStart);
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

  /** Takes one unit of a per-requester window, or refuses the requester with 429. */
  private async takeRequesterAllowance(key: string, limit: number, at: Date, message: string): Promise<{ key: string; windowStart: string }> {
    const window = signInPolicy.requesterWindowMs;
    const startMs = Math.floor(at.getTime() / window) * window;
    const windowStart = new Date(startMs).toISOString();
    if (!(await this.accounts.takeSignInAllowance(key, windowStart, limit))) {
      throw new DomainError('too_many_attempts', `${message} Try again later.`, { retryAfterMs: Math.max(1000, startMs + window - at.getTime()) });
    }
    return { key, windowStart };
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
