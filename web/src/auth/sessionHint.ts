/**
 * The signed-in hint: how a pre-rendered public page (which ships no React and
 * no API client) knows whether to offer 'Go to Dashboard' / 'Go Shopping' instead
 * of Sign Up / Sign In (spec §2).
 *
 * Contract: on sign-in the app calls writeSessionHint(role); on sign-out (and
 * whenever the session is found gone) it calls clearSessionHint(). The value is
 * `localStorage['lb.session'] = '{"role":"manager"}'` or `'{"role":"employee"}'`.
 *
 * It is only a hint for which button to show: it grants nothing (the server
 * checks every call) and a stale one costs a click that lands on /login.
 * Keep this file free of imports: the static pages' script bundles it.
 */

export const SESSION_HINT_KEY = 'lb.session';

export type SessionRole = 'manager' | 'employee';

export interface SessionHint {
  role: SessionRole;
}

export interface SignedInAction {
  label: string;
  href: string;
}

/** What the header offers a signed-in visitor, by role (spec §2). */
export const signedInActions: Readonly<Record<SessionRole, SignedInAction>> = {
  manager: { label: 'Go to Dashboard', href: '/dashboard' },
  employee: { label: 'Go Shopping', href: '/shop' },
};

/** Reads a stored value; anything that is not exactly the contract's shape counts as signed out. */
export function parseSessionHint(raw: string | null | undefined): SessionHint | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const role = (value as { role?: unknown }).role;
  return role === 'manager' || role === 'employee' ? { role } : null;
}

type HintStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The browser's localStorage, or undefined where it is blocked (some privacy modes throw on access). */
function defaultStorage(): HintStorage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

export function readSessionHint(storage: HintStorage | undefined = defaultStorage()): SessionHint | null {
  try {
    return parseSessionHint(storage?.getItem(SESSION_HINT_KEY));
  } catch {
    return null;
  }
}

export function writeSessionHint(
  role: SessionRole,
  storage: HintStorage | undefined = defaultStorage(),
): void {
  try {
    storage?.setItem(SESSION_HINT_KEY, JSON.stringify({ role } satisfies SessionHint));
  } catch {
    // Storage full or blocked: the header then shows Sign In, which still works.
  }
}

export function clearSessionHint(storage: HintStorage | undefined = defaultStorage()): void {
  try {
    storage?.removeItem(SESSION_HINT_KEY);
  } catch {
    // As above.
  }
}
