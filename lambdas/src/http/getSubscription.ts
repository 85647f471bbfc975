/**
 * GET /subscription - manager. The subscription's state, what closing would do
 * with the money left, and a page of the payments history (what the card on
 * file was charged and refunded): the page shows both, so one read answers
 * both (docs/decisions.md, "Payments history").
 */
import { httpHandler } from '../platform/http';
import { listPayments } from '../services/payments';
import { describeSubscription } from '../services/subscription';

export const handler = httpHandler('getSubscription', async ({ actor, input, now, log }) => {
  const [subscription, payments] = await Promise.all([
    describeSubscription(actor, now, log),
    listPayments(actor, { cursor: input.paymentsCursor, limit: input.paymentsLimit }),
  ]);
  return { ...subscription, payments: { rows: payments.payments, nextCursor: payments.nextCursor } };
});
