/** POST /subscription/close - verified manager, Idempotency-Key. Cards cancelled, money redeemed or kept, records read-only. */
import { httpHandler } from '../platform/http';
import { closeSubscription } from '../services/billing';

export const handler = httpHandler('closeSubscription', ({ actor, input, now }) =>
  closeSubscription(actor, input.remaining, now),
);
