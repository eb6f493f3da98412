/** The dashboard's shared state: the management client, the session, keys known in this tab. */
import { ApiError, ManagementClient, type Session } from '../../sdk/management.js';

export const state: { session: Session | null | undefined } = { session: undefined };

function cookie(name: string): string | undefined {
  const match = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return match ? decodeURIComponent(match.slice(name.length + 1)) : undefined;
}

export const api = new ManagementClient({ csrfToken: () => state.session?.csrfToken ?? cookie('gw_csrf') });

/**
 * Full secret query keys created or pasted in this browser tab, per knowledge base.
 * Kept in memory only: the server never shows a secret key twice and we do not store it.
 * (Publishable widget keys are listed by the server again: docs/widget-keys.md.)
 */
export const knownKeys = new Map<string, string>();

/**
 * Forgets the known key of a knowledge base if it is the revoked key (matched by its
 * prefix, the only part of a secret key the server lists), so no tab offers a dead key.
 */
export function forgetKnownKey(ragId: string, revoked: { prefix: string }): void {
  if (knownKeys.get(ragId)?.startsWith(revoked.prefix)) knownKeys.delete(ragId);
}

/** Forgets the known key of a knowledge base unless it is one of its live keys (revoked elsewhere). */
export function keepKnownKeyIfLive(ragId: string, live: readonly { prefix: string }[]): void {
  const known = knownKeys.get(ragId);
  if (known && !live.some((k) => known.startsWith(k.prefix))) knownKeys.delete(ragId);
}

/** What the Knowledge tab prefills when it opens next (from the Usage tab): the paste box, or a new synonyms line starting with a visitor's word. */
/** What a tab hands the next one it opens: a record to paste, a synonym to start, a question to ask (a follow-up after its earlier questions). */
export const pending: { paste?: { name: string; text: string }; synonym?: string; ask?: { question: string; askedAfter?: string | undefined } } = {};

export async function loadSession(): Promise<Session | null> {
  try {
    state.session = await api.session();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) state.session = null;
    else throw error;
  }
  return state.session;
}

let devMode: Promise<boolean> | undefined;
/** Whether the development outbox exists (only ever in development). */
export function isDevMode(): Promise<boolean> {
  devMode ??= fetch('/dev/outbox', { method: 'HEAD' }).then(
    (r) => r.ok,
    () => false,
  );
  return devMode;
}

let widget: Promise<boolean> | undefined;
/** Whether this server serves the widget script. */
export function hasWidget(): Promise<boolean> {
  widget ??= fetch('/widget.js', { method: 'HEAD' }).then(
    (r) => r.ok,
    () => false,
  );
  return widget;
}

export { ApiError };
