/**
 * POST /purchases/{purchaseId}/receipt/upload - the purchase's own employee.
 * A presigned POST pinning key, type and size; nothing is recorded until the confirm call.
 */
import { httpHandler } from '../platform/http';
import { createReceiptUpload } from '../services/receipts';

export const handler = httpHandler('createReceiptUpload', ({ actor, input, now }) =>
  createReceiptUpload(actor, input, now),
);
