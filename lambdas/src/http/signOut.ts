/**
 * POST /auth/signOut - public: the refresh token itself is the proof (the access
 * token may already have expired). Ends that one session.
 */
import { httpHandler } from '../platform/http';
import { signOut } from '../services/accounts';

export const handler = httpHandler('signOut', async ({ input }) => {
  await signOut(input.email, input.refreshToken);
  return { ok: true as const };
});
