/** GET /insights/people - manager. Each employee's spend over the period, and who has not spent. Read-only. */
import { httpHandler } from '../platform/http';
import { getInsightsPeople } from '../services/insights';

export const handler = httpHandler('getInsightsPeople', ({ actor, input, now }) =>
  getInsightsPeople(actor, input, now),
);
