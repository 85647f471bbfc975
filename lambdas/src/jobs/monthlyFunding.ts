/**
 * Daily at 06:00 UTC. Renews the teams whose billing cycle (anchored on their
 * setup day) renews today: one charge per team for its active employees, one
 * ledger credit per employee. A team whose charge was declined is retried on
 * each of the next 6 days (its cycle day is still within the last 7), then
 * waits for the manager to update their card. Teams anchored on the 29th-31st
 * renew on the last day of shorter months.
 */
import { teamsRenewingOn } from '../data/accounts';
import { jobHandler } from '../platform/job';
import { monthOfDate, renewTeam } from '../services/funding';

export const RETRY_DAYS = 7;

/** The cycle days that renew on `date`: its own day, and 29-31 on a month's last day. */
export function cycleDaysOn(date: Date): number[] {
  const day = date.getUTCDate();
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  if (day !== lastDay) return [day];
  return Array.from({ length: 32 - day }, (_, i) => day + i);
}

export const handler = jobHandler('monthlyFunding', async ({ now, log }) => {
  let funded = 0;
  let declined = 0;
  for (let back = 0; back < RETRY_DAYS; back++) {
    const date = new Date(now.getTime() - back * 86_400_000);
    for (const cycleDay of cycleDaysOn(date)) {
      for (const team of await teamsRenewingOn(cycleDay)) {
        const outcome = await renewTeam(team, monthOfDate(date), now, log.child({ teamId: team.teamId }));
        if (outcome === 'funded') funded++;
        if (outcome === 'declined') declined++;
      }
    }
  }
  return { teamsFunded: funded, teamsDeclined: declined };
});
