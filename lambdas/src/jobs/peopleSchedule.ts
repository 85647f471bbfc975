/**
 * Daily at 10:00 UTC. Invites the roster's scheduled starts whose day has come and removes the
 * people whose last day has come, each on the day in their team's calendar (issue 28). Both are
 * read from day lists (gsi3); an item leaves its list only once done, and a run reads back
 * LOOKBACK_DAYS, so a missed or failed day is caught up. Rules: services/employees/roster.ts.
 */
import { jobHandler } from '../platform/job';
import { runPeopleSchedule } from '../services/employees';

export const handler = jobHandler('peopleSchedule', async ({ now, log }) => ({
  ...(await runPeopleSchedule(now, log)),
}));
