/** POST /funds/redeem - verified manager, Idempotency-Key. Refund to the manager's card less the fee. */
import { httpHandler } from '../platform/http';
import { redeem } from '../services/money';

export const handler = httpHandler('redeemFunds', ({ actor, input, now, idempotencyKey, steps }) =>
  redeem(actor, input.deletedUserIds, now, idempotencyKey, steps),
);
