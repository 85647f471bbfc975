/** GET /team/requests - manager. The team's fund requests, newest first, optionally of one state. */
import { httpHandler } from '../platform/http';
import { teamRequests } from '../services/requests';

export const handler = httpHandler('listTeamRequests', ({ actor, input, now }) =>
  teamRequests(actor, input.state, now),
);
