/** GET /me/spend - employee. Their own spend by skill area per month, and what is left this month. Read-only. */
import { httpHandler } from '../platform/http';
import { mySpend } from '../services/insights';

export const handler = httpHandler('getMySpend', ({ actor }) => mySpend(actor));
