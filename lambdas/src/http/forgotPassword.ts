/** POST /auth/forgotPassword - public, rate limited. Same answer whether or not the account exists. */
import { httpHandler } from '../platform/http';
import { forgotPassword } from '../services/accounts';

export const handler = httpHandler('forgotPassword', async ({ input, now }) => {
  await forgotPassword(input.email, now);
  return { ok: true as const };
});
