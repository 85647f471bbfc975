/** PUT /purchases/{purchaseId}/skill - employee (own) or manager (team's). Moves the purchase's net amount between skill areas once. */
import { httpHandler } from '../platform/http';
import { setPurchaseSkill } from '../services/purchases';

export const handler = httpHandler('setPurchaseSkill', ({ actor, input, now }) =>
  setPurchaseSkill(actor, input, now),
);
