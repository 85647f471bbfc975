/** GET /team/ledger - manager. The team's journal entries (every money movement), oldest first. */
import { teamJournal } from '../data/ledger';
import { httpHandler } from '../platform/http';

export const handler = httpHandler('getTeamLedger', async ({ actor }) => ({
  entries: await teamJournal(actor.teamId),
}));
