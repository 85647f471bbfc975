/** POST /employees/pause - manager. Pause or unpause; per-employee results; audited. */
import { httpHandler } from '../platform/http';
import { setPaused } from '../services/employees';

export const handler = httpHandler('updateSubscriptionStatus', ({ actor, input, now }) =>
  setPaused(actor, input.userIds, input.action, now),
);
