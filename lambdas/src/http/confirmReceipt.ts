/**
 * POST /purchases/{purchaseId}/receipt - the purchase's own employee. Checks the
 * uploaded object by its bytes and records it with its title (replacing an
 * unseen one); a refused object is deleted. Audited either way.
 */
import { httpHandler } from '../platform/http';
import { confirmReceipt } from '../services/receipts';

export const handler = httpHandler('confirmReceipt', ({ actor, input, now }) =>
  confirmReceipt(actor, input, now),
);
