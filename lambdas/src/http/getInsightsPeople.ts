/** GET /insights/people - manager. Who spent most over the period, who has not spent for 3 months, who is heading for dormancy. Read-only. */
import { httpHandler } from '../platform/http';
import { getInsightsPeople } from '../services/insights';

export const handler = httpHandler('getInsightsPeople', ({ actor, input, now }) =>
  getInsightsPeople(actor, input, now),
);
