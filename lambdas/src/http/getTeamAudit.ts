/**
 * GET /team/audit - manager. The team's manager actions and money movements,
 * newest first, a page at a time (opaque cursor), optionally for one person or kind.
 */
import { httpHandler } from '../platform/http';
import { teamAudit } from '../services/team';

export const handler = httpHandler('getTeamAudit', ({ actor, input }) => teamAudit(actor, input));
