/**
 * POST /auth/signIn - public. The only door to a password sign-in: growing delays
 * after failures (per address and per source), the second factor when enrolled.
 */
import { httpHandler } from '../platform/http';
import { signIn } from '../services/accounts';

export const handler = httpHandler('signIn', ({ input, clientIp, now, log }) =>
  signIn(input, clientIp, now, log),
);
