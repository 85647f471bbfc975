/**
 * GET /requests - signed in. An employee's own fund requests, or the manager's
 * team's (with the team's rules); `requestId` answers that one only.
 */
import { httpHandler } from '../platform/http';
import { listRequests } from '../services/requests';

export const handler = httpHandler('listRequests', ({ actor, input, now }) =>
  listRequests(actor, input, now),
);
