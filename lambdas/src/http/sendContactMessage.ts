/** POST /messages - public, rate limited per client. Stores the message, then e-mails the support inbox. */
import { httpHandler } from '../platform/http';
import { sendContactMessage } from '../services/site';

export const handler = httpHandler('sendContactMessage', async ({ input, now, log }) => {
  await sendContactMessage(input, now, log);
  return { ok: true as const };
});
