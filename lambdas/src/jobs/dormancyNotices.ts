/**
 * Daily at 15:00 UTC. Warns managers at 11 months without a purchase, notifies
 * employee and manager at 12, 12.5 and 13 months, then deactivates the card and
 * pauses the employee. Cards arrive with the money core; until then there is
 * nothing dormant.
 */
import { jobHandler } from '../platform/job';

export const handler = jobHandler('dormancyNotices', async () => ({
  warnings: 0,
  notices: 0,
  deactivated: 0,
}));
