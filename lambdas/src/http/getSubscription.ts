/**
 * GET /subscription - manager. The subscription's state, what closing would do
 * with the money left, and a page of the payments history (what the card on
 * file was charged and refunded): the page shows both, so one read answers
 * both (docs/decisions.md, "Payments history").
 */
import { httpHandler } from '../platform/http';
import { subscriptionScreen } from '../services/billing';

export const handler = httpHandler('getSubscription', ({ actor, input, now, log }) =>
  subscriptionScreen(actor, { cursor: input.paymentsCursor, limit: input.paymentsLimit }, now, log),
);
