/**
 * POST /auth/social - public. Social sign-in's return: the hosted UI's code and
 * the browser's PKCE verifier become one of our sessions (the refresh token in
 * the HttpOnly session cookie, never in the body). With an authenticator app
 * the answer is MFA_REQUIRED and a short-lived HttpOnly cookie names the
 * waiting sign-in; the same route then takes `{ code }`.
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
import { CODE_REQUIRED, finishSocialSession, startSocialSession } from '../services/accounts';

export const handler = httpHandler(
  'completeSocialSignIn',
  async ({ input, cookies, setCookie, clientIp, now, log }) => {
    let session: Awaited<ReturnType<typeof finishSocialSession>>;
    if ('code' in input) {
      session = await finishSocialSession(readPendingSocialCookie(cookies), input.code, clientIp, now, log);
    } else {
      const outcome = await startSocialSession(input, now, log);
      if (outcome.kind === 'codeRequired') {
        setCookie(pendingSocialCookie(outcome.challenge, PENDING_SOCIAL_SIGN_IN_SECONDS));
        throw new AppError('MFA_REQUIRED', CODE_REQUIRED);
      }
      session = outcome.session;
    }
    const { userId, refreshToken, ...answer } = session;
    setCookie(clearedPendingSocialCookie());
    setCookie(sessionCookie({ userId, refreshToken }));
    return answer;
  },
);
