/**
 * GET /purchases/{purchaseId}/receipt - the purchase's employee or their
 * manager. A one-minute presigned GET; the manager's first look marks the
 * receipt seen (audited), after which the employee cannot replace it.
 */
import { httpHandler } from '../platform/http';
import { receiptUrl } from '../services/receipts';

export const handler = httpHandler('getReceiptUrl', ({ actor, input, now }) =>
  receiptUrl(actor, input.purchaseId, now),
);
