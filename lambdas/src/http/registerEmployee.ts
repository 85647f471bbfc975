/** POST /auth/registerEmployee - public, rate limited. Needs a live invitation for the e-mail; consumes it. */
import { httpHandler } from '../platform/http';
import { registerEmployee } from '../services/accounts';

export const handler = httpHandler('registerEmployee', ({ input, now, log }) =>
  registerEmployee(input, now, log),
);
