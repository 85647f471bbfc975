/** GET /insights/people/all - manager. One of the Insights page's people lists in full, for its CSV. Read-only. */
import { httpHandler } from '../platform/http';
import { getInsightsPeopleList } from '../services/insights';

export const handler = httpHandler('getInsightsPeopleList', ({ actor, input, now }) =>
  getInsightsPeopleList(actor, input, now),
);
