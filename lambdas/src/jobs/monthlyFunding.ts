/**
 * Daily at 06:00 UTC. Renews the teams whose billing cycle (anchored on their
 * setup day) renews today: one charge per team for its active employees, one
 * ledger credit per employee. A team whose charge was declined, or whose
 * renewal failed half-way, is retried on each of the next 6 days (its cycle day
 * is still within the last 7), with the plan stored at its first attempt; after
 * that it waits for the manager to update their card, and a team still past due
 * after its 6th retry day is suspended (services/billing/subscription.ts). Teams anchored on the
 * 29th-31st renew on the last day of shorter months.
 *
 * Then it retries members still pending a joining charge in every team with
 * billing: interrupted ones every day, declined ones for 7 days after their
 * first decline (then a card change retries them).
 *
 * One team's error never stops the others: it is logged and counted in the
 * summary (`teamsFailed`, `joinsFailed`), and the next day retries it.
 *
 * Teams share no ledger item (docs/ledger.md, invariant 7), so a few are
 * renewed at once (TEAM_CONCURRENCY); inside a team the credits stay in
 * order and only the card-limit calls overlap (services/billing/renewals.ts). Near
 * the Lambda timeout the run stops starting teams (STOP_STARTING_WITHIN_MS):
 * the ones left are counted (`teamsLeft`, `joinRetriesLeft`, metric
 * JobWorkLeft) and the next day's run renews them, still within their retry
 * window, with the month of their cycle day. The oldest cycle days go first,
 * so a team on its last retry day is not the one left over.
 *
 * A renewal that leaves its window without ever being declined (the job did
 * not run for a week, ran short of time on the last day, or failed on every
 * retry day, perhaps after taking the charge) is renewed late, first thing,
 * rather than never (`lateRenewal`): a charged team is always funded, and an
 * unstarted one charged once. A declined month is not tried again here: that
 * team is past due and the suspension rule decides. A suspended team is
 * charged nothing new, but a renewal that took the money before it stopped is
 * credited all the same (services/billing/renewals.ts).
 */
import { cycleDaysOn } from '@shared/domain/billingCycle';
import { teamsRenewingOn, teamsWithBilling } from '../data/accounts';
import { mapWithConcurrency } from '../platform/concurrency';
import { jobHandler } from '../platform/job';
import { errorFields } from '../platform/log';
import { metrics } from '../platform/metrics';
import {
  fundPendingMembers,
  monthOfDate,
  type RenewableTeam,
  renewTeam,
  suspendIfStillUnpaid,
} from '../services/billing';

export const RETRY_DAYS = 7;
const DAY_MS = 86_400_000;

/**
 * Teams renewed at once. Each runs up to CARD_CALL_CONCURRENCY card calls
 * (services/billing/renewals.ts), so at most 32 Stripe requests are in flight: below
 * Stripe's live-mode rate limit (100 a second) at its usual few hundred ms a call.
 */
export const TEAM_CONCURRENCY = 4;

/** No team is started with less than this left: one team's renewal must finish before the timeout. */
export const STOP_STARTING_WITHIN_MS = 60_000;

interface DueRenewal {
  team: RenewableTeam;
  month: string;
  /** The cycle day this renewal is for (today, or one of the retry days before). */
  date: Date;
}

/** The renewals due today and on the retry days before it, the oldest cycle day first. */
async function renewalsDue(now: Date): Promise<DueRenewal[]> {
  const due: DueRenewal[] = [];
  for (let back = RETRY_DAYS - 1; back >= 0; back--) {
    const date = new Date(now.getTime() - back * DAY_MS);
    const month = monthOfDate(date);
    for (const cycleDay of cycleDaysOn(date)) {
      for (const team of await teamsRenewingOn(cycleDay)) due.push({ team, month, date });
    }
  }
  return due;
}

/** The latest day on or before `now` (same time of day) when a team with this cycle day renews. */
export function lastCycleDate(cycleDay: number, now: Date): Date {
  for (let back = 0; back <= 31; back++) {
    const date = new Date(now.getTime() - back * DAY_MS);
    if (cycleDaysOn(date).includes(cycleDay)) return date;
  }
  throw new Error(`cycle day ${cycleDay} is not a day of the month`);
}

/**
 * The renewal a team missed: its last cycle day is past the retry window, that
 * month was never renewed and never declined, and the team may be charged.
 * renewTeam then goes on from where the month stopped (its stored plan).
 */
export function lateRenewal(team: RenewableTeam, now: Date): DueRenewal | undefined {
  if (!team.cycleDay || !team.setupMonth || team.subscription === 'closed') return undefined;
  const date = lastCycleDate(team.cycleDay, now);
  const daysAgo = Math.floor(now.getTime() / DAY_MS) - Math.floor(date.getTime() / DAY_MS);
  if (daysAgo < RETRY_DAYS) return undefined; // still in its window: renewalsDue has it
  const month = monthOfDate(date);
  if (team.setupMonth >= month) return undefined;
  if (team.lastRenewedMonth && team.lastRenewedMonth >= month) return undefined;
  const attempt = team.cycleAttempt?.month === month ? team.cycleAttempt.status : undefined;
  if (attempt === 'declined') return undefined;
  // Suspended: charged no more, but a renewal in flight (maybe after taking the money) is finished.
  if (team.subscription && attempt !== 'pending' && attempt !== 'charged') return undefined;
  return { team, month, date };
}

export const handler = jobHandler('monthlyFunding', async ({ now, log, remainingMs }) => {
  const summary = {
    teamsFunded: 0,
    teamsDeclined: 0,
    teamsFailed: 0,
    teamsSuspended: 0,
    teamsLeft: 0,
    teamsRenewedLate: 0,
    joinsFunded: 0,
    joinsDeclined: 0,
    joinsFailed: 0,
    joinRetriesLeft: 0,
  };
  const timeLeft = () => remainingMs() >= STOP_STARTING_WITHIN_MS;
  const declinedToday = new Set<string>();
  const billed: RenewableTeam[] = await teamsWithBilling();
  const late = billed.flatMap((team) => lateRenewal(team, now) ?? []);
  // The missed ones first: they have waited longest.
  const due = [...late, ...(await renewalsDue(now))];
  const lateIds = new Set(late.map((l) => l.team.teamId));
  let renewalsStarted = 0;
  await mapWithConcurrency(
    due,
    TEAM_CONCURRENCY,
    async ({ team, month, date }) => {
      renewalsStarted++;
      const teamLog = log.child({ teamId: team.teamId, month });
      try {
        const outcome = await renewTeam(team, month, now, teamLog, date);
        if (outcome === 'funded') summary.teamsFunded++;
        if (outcome === 'funded' && lateIds.has(team.teamId)) {
          summary.teamsRenewedLate++;
          teamLog.warn('renewed after its retry window: the month had been missed', {
            cycleDate: date.toISOString().slice(0, 10),
          });
        }
        if (outcome === 'declined') {
          summary.teamsDeclined++;
          declinedToday.add(team.teamId);
        }
      } catch (error) {
        summary.teamsFailed++;
        teamLog.error('renewal failed; the next run retries it with the stored plan', errorFields(error));
      }
    },
    timeLeft,
  );
  summary.teamsLeft = due.length - renewalsStarted;

  // Once out of time, none of these starts either (time only runs down): a team whose renewal
  // was left is not judged unpaid before its retry.
  let retriesStarted = 0;
  await mapWithConcurrency(
    billed,
    TEAM_CONCURRENCY,
    async (team) => {
      retriesStarted++;
      try {
        // Unpaid through every retry: suspended (and e-mailed) instead of retried again.
        if (await suspendIfStillUnpaid(team, now)) {
          summary.teamsSuspended++;
          return;
        }
      } catch (error) {
        summary.teamsFailed++;
        log.error('suspending an unpaid team failed; the next run retries it', {
          teamId: team.teamId,
          ...errorFields(error),
        });
      }
      // Its card was just declined for the renewal: a joining charge today would be declined too.
      if (declinedToday.has(team.teamId)) return;
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
    },
    timeLeft,
  );
  summary.joinRetriesLeft = billed.length - retriesStarted;

  if (summary.teamsLeft || summary.joinRetriesLeft) {
    log.warn('monthly funding ran short of time; the next run continues', {
      teamsLeft: summary.teamsLeft,
      joinRetriesLeft: summary.joinRetriesLeft,
    });
    metrics.jobWorkLeft('monthlyFunding', summary.teamsLeft + summary.joinRetriesLeft);
  }
  if (summary.teamsFailed || summary.joinsFailed)
    log.error('monthly funding finished with failures', summary);
  return summary;
});
