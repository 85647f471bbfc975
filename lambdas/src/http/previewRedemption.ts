/** POST /funds/redeem/preview - verified manager. Read-only: amount, fee and net as redeemFunds would post them. */
import { httpHandler } from '../platform/http';
import { previewRedemption } from '../services/money';

export const handler = httpHandler('previewRedemption', ({ actor, input, now }) =>
  previewRedemption(actor, input.deletedUserIds, now),
);
