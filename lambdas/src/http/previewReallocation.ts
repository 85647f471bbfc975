/** POST /funds/reallocate/preview - verified manager. Read-only: each receiver's share, as reallocateFunds would post it. */
import { httpHandler } from '../platform/http';
import { previewReallocation } from '../services/money';

export const handler = httpHandler('previewReallocation', ({ actor, input }) =>
  previewReallocation(actor, input),
);
