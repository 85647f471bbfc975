/** GET /team/audit - manager. The team's audit log, newest first. */
import { listAudit } from '../data/audit';
import { httpHandler } from '../platform/http';

export const handler = httpHandler('getTeamAudit', async ({ actor }) => ({
  events: await listAudit(actor.teamId),
}));
