/** POST /auth/signIn - public, rate limited per client and per account. Returns tokens; records lastLogin. */
import { httpHandler } from '../platform/http';
import { signIn } from '../services/accounts';

export const handler = httpHandler('signIn', ({ input, now, log }) => signIn(input, now, log));
