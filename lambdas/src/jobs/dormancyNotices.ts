/**
 * Daily at 15:00 UTC. Warns managers at 11 months without a purchase, notifies
 * employee and manager at 12, 12.5 and 13 months, then deactivates the card and
 * pauses the employee. The wrapper runs it once per day; inside, each notice is
 * claimed on the person before it is sent, so a retried run sends nothing
 * twice, and a missed day is caught up. Rules: services/dormancy/dormancy.ts.
 */
import { jobHandler } from '../platform/job';
import { runDormancy } from '../services/dormancy';

export const handler = jobHandler('dormancyNotices', async ({ now, log }) => ({
  ...(await runDormancy(now, log)),
}));
