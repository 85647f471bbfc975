/** POST /auth/stepUp - signed in. A fresh factor (code or password) for this access token, for money-moving actions. */
import { httpHandler } from '../platform/http';
import { stepUp } from '../services/accounts';

export const handler = httpHandler('stepUp', async ({ actor, input, clientIp, now }) => {
  await stepUp(actor, input, clientIp, now);
  return { ok: true as const };
});
