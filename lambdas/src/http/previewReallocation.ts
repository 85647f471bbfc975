/**
 * POST /funds/reallocate/preview - verified manager. Read-only: each receiver's share, as reallocateFunds
 * would post it, and whether it would pass the step-up threshold (counted as reallocateFunds counts it).
 */
import { needsFreshFactorAbove } from '../platform/freshFactor';
import { httpHandler } from '../platform/http';
import { movedOrCommittedToday, previewReallocation } from '../services/money';

export const handler = httpHandler('previewReallocation', async ({ actor, input, now }) => {
  const [preview, today] = await Promise.all([
    previewReallocation(actor, input),
    movedOrCommittedToday(actor.teamId, now),
  ]);
  return { ...preview, needsFreshFactor: needsFreshFactorAbove(actor, today + preview.amountCents) };
});
