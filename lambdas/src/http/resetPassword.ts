/** POST /auth/resetPassword - public (the link is the proof), rate limited. Ends every other session. */
import { httpHandler } from '../platform/http';
import { resetPassword } from '../services/accounts';

export const handler = httpHandler('resetPassword', async ({ input, now }) => {
  await resetPassword(input, now);
  return { ok: true as const };
});
