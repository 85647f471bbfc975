/**
 * Google and Facebook sign-in through Cognito's hosted UI (decisions.md
 * "Social sign-in"), without a token store in the browser:
 *
 * 1. startSocialSignIn makes a PKCE verifier and a `state`, keeps them in
 *    sessionStorage (this tab only, gone when it closes) and leaves for the
 *    hosted UI's /oauth2/authorize, which goes straight to the provider.
 * 2. Back on /auth/callback, takeSocialReturn checks `state` and hands the
 *    code and verifier to session.ts, which sends them to POST /auth/social:
 *    our API exchanges them, sets the session cookie and answers with the
 *    access token, as a password sign-in does. No script ever sees a refresh token.
 * 3. After our own sign-out, leaveHostedSignIn visits the hosted UI's /logout
 *    so its domain forgets the sign-in too, and comes back to /login.
 *
 * The pure parts (PKCE, addresses, checks) are in ./pkce.ts.
 */
import { type AppConfig, loadConfig, type SocialProvider, socialSignInProviders } from '../config';
import {
  authorizeUrl,
  checkCallback,
  codeChallenge,
  logoutUrl,
  type PendingSocialSignIn,
  randomToken,
  readCallback,
} from './pkce';

/** sessionStorage key of the sign-in this tab started: `{"verifier":..,"state":..}`. */
export const SOCIAL_PENDING_KEY = 'lb.social';

function sessionStore(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}

/** The hosted UI's settings; throws unless this deployment offers social sign-in (and `provider`, if given). */
function hostedUi(
  config: AppConfig,
  provider?: SocialProvider,
): { oauthDomain: string; oauthRedirect: string } {
  const offered = socialSignInProviders(config);
  if (
    offered.length === 0 ||
    (provider && !offered.includes(provider)) ||
    !config.oauthDomain ||
    !config.oauthRedirect
  ) {
    throw new Error('Social sign-in is not configured.');
  }
  return { oauthDomain: config.oauthDomain, oauthRedirect: config.oauthRedirect };
}

export async function startSocialSignIn(provider: SocialProvider): Promise<void> {
  const config = await loadConfig();
  const { oauthDomain, oauthRedirect } = hostedUi(config, provider);
  const pending: PendingSocialSignIn = { verifier: randomToken(32), state: randomToken(16) };
  const storage = sessionStore();
  try {
    if (!storage) throw new Error('no sessionStorage');
    storage.setItem(SOCIAL_PENDING_KEY, JSON.stringify(pending));
  } catch {
    // Without it the return cannot be checked or finished: say so now, not after the provider.
    throw new Error('Your browser blocks the storage sign-in needs. Please allow it, or sign in with email.');
  }
  window.location.assign(
    authorizeUrl({
      oauthDomain,
      clientId: config.userPoolClientId,
      redirectUri: oauthRedirect,
      provider,
      state: pending.state,
      codeChallenge: await codeChallenge(pending.verifier),
    }),
  );
}

function takePending(): PendingSocialSignIn | null {
  const storage = sessionStore();
  try {
    const raw = storage?.getItem(SOCIAL_PENDING_KEY);
    // Once only: a second visit to the same return (back button, reload) starts nothing.
    storage?.removeItem(SOCIAL_PENDING_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<PendingSocialSignIn> | null;
    return typeof value?.verifier === 'string' && typeof value.state === 'string'
      ? { verifier: value.verifier, state: value.state }
      : null;
  } catch {
    return null;
  }
}

/**
 * On /auth/callback: the code and verifier for POST /auth/social, or throws an
 * Error with the message for 'Login Failed!'. Takes the code out of the address
 * bar (and so out of history and of any later Referer) whatever happens.
 */
export function takeSocialReturn(): { authorizationCode: string; codeVerifier: string } {
  const params = readCallback(window.location.search);
  const pending = takePending();
  try {
    // Keep react-router's own history state; only the address changes.
    window.history.replaceState(window.history.state, '', window.location.pathname);
  } catch {
    // No history API: nothing to clean.
  }
  const checked = checkCallback(params, pending);
  if (checked instanceof Error) throw checked;
  return checked;
}

/** Sends the browser through the hosted UI's /logout, which returns it to `exitTo` (a registered logout URL). */
export async function leaveHostedSignIn(exitTo: '/' | '/login'): Promise<void> {
  const config = await loadConfig();
  const { oauthDomain } = hostedUi(config);
  window.location.assign(
    logoutUrl(oauthDomain, config.userPoolClientId, `${window.location.origin}${exitTo}`),
  );
}
