/** POST /auth/refresh - public, rate limited. New access token for a session we still hold. */
import { httpHandler } from '../platform/http';
import { refreshSession } from '../services/accounts';

export const handler = httpHandler('refreshSession', ({ input, now }) =>
  refreshSession(input.email, input.refreshToken, now),
);
