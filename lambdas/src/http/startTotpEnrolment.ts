/** POST /me/secondFactor/totp - signed in. A new secret to scan (QR code) or type; pending until confirmed. */
import { httpHandler } from '../platform/http';
import { startTotpEnrolment } from '../services/accounts';

export const handler = httpHandler('startTotpEnrolment', ({ actor }) => startTotpEnrolment(actor));
