/** GET /team/requestRules - manager. The team's fund request rules. */
import { httpHandler } from '../platform/http';
import { requestRules } from '../services/requests';

export const handler = httpHandler('getRequestRules', ({ actor }) => requestRules(actor));
