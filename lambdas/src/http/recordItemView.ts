/**
 * POST /catalogue/{itemId}/views - employee or manager; rate limited per user.
 * Records that the caller opened a shop item (kept a year); 404 for an item
 * not in the catalogue. Not idempotent by design: two openings are two views.
 */
import { httpHandler } from '../platform/http';
import { recordItemView } from '../services/shop';

export const handler = httpHandler('recordItemView', ({ actor, input, now }) =>
  recordItemView(actor, input.itemId, now),
);
