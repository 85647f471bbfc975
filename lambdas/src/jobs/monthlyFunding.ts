/**
 * Daily at 06:00 UTC. Charges each team whose billing cycle renews today for its
 * active employees and funds their cards through the ledger. The money core
 * (ledger, billing, cards) arrives with its own issue; until then there are no
 * billable teams and the run records zero work.
 */
import { jobHandler } from '../platform/job';

export const handler = jobHandler('monthlyFunding', async () => ({ teamsCharged: 0, cardsFunded: 0 }));
