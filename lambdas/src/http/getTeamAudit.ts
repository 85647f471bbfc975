/** GET /team/audit - manager. Every manager action and every money movement of the team, newest first. */
import { httpHandler } from '../platform/http';
import { teamAudit } from '../services/teamAudit';

export const handler = httpHandler('getTeamAudit', ({ actor }) => teamAudit(actor));
