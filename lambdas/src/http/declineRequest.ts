/** POST /team/requests/{requestId}/decline - manager. Declines a pending request with a reason. */
import { httpHandler } from '../platform/http';
import { declineRequest } from '../services/requests';

export const handler = httpHandler('declineRequest', ({ actor, input, now }) =>
  declineRequest(actor, input.requestId, input.reason, now),
);
