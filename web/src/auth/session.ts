/**
 * The session's work (see ./sessionStore.ts for the state the app reads).
 *
 * - Sign-in: POST /auth/signIn (our API calls Cognito, rate limits, records
 *   the session and lastLogin), then GET /me. Social sign-in ends the same
 *   way through POST /auth/social, after the hosted UI's redirect (./social.ts).
 * - The access token stays in memory only. The refresh token is in an HttpOnly
 *   cookie our API sets (Path=/api/auth; no script reads it), so a reload
 *   stays signed in by calling POST /auth/refresh, whose answer carries GET
 *   /me's too (one round trip, not two); localStorage holds only
 *   which kind of session may exist (./sessionMarker.ts).
 * - The token is renewed with POST /auth/refresh shortly before `expiresIn`
 *   runs out, and once more when a call answers 401; when that fails the
 *   session is over and we sign out.
 * - The public pages' hint (./sessionHint.ts) is written on sign-in and
 *   cleared on sign-out.
 */
import type { MeOutput, Role } from '@shared/schemas/me';
import { ApiError, call, errorMessage, setTokenGetter, setUnauthorizedHandler } from '../api/client';
import type { SocialProvider } from '../config';
import { carryNotice } from '../stores/carriedNotice';
import { type NotificationInput, notify } from '../stores/notifications';
import { clearSessionHint, readSessionHint, SESSION_HINT_KEY, writeSessionHint } from './sessionHint';
import {
  clearSessionKind,
  readSessionKind,
  SESSION_MARKER_KEY,
  type SessionKind,
  writeSessionKind,
} from './sessionMarker';
import { type SessionState, useSession } from './sessionStore';

/** Renew this long before the access token expires. */
const REFRESH_MARGIN_MS = 60_000;
/** Never schedule a renewal sooner than this (very short-lived tokens, clock skew). */
const MIN_REFRESH_DELAY_MS = 5_000;

interface Tokens {
  accessToken: string;
  /** Seconds. */
  expiresIn: number;
}

let accessToken: string | undefined;
let expiresAt = 0;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
let refreshing: Promise<boolean> | undefined;
let restoring: Promise<void> | undefined;
/** GET /me's answer that came with the last renewal (POST /auth/refresh answers both), until taken. */
let renewedMe: MeOutput | undefined;
/** Why the last renewal failed when it was not the session ending (offline, rate limited). */
let lastRefreshError: unknown;
/** Bumped on every sign-in and sign-out, so late answers of an older session are ignored. */
let generation = 0;

function setState(partial: Partial<Pick<SessionState, 'status' | 'me' | 'exitTo' | 'signedOutBecause'>>) {
  useSession.setState(partial);
}

/**
 * Writes or clears the public pages' hint. The public header listens for
 * 'storage' events, which browsers send only to other tabs, so this tab gets
 * one too when the hint changes (the header then swaps Sign In for 'Go to
 * Dashboard' at once).
 */
function setHint(role: Role | null) {
  if ((readSessionHint()?.role ?? null) === role) return;
  if (role) writeSessionHint(role);
  else clearSessionHint();
  try {
    window.dispatchEvent(new StorageEvent('storage', { key: SESSION_HINT_KEY }));
  } catch {
    // No window (tests) or no StorageEvent: nothing listens then.
  }
}

function schedule(tokens: Tokens) {
  accessToken = tokens.accessToken;
  expiresAt = Date.now() + tokens.expiresIn * 1000;
  if (refreshTimer !== undefined) clearTimeout(refreshTimer);
  const delay = Math.max(MIN_REFRESH_DELAY_MS, tokens.expiresIn * 1000 - REFRESH_MARGIN_MS);
  refreshTimer = setTimeout(() => {
    void refresh();
  }, delay);
}

function forget(because: 'ended' | 'left') {
  generation += 1;
  accessToken = undefined;
  expiresAt = 0;
  if (refreshTimer !== undefined) clearTimeout(refreshTimer);
  refreshTimer = undefined;
  refreshing = undefined;
  clearSessionKind();
  setHint(null);
  setState({ status: 'signedOut', me: null, signedOutBecause: because });
}

async function loadMe(): Promise<MeOutput> {
  return adoptMe(await call('getMe', {}));
}

function adoptMe(me: MeOutput): MeOutput {
  setHint(me.role);
  // A new session: a later sign-out ends on / again unless it says otherwise.
  setState({ status: 'signedIn', me, exitTo: '/', signedOutBecause: undefined });
  return me;
}

/** True when the answer says the session itself is gone (not a network hiccup). */
function sessionEnded(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 401 || error.status === 400 || error.status === 404);
}

async function renew(): Promise<boolean> {
  if (!readSessionKind()) return false;
  const mine = generation;
  // The session cookie goes with it (same origin), for password and social sessions alike.
  const answer = await call('refreshSession', {});
  if (mine !== generation) return false;
  schedule(answer);
  renewedMe = answer.me;
  return true;
}

/**
 * A new access token. Concurrent callers share one request. When the server
 * says the session has ended, signs out and resolves false.
 */
export function refresh(): Promise<boolean> {
  refreshing ??= renew()
    .catch((error: unknown) => {
      if (sessionEnded(error)) {
        forget('ended');
        return false;
      }
      // Offline, rate limited or a server hiccup: keep the session; the next call tries again.
      lastRefreshError = error;
      return false;
    })
    .then((ok) => {
      if (!ok && !readSessionKind()) forget('ended');
      return ok;
    })
    .finally(() => {
      refreshing = undefined;
    });
  return refreshing;
}

setTokenGetter(async () => {
  if (!accessToken && restoring) await restoring;
  if (accessToken && Date.now() > expiresAt - MIN_REFRESH_DELAY_MS) await refresh();
  return accessToken;
});

setUnauthorizedHandler(async () => {
  if (!readSessionKind()) return false;
  return refresh();
});

// Signed out in another tab: follow suit here.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (
      event.key === SESSION_MARKER_KEY &&
      event.newValue === null &&
      useSession.getState().status !== 'signedOut'
    ) {
      // The person left, in the other tab: nothing to explain here.
      forget('left');
    }
  });
}

/** Takes over a session just started (sign-in or social redirect) and loads `me`. */
export async function adoptSession(tokens: Tokens, kind: SessionKind): Promise<MeOutput> {
  generation += 1;
  writeSessionKind(kind);
  schedule(tokens);
  try {
    return await loadMe();
  } catch (error) {
    // The sign-in form says what went wrong.
    forget('left');
    throw error;
  }
}

/** With `code` for an account with an authenticator app (the server answers MFA_REQUIRED without it). */
export async function signIn(email: string, password: string, code?: string): Promise<MeOutput> {
  // The answer sets the session cookie; its body holds the access token only.
  const answer = await call('signIn', { email, password, ...(code ? { code } : {}) });
  return adoptSession(answer, 'password');
}

/**
 * Ends the session here and on the server, then shows `farewell`. A social
 * session also passes through the hosted UI's /logout, which brings the
 * browser back to `exitTo` as a new page: the farewell is carried over to it.
 */
export async function signOut(exitTo: '/' | '/login' = '/', farewell?: NotificationInput): Promise<void> {
  const kind = readSessionKind();
  forget('left');
  // End the session on the server too (every session of the account) and clear the
  // cookie. Also without a marker: storage may have been blocked while the cookie was set.
  await call('signOut', {}).catch(() => undefined);
  if (kind === 'social') {
    // The hosted UI's domain remembers the provider sign-in on its own; its /logout
    // forgets it (else the next "Sign in with Google" skips the account choice).
    const left = await import('./social')
      .then((social) => social.leaveHostedSignIn(exitTo))
      .then(
        () => true,
        () => false,
      );
    if (left) {
      if (farewell) carryNotice(farewell);
      return;
    }
  }
  if (farewell) notify(farewell);
}

export async function reloadMe(): Promise<MeOutput | null> {
  if (useSession.getState().status !== 'signedIn') return null;
  const mine = generation;
  const me = await call('getMe', {});
  if (mine !== generation) return null;
  setState({ me });
  return me;
}

async function restoreOnce(): Promise<void> {
  const state = useSession.getState();
  if (state.status === 'signedIn') return;
  if (!readSessionKind()) {
    setHint(null);
    setState({ status: 'signedOut', me: null });
    return;
  }
  setState({ status: 'loading' });
  const mine = generation;
  lastRefreshError = undefined;
  renewedMe = undefined;
  try {
    if (!(await refresh())) {
      if (mine !== generation) return;
      setState({ status: 'signedOut', me: null });
      // The session may still be fine (we could not reach the server): say why we are signed out here.
      if (readSessionKind()) couldNotRestore(lastRefreshError);
      return;
    }
    if (mine !== generation) return;
    // The renewal's answer carries /me's: a reload waits for one round trip, not two.
    const me = renewedMe;
    renewedMe = undefined;
    if (me) adoptMe(me);
    else await loadMe();
  } catch (error) {
    if (mine !== generation) return;
    if (sessionEnded(error)) forget('ended');
    else {
      setState({ status: 'signedOut', me: null });
      couldNotRestore(error);
    }
  }
}

function couldNotRestore(error: unknown) {
  notify({ kind: 'error', title: 'Could not restore your session', message: errorMessage(error) });
}

/** Restores the stored session once; later calls share the first. */
export function restore(): Promise<void> {
  if (useSession.getState().status === 'signedIn') return Promise.resolve();
  restoring ??= restoreOnce().finally(() => {
    restoring = undefined;
  });
  return restoring;
}

export async function signInWithProvider(provider: SocialProvider): Promise<void> {
  const social = await import('./social');
  await social.startSocialSignIn(provider);
}

/**
 * On /auth/callback: sends the hosted UI's code and this tab's PKCE verifier to
 * POST /auth/social, which exchanges them and sets the session cookie. Throws
 * an Error (the return was not ours or the provider refused) or the API's
 * ApiError; MFA_REQUIRED means completeSocialSecondFactor comes next.
 */
export async function completeSocialSignIn(): Promise<MeOutput> {
  const social = await import('./social');
  const answer = await call('completeSocialSignIn', social.takeSocialReturn());
  return adoptSession(answer, 'social');
}

/**
 * The authenticator or recovery code after MFA_REQUIRED: the pending sign-in
 * rides in an HttpOnly cookie the first answer set. A wrong code is an ApiError
 * with `fields.code` (the pending sign-in stays); one without fields means it
 * is gone (expired) and the person must start again.
 */
export async function completeSocialSecondFactor(code: string): Promise<MeOutput> {
  const answer = await call('completeSocialSignIn', { code });
  return adoptSession(answer, 'social');
}

/**
 * The account's password after PASSWORD_REQUIRED (a provider's sign-in not
 * yet joined to the account with its address): the pending sign-in rides in
 * the HttpOnly cookie. A wrong password is an ApiError with `fields.password`;
 * MFA_REQUIRED means completeSocialSecondFactor comes next; an error without
 * fields means the pending sign-in is gone.
 */
export async function completeSocialPassword(password: string): Promise<MeOutput> {
  const answer = await call('completeSocialSignIn', { password });
  return adoptSession(answer, 'social');
}
