/**
 * Daily at 06:00 UTC. Renews the teams whose billing cycle (anchored on their
 * setup day) renews today: one charge per team for its active employees, one
 * ledger credit per employee. A team whose charge was declined, or whose
 * renewal failed half-way, is retried on each of the next 6 days (its cycle day
 * is still within the last 7), with the plan stored at its first attempt; after
 * that it waits for the manager to update their card, and a team still past due
 * after its 6th retry day is suspended (services/subscription.ts). Teams anchored on the
 * 29th-31st renew on the last day of shorter months.
 *
 * Then it retries members still pending a joining charge in every team with
 * billing: interrupted ones every day, declined ones for 7 days after their
 * first decline (then a card change retries them).
 *
 * One team's error never stops the others: it is logged and counted in the
 * summary (`teamsFailed`, `joinsFailed`), and the next day retries it.
 */
import { type TeamRecord, teamsRenewingOn } from '../data/accounts';
import { jobHandler } from '../platform/job';
import { errorFields } from '../platform/log';
import { fundPendingMembers } from '../services/pendingFunding';
import { monthOfDate, renewTeam } from '../services/renewals';
import { suspendIfStillUnpaid } from '../services/subscription';

export const RETRY_DAYS = 7;

/** The cycle days that renew on `date`: its own day, and 29-31 on a month's last day. */
export function cycleDaysOn(date: Date): number[] {
  const day = date.getUTCDate();
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  if (day !== lastDay) return [day];
  return Array.from({ length: 32 - day }, (_, i) => day + i);
}

/** Every team with billing: each has a cycle day, so the 31 cycle-day partitions list them all. */
async function teamsWithBilling(): Promise<TeamRecord[]> {
  const teams = new Map<string, TeamRecord>();
  for (let day = 1; day <= 31; day++) {
    for (const team of await teamsRenewingOn(day)) teams.set(team.teamId, team);
  }
  return [...teams.values()];
}

export const handler = jobHandler('monthlyFunding', async ({ now, log }) => {
  const summary = {
    teamsFunded: 0,
    teamsDeclined: 0,
    teamsFailed: 0,
    teamsSuspended: 0,
    joinsFunded: 0,
    joinsDeclined: 0,
    joinsFailed: 0,
  };
  const declinedToday = new Set<string>();
  for (let back = 0; back < RETRY_DAYS; back++) {
    const date = new Date(now.getTime() - back * 86_400_000);
    const month = monthOfDate(date);
    for (const cycleDay of cycleDaysOn(date)) {
      for (const team of await teamsRenewingOn(cycleDay)) {
        const teamLog = log.child({ teamId: team.teamId, month });
        try {
          const outcome = await renewTeam(team, month, now, teamLog, date);
          if (outcome === 'funded') summary.teamsFunded++;
          if (outcome === 'declined') {
            summary.teamsDeclined++;
            declinedToday.add(team.teamId);
          }
        } catch (error) {
          summary.teamsFailed++;
          teamLog.error('renewal failed; the next run retries it with the stored plan', errorFields(error));
        }
      }
    }
  }
  for (const team of await teamsWithBilling()) {
    try {
      // Unpaid through every retry: suspended (and e-mailed) instead of retried again.
      if (await suspendIfStillUnpaid(team, now)) {
        summary.teamsSuspended++;
        continue;
      }
    } catch (error) {
      summary.teamsFailed++;
      log.error('suspending an unpaid team failed; the next run retries it', {
        teamId: team.teamId,
        ...errorFields(error),
      });
    }
    // Its card was just declined for the renewal: a joining charge today would be declined too.
    if (declinedToday.has(team.teamId)) continue;
    const teamLog = log.child({ teamId: team.teamId });
    try {
      const outcome = await fundPendingMembers(team.teamId, now, teamLog, {
        retryDeclinedForDays: RETRY_DAYS,
      });
      summary.joinsFunded += outcome.funded;
      summary.joinsDeclined += outcome.declined;
      summary.joinsFailed += outcome.failed;
    } catch (error) {
      summary.joinsFailed++;
      teamLog.error('retrying pending members failed; the next run retries them', errorFields(error));
    }
  }
  if (summary.teamsFailed || summary.joinsFailed)
    log.error('monthly funding finished with failures', summary);
  return summary;
});
