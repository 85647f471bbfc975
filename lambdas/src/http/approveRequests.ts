/**
 * POST /team/requests/approve - verified manager, Idempotency-Key. Each request
 * approved is an extra deposit for its employee (services/money/deposits.ts).
 * As for deposits: more than the step-up threshold moved or committed today,
 * these approvals included, needs a fresh factor.
 */
import { requireFreshFactorAbove } from '../platform/freshFactor';
import { httpHandler } from '../platform/http';
import { movedOrCommittedToday } from '../services/money';
import { approvalTotal, approveRequests } from '../services/requests';

export const handler = httpHandler(
  'approveRequests',
  async ({ actor, input, now, idempotencyKey, log, steps }) => {
    // Asked once per request: a retry finishing it would count its own deposits as moved today.
    await steps.once('freshFactor', async () => {
      const requested = await approvalTotal(actor, input);
      await requireFreshFactorAbove(actor, (await movedOrCommittedToday(actor.teamId, now)) + requested, now);
      return true;
    });
    return approveRequests(actor, input, idempotencyKey, now, log, steps);
  },
);
