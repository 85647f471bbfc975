/**
 * POST /funds/reallocate - verified manager, Idempotency-Key. Even split, remainder cents by id, no fee.
 * More than the step-up threshold moved or committed today, this request included, needs a fresh factor.
 */
import { requireFreshFactorAbove } from '../platform/freshFactor';
import { httpHandler } from '../platform/http';
import { movedOrCommittedToday, previewReallocation, reallocate } from '../services/money';

export const handler = httpHandler('reallocateFunds', async ({ actor, input, now, steps }) => {
  // Asked once per request: a retry finishing it would find the money it moved gone, or count it twice.
  await steps.once('freshFactor', async () => {
    // A refused preview (nothing left, not removed) is refused as the reallocation would be: it
    // once counted as 0 and so skipped the step-up.
    const { amountCents } = await previewReallocation(actor, input);
    await requireFreshFactorAbove(actor, (await movedOrCommittedToday(actor.teamId, now)) + amountCents, now);
    return true;
  });
  return reallocate(actor, input, now, steps);
});
