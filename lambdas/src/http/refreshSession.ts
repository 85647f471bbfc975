/**
 * POST /auth/refresh - public, rate limited. New access token for the session
 * the session cookie names; a refused one clears the cookie (it is worthless).
 */
import { AppError } from '@shared/errors';
import { httpHandler } from '../platform/http';
import { clearedSessionCookie, readSessionCookie, sessionCookie } from '../platform/sessionCookie';
import { refreshSession } from '../services/accounts';

export const handler = httpHandler('refreshSession', async ({ cookies, setCookie, now }) => {
  const session = readSessionCookie(cookies);
  try {
    const { userId, refreshToken, ...answer } = await refreshSession(session, now);
    // Cognito may rotate the refresh token: the cookie follows it.
    if (refreshToken !== session?.refreshToken) setCookie(sessionCookie({ userId, refreshToken }));
    return answer;
  } catch (error) {
    if (error instanceof AppError && error.code === 'UNAUTHENTICATED') setCookie(clearedSessionCookie());
    throw error;
  }
});
