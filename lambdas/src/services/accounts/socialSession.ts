/**
 * Social sign-in's return to our API (POST /auth/social). The browser came
 * back from Google or Facebook through Cognito's hosted UI with a code; we
 * exchange it (with the browser's PKCE verifier) for the web client's tokens
 * and start one of our sessions, exactly like a password sign-in: the refresh
 * token goes into the HttpOnly cookie, the sign-in is recorded, and an account
 * with an authenticator app must give its code first (the provider's password
 * is not our second factor).
 */
import { randomBytes } from 'node:crypto';
import { AppError } from '@shared/errors';
import { revokeWebClientToken } from '../../adapters/cognito';
import { CodeRefused, exchangeAuthorizationCode } from '../../adapters/hostedUi';
import { setUserFields } from '../../data/accounts';
import {
  claimPendingSocialSignIn,
  pendingSocialSignInUser,
  putPendingSocialSignIn,
  releasePendingSocialSignIn,
} from '../../data/pendingSocialSignIns';
import { getUser } from '../../data/users';
import { unverifiedClaims, verifyBearer } from '../../platform/auth';
import { socialSignInConfig, socialSignInEnabled } from '../../platform/config';
import type { Logger } from '../../platform/log';
import { startSession } from './accounts';
import { BAD_CODE } from './factorMessages';
import { hasSecondFactor, verifySecondFactor } from './secondFactor';
import { reserveTry } from './signInThrottle';

export const SOCIAL_SIGN_IN_FAILED = 'The sign-in with the provider did not complete.';
export const SOCIAL_SIGN_IN_OFF = 'Sign-in with Google or Facebook is not available here.';
export const SOCIAL_SIGN_IN_EXPIRED = 'Your sign-in has expired. Please sign in again.';

type Session = Awaited<ReturnType<typeof startSession>>;

export type SocialSignInOutcome =
  | { kind: 'session'; session: Session }
  /** The account has an authenticator app: the tokens wait under `challenge` for its code. */
  | { kind: 'codeRequired'; challenge: string };

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
  const user =
    claims.client_id === socialSignInConfig().COGNITO_WEB_CLIENT_ID ? await getUser(claims.sub) : undefined;
  if (!user || user.status === 'deleted') {
    log.info('social sign-in refused', { reason: user ? 'deleted' : 'unknown' });
    await revokeWebClientToken(tokens.refreshToken);
    throw refused;
  }
  if (await hasSecondFactor(user.userId)) {
    const challenge = randomBytes(32).toString('base64url');
    await putPendingSocialSignIn(challenge, { userId: user.userId, ...tokens }, now);
    return { kind: 'codeRequired', challenge };
  }
  await setUserFields(user.userId, { lastLogin: now.toISOString() });
  return { kind: 'session', session: await startSession(user, tokens, now, 'web') };
}

/**
 * The second step for an account with an authenticator app: the code (or a
 * recovery code) finishes the sign-in waiting under `challenge`. Wrong codes
 * count towards the sign-in throttle, as at the password door.
 */
export async function finishSocialSession(
  challenge: string | undefined,
  code: string,
  sourceIp: string,
  now: Date,
  log: Logger,
): Promise<Session> {
  const expired = new AppError('UNAUTHENTICATED', SOCIAL_SIGN_IN_EXPIRED);
  const userId = challenge ? await pendingSocialSignInUser(challenge, now) : undefined;
  const user = userId ? await getUser(userId) : undefined;
  if (!challenge || !user || user.status === 'deleted') throw expired;
  const attempt = await reserveTry(user.email, sourceIp, now);
  // Claimed before the code is checked: of two codes sent at once only one is checked (and
  // spent); the other finds nothing waiting. A wrong code puts the sign-in back to wait.
  const tokens = await claimPendingSocialSignIn(challenge, now);
  if (!tokens) {
    await attempt.release();
    throw expired;
  }
  let proved: boolean;
  try {
    proved = await verifySecondFactor(user.userId, code);
  } catch (error) {
    await releasePendingSocialSignIn(challenge, tokens, now);
    throw error;
  }
  if (!proved) {
    await releasePendingSocialSignIn(challenge, tokens, now);
    log.info('social sign-in refused', { reason: 'second factor' });
    throw new AppError('UNAUTHENTICATED', BAD_CODE, { fields: { code: BAD_CODE } });
  }
  // Every session was ended (sign-out, password reset) while this one waited: it ended with them.
  const issuedAt = Number(unverifiedClaims(tokens.accessToken).iat ?? 0);
  if (issuedAt < (user.sessionsValidAfter ?? 0)) {
    await revokeWebClientToken(tokens.refreshToken);
    await attempt.release();
    throw expired;
  }
  await attempt.succeeded();
  await setUserFields(user.userId, { lastLogin: now.toISOString() });
  return startSession(user, tokens, now, 'web');
}
