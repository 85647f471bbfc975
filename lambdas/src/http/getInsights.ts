/** GET /insights - manager. The team's insights over whole months of its calendar, from the aggregates. Read-only. */
import { httpHandler } from '../platform/http';
import { getInsights } from '../services/insights';

export const handler = httpHandler('getInsights', ({ actor, input, now }) => getInsights(actor, input, now));
