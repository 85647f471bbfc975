/**
 * POST /funds/reallocate - verified manager, Idempotency-Key. Even split, remainder cents by id, no fee.
 * More than the step-up threshold in one request needs a fresh factor.
 */
import { requireFreshFactorAbove } from '../platform/freshFactor';
import { httpHandler } from '../platform/http';
import { previewReallocation, reallocate } from '../services/money';

export const handler = httpHandler('reallocateFunds', async ({ actor, input, now }) => {
  // A refused preview (nothing left, not removed) is the reallocation's own refusal to make.
  const amountCents = await previewReallocation(actor, input).then(
    (preview) => preview.amountCents,
    () => 0,
  );
  await requireFreshFactorAbove(actor, amountCents, now);
  return reallocate(actor, input, now);
});
