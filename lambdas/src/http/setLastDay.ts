/**
 * PUT /users/{userId}/lastDay - manager with a verified e-mail, for an employee of their team.
 * Sets (not in the past) or clears their last day; the daily job removes them on it. Audited.
 */
import { httpHandler } from '../platform/http';
import { setLastDay } from '../services/employees';

export const handler = httpHandler('setLastDay', ({ actor, input, now }) => setLastDay(actor, input, now));
