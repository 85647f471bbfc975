/**
 * POST /funds/deposit/preview - verified manager. What a deposit would charge in total; charges nothing.
 * Says whether the deposit would pass the step-up threshold (counted as depositFunds counts it), so the
 * web app asks for a fresh factor before sending it rather than after a refusal.
 */
import { needsFreshFactorAbove } from '../platform/freshFactor';
import { httpHandler } from '../platform/http';
import { movedOrCommittedToday, previewDeposit } from '../services/money';

export const handler = httpHandler('previewDeposit', async ({ actor, input, now }) => {
  const [preview, today] = await Promise.all([
    previewDeposit(actor, input, now),
    movedOrCommittedToday(actor.teamId, now),
  ]);
  const requested = input.amount * input.userIds.length;
  return { ...preview, needsFreshFactor: needsFreshFactorAbove(actor, today + requested) };
});
