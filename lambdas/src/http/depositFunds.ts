/**
 * POST /funds/deposit - verified manager, Idempotency-Key. Charged at once, credited on success.
 * More than the step-up threshold moved or committed today, this request included, needs a fresh factor.
 */
import { requireFreshFactorAbove } from '../platform/freshFactor';
import { httpHandler } from '../platform/http';
import { deposit, movedOrCommittedToday } from '../services/money';

export const handler = httpHandler(
  'depositFunds',
  async ({ actor, input, now, idempotencyKey, log, steps }) => {
    // Asked once per request: a retry finishing it would count its own deposit as moved today.
    await steps.once('freshFactor', async () => {
      const requested = input.amount * input.userIds.length;
      await requireFreshFactorAbove(actor, (await movedOrCommittedToday(actor.teamId, now)) + requested, now);
      return true;
    });
    return deposit(actor, input, idempotencyKey, now, log, steps);
  },
);
