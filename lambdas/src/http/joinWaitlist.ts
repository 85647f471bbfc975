/** POST /waitlist - public, rate limited per client. Stores (or refreshes) one lead per e-mail. */
import { httpHandler } from '../platform/http';
import { joinWaitlist } from '../services/site';

export const handler = httpHandler('joinWaitlist', async ({ input, now }) => {
  await joinWaitlist(input, now);
  return { ok: true as const };
});
