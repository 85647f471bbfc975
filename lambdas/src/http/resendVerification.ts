/** POST /auth/resendVerification - signed in, 3 per 10 minutes per user. */
import { httpHandler } from '../platform/http';
import { resendVerification } from '../services/accounts';

export const handler = httpHandler('resendVerification', async ({ actor, now }) => {
  await resendVerification(actor.userId, now);
  return { ok: true as const };
});
