/**
 * GET /team/audit - manager. Every manager action (who, what, before, after)
 * and every money movement of the team (from the journal), newest first.
 */
import { listAudit } from '../data/audit';
import { teamJournal } from '../data/ledger';
import { httpHandler } from '../platform/http';

export const handler = httpHandler('getTeamAudit', async ({ actor }) => {
  const [actions, journal] = await Promise.all([listAudit(actor.teamId, 500), teamJournal(actor.teamId)]);
  const movements = journal.map((entry) => ({
    eventId: entry.entryId,
    // Money moves on behalf of the system (cycles, the card network) or a manager's request,
    // whose own action is in the log beside it.
    actorId: 'system',
    action: `money.${entry.kind}`,
    after: { description: entry.description, legs: entry.legs, ...(entry.references ?? {}) },
    at: entry.postedAt,
  }));
  const events = [...actions, ...movements].sort((a, b) => b.at.localeCompare(a.at));
  return { events };
});
