/**
 * POST /auth/secondFactor/turnOff - signed in. With a current code or a recovery
 * code, and the password (or an e-mailed code): the authenticator app is off (secret and recovery codes removed),
 * audited, and every session but this one (the cookie's) ends. A wrong code
 * counts towards the sign-in throttle.
 */
import { httpHandler } from '../platform/http';
import { readSessionCookie } from '../platform/sessionCookie';
import { turnOffSecondFactor } from '../services/accounts';

export const handler = httpHandler('turnOffSecondFactor', ({ actor, input, cookies, clientIp, now }) =>
  turnOffSecondFactor(actor, input, readSessionCookie(cookies), clientIp, now),
);
