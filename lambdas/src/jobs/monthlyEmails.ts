/**
 * Daily at 16:00 UTC (11 am or noon in New York). On the first business day
 * of the month in each team's calendar (or the first run after it that month),
 * e-mails each employee with money waiting and no purchase this month a nudge,
 * and each manager a digest of last month. The wrapper runs it once per day;
 * inside, each e-mail is claimed per person and month before it goes, so a
 * re-run sends nothing twice. Rules: services/nudges/monthlyEmails.ts.
 */
import { jobHandler } from '../platform/job';
import { runMonthlyEmails } from '../services/nudges';

export const handler = jobHandler('monthlyEmails', async ({ now, log }) => ({
  ...(await runMonthlyEmails(now, log)),
}));
