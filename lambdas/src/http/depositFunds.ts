/** POST /funds/deposit - verified manager, Idempotency-Key. Charged at once, credited on success. */
import { httpHandler } from '../platform/http';
import { deposit } from '../services/deposits';

export const handler = httpHandler('depositFunds', ({ actor, input, now, idempotencyKey, log }) =>
  deposit(actor, input, idempotencyKey, now, log),
);
