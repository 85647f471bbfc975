/** POST /me/secondFactor/totp - signed in. With the password (or an e-mailed code): a new secret to scan (QR code) or type; pending until confirmed. */
import { httpHandler } from '../platform/http';
import { startTotpEnrolment } from '../services/accounts';

export const handler = httpHandler('startTotpEnrolment', ({ actor, input, clientIp, now }) =>
  startTotpEnrolment(actor, input, clientIp, now),
);
