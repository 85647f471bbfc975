/** POST /auth/registerEmployee - public, rate limited. Needs the invitation's e-mailed link (token); uses it and consumes the invitation. */
import { httpHandler } from '../platform/http';
import { registerEmployee } from '../services/accounts';

export const handler = httpHandler('registerEmployee', ({ input, now, log }) =>
  registerEmployee(input, now, log),
);
