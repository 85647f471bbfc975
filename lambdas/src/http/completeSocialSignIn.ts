/**
 * POST /auth/social - public. Social sign-in's return: the hosted UI's code and
 * the browser's PKCE verifier become one of our sessions (the refresh token in
 * the HttpOnly session cookie, never in the body). With an authenticator app
 * the answer is MFA_REQUIRED and a short-lived HttpOnly cookie names the
 * waiting sign-in; the same route then takes `{ code }`. A provider's sign-in
 * that may not join the account with its e-mail on the address alone answers
 * PASSWORD_REQUIRED the same way; the route then takes `{ password }` (the
 * account's), once.
 */
import { AppError } from '@shared/errors';
import { PENDING_SOCIAL_SIGN_IN_SECONDS } from '../data/pendingSocialSignIns';
import { httpHandler } from '../platform/http';
import {
  clearedPendingSocialCookie,
  pendingSocialCookie,
  readPendingSocialCookie,
  sessionCookie,
} from '../platform/sessionCookie';
import {
  CODE_REQUIRED,
  finishSocialSession,
  joinSocialSignIn,
  type SocialSignInOutcome,
  startSocialSession,
} from '../services/accounts';

export const handler = httpHandler(
  'completeSocialSignIn',
  async ({ input, cookies, setCookie, clientIp, now, log }) => {
    let outcome: SocialSignInOutcome;
    if ('code' in input) {
      const session = await finishSocialSession(
        readPendingSocialCookie(cookies),
        input.code,
        clientIp,
        now,
        log,
      );
      outcome = { kind: 'session', session };
    } else if ('password' in input) {
      outcome = await joinSocialSignIn(readPendingSocialCookie(cookies), input.password, clientIp, now, log);
    } else {
      outcome = await startSocialSession(input, now, log);
    }
    if (outcome.kind === 'codeRequired') {
      setCookie(pendingSocialCookie(outcome.challenge, PENDING_SOCIAL_SIGN_IN_SECONDS));
      throw new AppError('MFA_REQUIRED', CODE_REQUIRED);
    }
    if (outcome.kind === 'passwordRequired') {
      setCookie(pendingSocialCookie(outcome.challenge, PENDING_SOCIAL_SIGN_IN_SECONDS));
      throw new AppError('PASSWORD_REQUIRED', outcome.message);
    }
    const { userId, refreshToken, ...answer } = outcome.session;
    setCookie(clearedPendingSocialCookie());
    setCookie(sessionCookie({ userId, refreshToken }));
    return answer;
  },
);
