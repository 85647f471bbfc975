/** GET /purchases - employee (own) or manager (whole team, with names). Newest first, opaque cursor. Read-only. */
import { httpHandler } from '../platform/http';
import { listPurchases } from '../services/purchases';

export const handler = httpHandler('listPurchases', ({ actor, input, now }) =>
  listPurchases(actor, input, now),
);
