/** POST /auth/inviteManager - public, rate limited. E-mails a fixed invitation to create a team. */
import { httpHandler } from '../platform/http';
import { inviteManager } from '../services/accounts';

export const handler = httpHandler('inviteManager', async ({ input, now }) => {
  await inviteManager(input, now);
  return { ok: true as const };
});
