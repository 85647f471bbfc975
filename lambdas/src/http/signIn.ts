/**
 * POST /auth/signIn - public. The only door to a password sign-in: growing delays
 * after failures (per address and per source), the second factor when enrolled.
 * The refresh token goes into the HttpOnly session cookie, never into the body.
 */
import { httpHandler } from '../platform/http';
import { sessionCookie } from '../platform/sessionCookie';
import { signIn } from '../services/accounts';

export const handler = httpHandler('signIn', async ({ input, clientIp, now, log, setCookie }) => {
  const { userId, refreshToken, ...answer } = await signIn(input, clientIp, now, log);
  setCookie(sessionCookie({ userId, refreshToken }));
  return answer;
});
