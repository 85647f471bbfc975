/**
 * The session, as the app sees it: `status`, `me`, and the actions
 * `signIn`, `signOut`, `refresh`, `reloadMe`.
 *
 *   const status = useSession((s) => s.status);
 *   await useSession.getState().signIn(email, password);
 *
 * This file is deliberately tiny (zustand and types only) because the route
 * guard in the main chunk uses it. The work - API calls, tokens, timers - is
 * in ./session.ts, loaded on first use together with the API client.
 *
 * Sign-in goes through our API, never straight to Cognito (docs/decisions.md
 * "Accounts"); social sign-in too, after the hosted UI's redirect (./social.ts).
 */

import type { MeOutput } from '@shared/schemas/me';
import { create } from 'zustand';
import type { SocialProvider } from '../config';
import type { NotificationInput } from '../stores/notifications';
import { readSessionKind } from './sessionMarker';

export type SessionStatus = 'loading' | 'signedOut' | 'signedIn';

export interface SessionState {
  /** 'loading' until a stored session has been restored or found gone. */
  status: SessionStatus;
  /** The signed-in person (GET /me), or null. */
  me: MeOutput | null;
  /**
   * E-mail and password (+ the authenticator or recovery code, once asked for with
   * MFA_REQUIRED) through POST /auth/signIn; then loads `me`. Throws ApiError on failure.
   */
  signIn: (email: string, password: string, code?: string) => Promise<MeOutput>;
  /**
   * Where the route guard sends someone no longer signed in: / (spec §2), or
   * /login after "Logout" (until /login shows, which sets it back to /). The
   * guard, not the caller, must decide: the caller's navigate() is a
   * transition React may still hold back when the signed-out state (urgent)
   * re-renders the old page, whose guard would then leave for /.
   */
  exitTo: '/' | '/login';
  /**
   * Why nobody is signed in, for the route guard's words: the session ended
   * (expired, or ended elsewhere), or the person left ("Logout", deleting the
   * account); undefined when nobody was signed in here.
   */
  signedOutBecause?: 'ended' | 'left';
  /** Forgets the session here (memory, storage, the public pages' hint); `exitTo` as above. */
  /** `farewell` is shown once signed out (after the hosted UI's detour, for a social session). */
  signOut: (exitTo?: '/' | '/login', farewell?: NotificationInput) => Promise<void>;
  /** A new access token now; false (and signed out) when the session has ended. */
  refresh: () => Promise<boolean>;
  /** Loads `me` again (after a profile edit or an e-mail verification). */
  reloadMe: () => Promise<MeOutput | null>;
  /** Leaves for the social provider's sign-in page (through Cognito's hosted UI). */
  signInWithProvider: (provider: SocialProvider) => Promise<void>;
}

const load = () => import('./session');

export const useSession = create<SessionState>()((set) => ({
  // Without the session marker nobody is signed in here: no need to wait.
  status: readSessionKind() ? 'loading' : 'signedOut',
  me: null,
  exitTo: '/',
  signIn: async (email, password, code) => (await load()).signIn(email, password, code),
  signOut: async (exitTo = '/', farewell) => {
    set({ exitTo });
    await (await load()).signOut(exitTo, farewell);
  },
  refresh: async () => (await load()).refresh(),
  reloadMe: async () => (await load()).reloadMe(),
  signInWithProvider: async (provider) => (await load()).signInWithProvider(provider),
}));

/**
 * Restores the session once (the refresh cookie -> access token -> /me).
 * Resolves when `status` is no longer 'loading'. Safe to call often.
 */
export async function ensureSession(): Promise<void> {
  await (await load()).restore();
}
