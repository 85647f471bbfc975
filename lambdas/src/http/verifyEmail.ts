/** POST /auth/verifyEmail - public (the link is the proof), rate limited. Single-use token. */
import { httpHandler } from '../platform/http';
import { verifyEmail } from '../services/accounts';

export const handler = httpHandler('verifyEmail', ({ input, now }) => verifyEmail(input.token, now));
