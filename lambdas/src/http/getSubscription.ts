/** GET /subscription - manager. The subscription's state and what closing would do with the money left. */
import { httpHandler } from '../platform/http';
import { describeSubscription } from '../services/subscription';

export const handler = httpHandler('getSubscription', ({ actor, now, log }) =>
  describeSubscription(actor, now, log),
);
