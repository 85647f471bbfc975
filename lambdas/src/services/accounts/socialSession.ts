/**
 * Social sign-in's return to our API (POST /auth/social). The browser came
 * back from Google or Facebook through Cognito's hosted UI with a code; we
 * exchange it (with the browser's PKCE verifier) for the web client's tokens
 * and start one of our sessions, exactly like a password sign-in: the refresh
 * token goes into the HttpOnly cookie, the sign-in is recorded, and an account
 * with an authenticator app must give its code first (the provider's password
 * is not our second factor).
 *
 * A provider's sign-in that the pre-sign-up trigger would not link to the
 * account with its e-mail (socialSignIn.ts: the account's address or the
 * provider's is not verified) comes back as a pool user of its own. It opens
 * nothing: the person is asked for that account's password once, and only
 * then (and after the code, with an authenticator app) is the provider's
 * sign-in joined to the account, so the next one goes straight in.
 */
import { randomBytes } from 'node:crypto';
import { AppError } from '@shared/errors';
import { normalizeEmail } from '@shared/schemas/fields';
import {
  type FederatedLogin,
  federatedLogin,
  InvalidCredentials,
  joinFederatedLogin,
  passwordSignIn,
  revokeRefreshToken,
  revokeWebClientToken,
} from '../../adapters/cognito';
import { CodeRefused, exchangeAuthorizationCode } from '../../adapters/hostedUi';
import { getEmailOwner, setUserFields } from '../../data/accounts';
import {
  claimPendingSocialSignIn,
  putPendingSocialSignIn,
  releasePendingSocialSignIn,
  waitingSocialSignIn,
} from '../../data/pendingSocialSignIns';
import { getUser, type UserRecord } from '../../data/users';
import { type AccessTokenClaims, unverifiedClaims, verifyBearer } from '../../platform/auth';
import { socialSignInConfig, socialSignInEnabled } from '../../platform/config';
import type { Logger } from '../../platform/log';
import { startSession } from './accounts';
import { BAD_CODE, BAD_PASSWORD } from './factorMessages';
import { hasSecondFactor, verifySecondFactor } from './secondFactor';
import { reserveTry } from './signInThrottle';

export const SOCIAL_SIGN_IN_FAILED = 'The sign-in with the provider did not complete.';
export const SOCIAL_SIGN_IN_OFF = 'Sign-in with Google or Facebook is not available here.';
export const SOCIAL_SIGN_IN_EXPIRED = 'Your sign-in has expired. Please sign in again.';

/** The provider's sign-in found an account it is not joined to yet: its password, once. */
export function socialPasswordRequired(provider: string): string {
  const name = provider === 'Google' || provider === 'Facebook' ? provider : 'your provider';
  return `An account with this email already exists. Enter its password once, and from now on you can sign in with ${name}.`;
}

type Session = Awaited<ReturnType<typeof startSession>>;

export type SocialSignInOutcome =
  | { kind: 'session'; session: Session }
  /** The account has an authenticator app: the tokens wait under `challenge` for its code. */
  | { kind: 'codeRequired'; challenge: string }
  /** The provider's sign-in waits under `challenge` to be joined by the account's password. */
  | { kind: 'passwordRequired'; challenge: string; message: string };

const newChallenge = () => randomBytes(32).toString('base64url');

/**
 * A provider's sign-in the pre-sign-up trigger kept apart: the pool user
 * behind the token is a federated one, and its address is an account's.
 */
async function heldProviderSignIn(
  claims: AccessTokenClaims,
): Promise<{ account: UserRecord; login: FederatedLogin } | undefined> {
  if (typeof claims.username !== 'string' || claims.username === '') return undefined;
  const login = await federatedLogin(claims.username);
  if (!login?.email) return undefined;
  const owner = await getEmailOwner(normalizeEmail(login.email));
  const account = owner ? await getUser(owner) : undefined;
  if (!account || account.status === 'deleted') return undefined;
  return { account, login };
}

/** Trades the hosted UI's code for tokens and starts the session, or parks it for the second factor. */
export async function startSocialSession(
  input: { authorizationCode: string; codeVerifier: string },
  now: Date,
  log: Logger,
): Promise<SocialSignInOutcome> {
  if (!socialSignInEnabled()) throw new AppError('NOT_FOUND', SOCIAL_SIGN_IN_OFF);
  const refused = new AppError('UNAUTHENTICATED', SOCIAL_SIGN_IN_FAILED);
  let tokens: Awaited<ReturnType<typeof exchangeAuthorizationCode>>;
  try {
    tokens = await exchangeAuthorizationCode(input.authorizationCode, input.codeVerifier);
  } catch (error) {
    if (error instanceof CodeRefused) {
      if (error.ours)
        log.error('the hosted UI refuses our code exchange: check the app client', { reason: error.reason });
      else log.info('social sign-in refused', { reason: 'code' });
      throw refused;
    }
    throw error;
  }
  // The answer came straight from the hosted UI, but it is checked like any bearer token all the
  // same (our pool, signature, expiry, an access token), and it must be the web client's.
  const claims = await verifyBearer(`Bearer ${tokens.accessToken}`);
  const webClient = claims.client_id === socialSignInConfig().COGNITO_WEB_CLIENT_ID;
  const user = webClient ? await getUser(claims.sub) : undefined;
  const held = webClient && !user ? await heldProviderSignIn(claims) : undefined;
  if (held) {
    // The provider user's tokens open nothing of ours and are never handed out.
    await revokeWebClientToken(tokens.refreshToken);
    const challenge = newChallenge();
    await putPendingSocialSignIn(
      challenge,
      { userId: held.account.userId, step: 'password', issuedTo: 'server', join: held.login },
      now,
    );
    log.info('social sign-in waits for the account password', { provider: held.login.provider });
    return { kind: 'passwordRequired', challenge, message: socialPasswordRequired(held.login.provider) };
  }
  if (!user || user.status === 'deleted') {
    log.info('social sign-in refused', { reason: user ? 'deleted' : 'unknown' });
    await revokeWebClientToken(tokens.refreshToken);
    throw refused;
  }
  if (await hasSecondFactor(user.userId)) {
    const challenge = newChallenge();
    await putPendingSocialSignIn(
      challenge,
      { userId: user.userId, step: 'code', tokens, issuedTo: 'web' },
      now,
    );
    return { kind: 'codeRequired', challenge };
  }
  await setUserFields(user.userId, { lastLogin: now.toISOString() });
  return { kind: 'session', session: await startSession(user, tokens, now, 'web') };
}

/**
 * The second step for an account with an authenticator app: the code (or a
 * recovery code) finishes the sign-in waiting under `challenge`. Wrong codes
 * count towards the sign-in throttle, as at the password door. A sign-in that
 * came through the password step joins the provider's sign-in now.
 */
export async function finishSocialSession(
  challenge: string | undefined,
  code: string,
  sourceIp: string,
  now: Date,
  log: Logger,
): Promise<Session> {
  const expired = new AppError('UNAUTHENTICATED', SOCIAL_SIGN_IN_EXPIRED);
  const waiting = challenge ? await waitingSocialSignIn(challenge, now) : undefined;
  const user = waiting?.step === 'code' ? await getUser(waiting.userId) : undefined;
  if (!challenge || !user || user.status === 'deleted') throw expired;
  const attempt = await reserveTry(user.email, sourceIp, now);
  // Claimed before the code is checked: of two codes sent at once only one is checked (and
  // spent); the other finds nothing waiting. A wrong code puts the sign-in back to wait.
  const pending = await claimPendingSocialSignIn(challenge, now);
  const tokens = pending?.step === 'code' ? pending.tokens : undefined;
  if (!pending || !tokens) {
    await attempt.release();
    throw expired;
  }
  let proved: boolean;
  try {
    proved = await verifySecondFactor(user.userId, code);
  } catch (error) {
    await releasePendingSocialSignIn(challenge, pending, now);
    throw error;
  }
  if (!proved) {
    await releasePendingSocialSignIn(challenge, pending, now);
    log.info('social sign-in refused', { reason: 'second factor' });
    throw new AppError('UNAUTHENTICATED', BAD_CODE, { fields: { code: BAD_CODE } });
  }
  // Every session was ended (sign-out, password reset) while this one waited: it ended with them.
  const issuedAt = Number(unverifiedClaims(tokens.accessToken).iat ?? 0);
  if (issuedAt < (user.sessionsValidAfter ?? 0)) {
    await revokeRefreshToken(tokens.refreshToken, pending.issuedTo);
    await attempt.release();
    throw expired;
  }
  if (pending.join) await joinProviderSignIn(user, pending.join, log);
  await attempt.succeeded();
  await setUserFields(user.userId, { lastLogin: now.toISOString() });
  return startSession(user, tokens, now, pending.issuedTo);
}

async function joinProviderSignIn(user: UserRecord, join: FederatedLogin, log: Logger) {
  await joinFederatedLogin(user.email, join);
  log.info('social identity joined to the account by its password', { provider: join.provider });
}

/**
 * The password step: the provider's sign-in waiting under `challenge` found
 * an account it may not join on the e-mail alone; the account's password
 * proves the person holds it. Then, as at the password door, an account with
 * an authenticator app gives its code (the join waits for it); otherwise the
 * provider's sign-in is joined and the session starts. Wrong passwords count
 * towards the sign-in throttle; each puts the sign-in back to wait.
 */
export async function joinSocialSignIn(
  challenge: string | undefined,
  password: string,
  sourceIp: string,
  now: Date,
  log: Logger,
): Promise<SocialSignInOutcome> {
  const expired = new AppError('UNAUTHENTICATED', SOCIAL_SIGN_IN_EXPIRED);
  const waiting = challenge ? await waitingSocialSignIn(challenge, now) : undefined;
  const user = waiting?.step === 'password' ? await getUser(waiting.userId) : undefined;
  if (!challenge || !user || user.status === 'deleted') throw expired;
  const attempt = await reserveTry(user.email, sourceIp, now);
  // Claimed before the password is checked, as codes are: one try at a time.
  const pending = await claimPendingSocialSignIn(challenge, now);
  const join = pending?.step === 'password' ? pending.join : undefined;
  if (!pending || !join) {
    await attempt.release();
    throw expired;
  }
  let tokens: Awaited<ReturnType<typeof passwordSignIn>>;
  try {
    tokens = await passwordSignIn(user.email, password);
  } catch (error) {
    await releasePendingSocialSignIn(challenge, pending, now);
    if (!(error instanceof InvalidCredentials)) throw error;
    log.info('social sign-in refused', { reason: 'password' });
    throw new AppError('UNAUTHENTICATED', BAD_PASSWORD, { fields: { password: BAD_PASSWORD } });
  }
  if (await hasSecondFactor(user.userId)) {
    // The password was right: asking for the code is no failure. The join waits with the tokens.
    const next = newChallenge();
    await putPendingSocialSignIn(
      next,
      { userId: user.userId, step: 'code', tokens, issuedTo: 'server', join },
      now,
    );
    await attempt.release();
    return { kind: 'codeRequired', challenge: next };
  }
  await joinProviderSignIn(user, join, log);
  await attempt.succeeded();
  await setUserFields(user.userId, { lastLogin: now.toISOString() });
  return { kind: 'session', session: await startSession(user, tokens, now, 'server') };
}
