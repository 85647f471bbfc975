/** GET /employees - manager. The team's employees (balances, card state) and invitations. */
import { httpHandler } from '../platform/http';
import { listEmployees } from '../services/employees';

export const handler = httpHandler('listEmployees', ({ actor, now }) => listEmployees(actor, now));
