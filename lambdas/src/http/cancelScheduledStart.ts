/** POST /roster/scheduled/cancel - manager with a verified e-mail. Cancels a scheduled start of the team; audited. */
import { httpHandler } from '../platform/http';
import { cancelScheduledStart } from '../services/employees';

export const handler = httpHandler('cancelScheduledStart', ({ actor, input, now }) =>
  cancelScheduledStart(actor, input, now),
);
