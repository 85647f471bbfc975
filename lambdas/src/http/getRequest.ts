/** GET /requests/{requestId} - the employee's own request, or one of the manager's team. */
import { httpHandler } from '../platform/http';
import { getOneRequest } from '../services/requests';

export const handler = httpHandler('getRequest', ({ actor, input, now }) =>
  getOneRequest(actor, input.requestId, now),
);
