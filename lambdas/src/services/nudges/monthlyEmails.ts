/**
 * The monthly e-mails' daily run (jobs/monthlyEmails.ts). Each team is looked
 * at once its month's day has come in its own calendar (the first business
 * day, shared/src/domain/nudges.ts, and the week after it for a missed run)
 * until every e-mail of that month went
 * (a "month done" marker then lets the later runs of the month skip it). Each
 * e-mail is claimed per person, kind and month before it is sent, so a re-run,
 * or a run after a failure half-way, sends nothing twice.
 *
 * Nobody who is paused, removed (deleted), invited, dormant or not yet verified
 * gets one, nor anyone who turned it off (profile or unsubscribe link), nor
 * anyone of a closed team. An employee's card must be active (a card frozen by
 * the manager, for a receipt or for dormancy cannot spend, so a nudge would
 * only frustrate), with money to spend and no purchase settled this month.
 */
import { dayIn, startOfDayIn } from '@shared/domain/calendar';
import { dormancyStage } from '@shared/domain/dormancy';
import { cardAccount } from '@shared/domain/ledger';
import {
  anyMonthlyEmailsDue,
  type MonthlyEmailKind,
  monthlyEmailsDue,
  pickCatalogueItems,
} from '@shared/domain/nudges';
import type { CatalogueItem } from '@shared/schemas/catalogue';
import { listTeamUsers, type TeamRecord, teamsWithBilling, zoneOf } from '../../data/accounts';
import { getCard } from '../../data/cards';
import { listCatalogue } from '../../data/catalogue';
import { issueUnsubscribeToken } from '../../data/emailTokens';
import { balanceOf } from '../../data/ledger';
import {
  claimMonthlyEmail,
  markTeamMonthDone,
  monthlyEmailOn,
  teamMonthDone,
} from '../../data/monthlyEmails';
import { purchasesOfUserSince } from '../../data/purchases';
import type { UserRecord } from '../../data/users';
import { mapWithConcurrency } from '../../platform/concurrency';
import type { Logger } from '../../platform/log';
import { digestManager } from './digest';
import { nudgeEmail, sendMonthlyEmail } from './nudgeEmails';

/** Teams looked at side by side; inside a team, people one after another. */
const TEAM_CONCURRENCY = 4;
/** How far back a person's purchases count as skill areas they have touched. */
const TOUCHED_MONTHS = 12;

export interface MonthlyEmailsSummary {
  teams: number;
  nudges: number;
  digests: number;
  failed: number;
}

/** Whether a person may get a monthly e-mail of `kind` at all (the rules every kind shares). */
export function mayGetMonthlyEmail(user: UserRecord, kind: MonthlyEmailKind): boolean {
  return (
    user.status === 'active' &&
    user.emailVerified === true &&
    dormancyStage(user.dormancy) !== 'dormant' &&
    monthlyEmailOn(user, kind)
  );
}

function monthsBefore(day: string, months: number): string {
  const t = new Date(`${day}T00:00:00Z`);
  t.setUTCMonth(t.getUTCMonth() - months);
  return t.toISOString().slice(0, 10);
}

export interface NudgeContext {
  month: string;
  zone: string;
  now: Date;
  catalogue: () => Promise<CatalogueItem[]>;
}

/** The employee's nudge, if it is due them: true when it was sent by this call. */
export async function nudgeEmployee(user: UserRecord, ctx: NudgeContext): Promise<boolean> {
  if (user.role !== 'employee' || !mayGetMonthlyEmail(user, 'nudge')) return false;
  const card = user.cardId ? await getCard(user.cardId) : undefined;
  if (card?.status !== 'active') return false;
  const balanceCents = await balanceOf(cardAccount(user.userId));
  if (balanceCents <= 0) return false;
  const monthStart = startOfDayIn(`${ctx.month}-01`, ctx.zone).toISOString();
  const since = startOfDayIn(monthsBefore(`${ctx.month}-01`, TOUCHED_MONTHS), ctx.zone).toISOString();
  const purchases = await purchasesOfUserSince(user.userId, since);
  if (purchases.some((p) => p.createdAt >= monthStart)) return false;
  // Claimed before it goes: a second run, or one racing this, sends nothing.
  if (!(await claimMonthlyEmail(user.userId, 'nudge', ctx.month, ctx.now))) return false;
  const picks = pickCatalogueItems(await ctx.catalogue(), {
    seed: user.userId,
    month: ctx.month,
    jobRole: user.jobRole,
    touchedAreas: purchases.map((p) => p.skillArea ?? 'Uncategorised'),
    balanceCents,
  });
  const token = await issueUnsubscribeToken(user.userId, 'nudge', ctx.now);
  await sendMonthlyEmail(
    user.email,
    nudgeEmail({ firstName: user.firstName, balanceCents, picks, unsubscribeToken: token }),
    token,
  );
  return true;
}

async function runTeam(
  team: TeamRecord,
  now: Date,
  catalogue: () => Promise<CatalogueItem[]>,
  summary: MonthlyEmailsSummary,
  log: Logger,
) {
  if (team.subscription === 'closed') return;
  const zone = zoneOf(team);
  const month = monthlyEmailsDue(dayIn(now, zone));
  if (!month || (await teamMonthDone(team.teamId, month))) return;
  summary.teams++;
  const ctx: NudgeContext = { month, zone, now, catalogue };
  let failed = false;
  const members = await listTeamUsers(team.teamId);
  // A digest of a team with nobody in it would say nothing.
  const hasEmployees = members.some((u) => u.role === 'employee' && u.status !== 'deleted');
  for (const user of members) {
    try {
      if (user.role === 'employee' && (await nudgeEmployee(user, ctx))) summary.nudges++;
      if (
        user.role === 'manager' &&
        user.userId === team.managerId &&
        hasEmployees &&
        mayGetMonthlyEmail(user, 'digest') &&
        (await digestManager(user, month, now))
      )
        summary.digests++;
    } catch (error) {
      failed = true;
      summary.failed++;
      log.error('monthly e-mail failed for a person', {
        userId: user.userId,
        error: error instanceof Error ? error.message : 'unknown',
      });
    }
  }
  // A failure leaves the team open: the next day's run tries those people again (the rest are claimed).
  if (!failed) await markTeamMonthDone(team.teamId, month, now);
}

/** The daily run. One team's or person's failure is logged and counted; the rest go on. */
export async function runMonthlyEmails(now: Date, log: Logger): Promise<MonthlyEmailsSummary> {
  const summary: MonthlyEmailsSummary = { teams: 0, nudges: 0, digests: 0, failed: 0 };
  // Three weeks of the month no team can be due: nothing is read.
  if (!anyMonthlyEmailsDue(now)) return summary;
  let catalogue: Promise<CatalogueItem[]> | undefined;
  // Read once per run, and only if someone is nudged.
  const readCatalogue = () => {
    catalogue ??= listCatalogue();
    return catalogue;
  };
  await mapWithConcurrency(await teamsWithBilling(), TEAM_CONCURRENCY, async (team) => {
    try {
      await runTeam(team, now, readCatalogue, summary, log);
    } catch (error) {
      summary.failed++;
      log.error('monthly e-mails failed for a team', {
        teamId: team.teamId,
        error: error instanceof Error ? error.message : 'unknown',
      });
    }
  });
  return summary;
}
