/**
 * POST /funds/deposit - verified manager, Idempotency-Key. Charged at once, credited on success.
 * More than the step-up threshold in one request needs a fresh factor.
 */
import { requireFreshFactorAbove } from '../platform/freshFactor';
import { httpHandler } from '../platform/http';
import { deposit } from '../services/money';

export const handler = httpHandler('depositFunds', async ({ actor, input, now, idempotencyKey, log }) => {
  await requireFreshFactorAbove(actor, input.amount * input.userIds.length, now);
  return deposit(actor, input, idempotencyKey, now, log);
});
