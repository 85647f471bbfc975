/** POST /me/secondFactor/totp/confirm - signed in. A code from the app turns it on; answers the recovery codes, once; e-mails the account. */
import { httpHandler } from '../platform/http';
import { confirmTotpEnrolment } from '../services/accounts';

export const handler = httpHandler('confirmTotpEnrolment', ({ actor, input, clientIp, now }) =>
  confirmTotpEnrolment(actor, input.code, clientIp, now),
);
