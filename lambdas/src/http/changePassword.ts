/**
 * POST /auth/changePassword - signed in. With the current password: a new
 * one, audited, and every session but this one (the cookie's) ends. A wrong
 * current password counts towards the sign-in throttle.
 */
import { httpHandler } from '../platform/http';
import { readSessionCookie } from '../platform/sessionCookie';
import { changePassword } from '../services/accounts';

export const handler = httpHandler('changePassword', ({ actor, input, cookies, clientIp, now }) =>
  changePassword(actor, input, readSessionCookie(cookies), clientIp, now),
);
