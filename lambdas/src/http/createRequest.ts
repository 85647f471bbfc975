/** POST /requests - employee. Ask the manager for funds (a shop item or free-form); the team's rule may approve it at once. */
import { httpHandler } from '../platform/http';
import { createRequest } from '../services/requests';

export const handler = httpHandler('createRequest', ({ actor, input, now, log }) =>
  createRequest(actor, input, now, log),
);
