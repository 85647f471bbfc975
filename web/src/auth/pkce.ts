/**
 * The pure parts of social sign-in (./social.ts): the PKCE verifier and its
 * S256 challenge (RFC 7636), the hosted UI's authorize and logout addresses,
 * and reading what the hosted UI sent back. No storage, no navigation, so a
 * unit test can check each against known values.
 */
import type { SocialProvider } from '../config';

/** The message for every social return we cannot use (refused, tampered, stale). */
export const SOCIAL_INCOMPLETE = 'The sign-in with the provider did not complete.';

/** RFC 4648 §5 without padding: the alphabet RFC 7636 asks for. */
export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** `size` random bytes, base64url: 32 bytes make the 43-character verifier RFC 7636 recommends. */
export function randomToken(size = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(size)));
}

/** S256: base64url(SHA-256(ASCII verifier)). */
export async function codeChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/**
 * The hosted UI's origin: config.json's `oauthDomain` is a bare host on AWS
 * (`app.auth.us-east-1.amazoncognito.com`) and a full URL for a local stand-in.
 */
export function hostedUiOrigin(oauthDomain: string): string {
  const trimmed = oauthDomain.trim().replace(/\/+$/, '');
  return /^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
}

export interface AuthorizeRequest {
  oauthDomain: string;
  clientId: string;
  redirectUri: string;
  provider: SocialProvider;
  state: string;
  codeChallenge: string;
}

/** Where the browser goes to sign in with `provider` (Cognito's /oauth2/authorize, code flow with PKCE). */
export function authorizeUrl(request: AuthorizeRequest): string {
  const url = new URL('/oauth2/authorize', hostedUiOrigin(request.oauthDomain));
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    // Straight to the provider, past Cognito's own page (the client offers no password form anyway).
    identity_provider: request.provider,
    scope: 'openid email profile',
    state: request.state,
    code_challenge: request.codeChallenge,
    code_challenge_method: 'S256',
  }).toString();
  return url.toString();
}

/** Cognito's /logout: the hosted domain forgets its own sign-in, then returns the browser to `logoutUri`. */
export function logoutUrl(oauthDomain: string, clientId: string, logoutUri: string): string {
  const url = new URL('/logout', hostedUiOrigin(oauthDomain));
  url.search = new URLSearchParams({ client_id: clientId, logout_uri: logoutUri }).toString();
  return url.toString();
}

/** What the hosted UI put in the callback's query string. */
export interface CallbackParams {
  code: string | null;
  state: string | null;
  error: string | null;
  errorDescription: string | null;
}

export function readCallback(search: string): CallbackParams {
  const params = new URLSearchParams(search);
  return {
    code: params.get('code'),
    state: params.get('state'),
    error: params.get('error'),
    errorDescription: params.get('error_description'),
  };
}

/** What we stored before leaving for the hosted UI, to check and finish its return. */
export interface PendingSocialSignIn {
  verifier: string;
  state: string;
}

/**
 * The code and verifier to send to our API, or an Error with the message to
 * show. A return this tab did not start (no stored sign-in, or another
 * `state`: a forged or replayed link) gets SOCIAL_INCOMPLETE whatever it
 * says, so a crafted link cannot put its own words on our page; only a return
 * we asked for shows the hosted UI's reason (e.g. the pre-sign-up trigger's
 * "no account for this e-mail").
 */
export function checkCallback(
  params: CallbackParams,
  pending: PendingSocialSignIn | null,
): { authorizationCode: string; codeVerifier: string } | Error {
  if (!pending || !params.state || params.state !== pending.state) return new Error(SOCIAL_INCOMPLETE);
  if (params.error) return new Error(providerReason(params.errorDescription) || SOCIAL_INCOMPLETE);
  if (!params.code) return new Error(SOCIAL_INCOMPLETE);
  return { authorizationCode: params.code, codeVerifier: pending.verifier };
}

/** Cognito wraps a trigger's refusal ("PreSignUp failed with error <ours>."): keep ours. */
function providerReason(description: string | null): string {
  return (description ?? '')
    .replace(/^\s*\w+ failed with error\s+/i, '')
    .replace(/\.{2,}$/, '.')
    .trim()
    .slice(0, 300);
}
