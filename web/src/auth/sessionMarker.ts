/**
 * Whether a session may exist, and of which kind: `localStorage['lb.auth']` =
 * `{"kind":"password"}` or `{"kind":"social"}`. Nothing secret: the refresh
 * token, of either kind, is in an HttpOnly cookie no script can read (set by
 * our API, docs/security.md "Sessions"), and the access token lives in memory
 * only (session.ts). The marker spares a visitor who never signed in a refresh
 * request on every load, tells a social session (whose sign-out also visits the
 * hosted UI's /logout) from a password one, and lets other tabs follow a
 * sign-out (its 'storage' event).
 *
 * No imports here on purpose: the guard in the main chunk reads this to know
 * whether a session may exist, without loading the API client.
 */

export const SESSION_MARKER_KEY = 'lb.auth';

/** How the session was made: e-mail and password, or a social provider (both end in our cookie). */
export type SessionKind = 'password' | 'social';

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * The stored kind, or null. An older build's value (which held the e-mail and
 * refresh token) still reads as `password`: the restore then fails without the
 * cookie, and signing out there removes the old value with its token.
 */
export function readSessionKind(): SessionKind | null {
  try {
    const raw = storage()?.getItem(SESSION_MARKER_KEY);
    if (!raw) return null;
    const kind = (JSON.parse(raw) as { kind?: unknown } | null)?.kind;
    return kind === 'password' || kind === 'social' ? kind : null;
  } catch {
    return null;
  }
}

export function writeSessionKind(kind: SessionKind): void {
  try {
    storage()?.setItem(SESSION_MARKER_KEY, JSON.stringify({ kind }));
  } catch {
    // Storage blocked or full: a reload then does not try to restore the session.
  }
}

export function clearSessionKind(): void {
  try {
    storage()?.removeItem(SESSION_MARKER_KEY);
  } catch {
    // As above.
  }
}
