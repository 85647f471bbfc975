/**
 * POST /auth/signOut - public: the refresh token itself is the proof (the access
 * token may already have expired). Ends every session of the account.
 */
import { httpHandler } from '../platform/http';
import { signOut } from '../services/accounts';

export const handler = httpHandler('signOut', async ({ input, now }) => {
  await signOut(input.email, input.refreshToken, now);
  return { ok: true as const };
});
