/**
 * GET /me/purchaseCheck - employee. Would a purchase of this amount at this kind
 * of merchant be approved on their own card now, and if not why. Read-only.
 */
import { httpHandler } from '../platform/http';
import { checkPurchase } from '../services/purchases';

export const handler = httpHandler('checkPurchase', ({ actor, input }) => checkPurchase(actor, input));
