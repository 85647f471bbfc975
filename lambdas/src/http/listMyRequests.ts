/** GET /me/requests - employee. Their own fund requests, newest first. */
import { httpHandler } from '../platform/http';
import { myRequests } from '../services/requests';

export const handler = httpHandler('listMyRequests', ({ actor, now }) => myRequests(actor, now));
