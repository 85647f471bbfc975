/**
 * POST /auth/verifyEmail - public (the link is the proof), rate limited. Single-use token.
 * A member's joining (charge, card, funding) happens here, once their address is proven.
 */
import { httpHandler } from '../platform/http';
import { verifyEmail } from '../services/accounts';

export const handler = httpHandler('verifyEmail', ({ input, now, log }) =>
  verifyEmail(input.token, now, log),
);
