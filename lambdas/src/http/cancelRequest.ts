/** POST /requests/{requestId}/cancel - employee. Cancels their own pending request. */
import { httpHandler } from '../platform/http';
import { cancelRequest } from '../services/requests';

export const handler = httpHandler('cancelRequest', ({ actor, input, now }) =>
  cancelRequest(actor, input.requestId, now),
);
