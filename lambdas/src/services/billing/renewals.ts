/**
 * Monthly renewals: on a team's cycle day, one charge for all active
 * employees' next budgets, then one credit per employee, from a plan stored
 * before the charge (see chargeAttempts.ts for how a charge is made once).
 *
 *   purpose CYCLE#<teamId>#<yyyy-mm>; Stripe key CYCLE#<teamId>#<yyyy-mm>#<attempt>
 *   FUNDING#<teamId>#<userId>#<yyyy-mm> one credit per employee and cycle
 */

import { funding } from '@shared/domain/ledger';
import { monthlyChargeDescription, monthlyCreditDescription } from '@shared/domain/monthWords';
import {
  PAST_DUE_RETRY_DAYS,
  renewalSkippedByResume,
  teamMayCharge,
  utcDaysBetween,
} from '@shared/domain/subscription';
import { type ChargedCard, charge, succeededChargeFor } from '../../adapters/stripe';
import { getTeam, listTeamUsers, setTeamFields, setUserFields, type TeamRecord } from '../../data/accounts';
import { recordAudit } from '../../data/audit';
import { keys } from '../../data/keys';
import { getJournals, post } from '../../data/ledger';
import type { UserRecord } from '../../data/users';
import { mapWithConcurrency } from '../../platform/concurrency';
import type { Logger } from '../../platform/log';
import { updateBackstop } from '../cards';
import { issueInvoice } from '../invoices';
import { collectDebt, sweepToPool } from '../money';
import { type Attempt, replaceAttempt } from './chargeAttempts';
import type { MemberRecord } from './joining';
import { sendRenewalDeclined } from './subscriptionEmails';

/** Card-limit calls of one team's renewal at once (jobs/monthlyFunding.ts runs a few teams at once too). */
export const CARD_CALL_CONCURRENCY = 8;

/** A team's renewal for one month: who is credited how much, fixed before the charge. */
export interface CyclePlan extends Attempt {
  month: string;
  purpose: string;
  members: { userId: string; cents: number }[];
  totalCents: number;
  chargeId?: string;
  /** The card the charge went to (when this run took it): the credits name it for the payments history. */
  card?: ChargedCard;
}

export type RenewableTeam = TeamRecord & {
  lastRenewedMonth?: string;
  /** A plan, or an attempt stored before plans were (month, key, status only). */
  cycleAttempt?: CyclePlan | { month: string; key: string; status: string; n?: undefined };
};

export function monthOfDate(date: Date): string {
  return date.toISOString().slice(0, 7);
}

function isPlan(attempt: RenewableTeam['cycleAttempt']): attempt is CyclePlan {
  return Boolean(attempt && Array.isArray((attempt as CyclePlan).members));
}

/** The charge an unfinished plan already took (its stored id, or one Stripe has for its purpose), or undefined. */
async function takenCharge(team: RenewableTeam, plan: CyclePlan | undefined): Promise<string | undefined> {
  if (!plan || !team.stripeCustomerId) return undefined;
  if (plan.status !== 'pending' && plan.status !== 'charged') return undefined;
  return plan.chargeId ?? (await succeededChargeFor(team.stripeCustomerId, plan.purpose));
}

/**
 * takenCharge, for the job and reconciliation. Not for a closed team: closing
 * credited a taken month itself before it swept the cards (finishTakenRenewal),
 * so a charge found later was taken as the team closed, and crediting it now
 * would put money on cancelled cards: reconciliation reports it instead.
 */
async function chargeAlreadyTaken(
  team: RenewableTeam,
  plan: CyclePlan | undefined,
): Promise<string | undefined> {
  if (team.subscription === 'closed') return undefined;
  return takenCharge(team, plan);
}

function joinedAfter(member: MemberRecord, cycleDate: Date): boolean {
  const fundedAt = member.joinAttempt?.fundedAt;
  return fundedAt !== undefined && new Date(fundedAt).getTime() > cycleDate.getTime();
}

/**
 * Who a renewal on `cycleDate` charges and funds, and how much: active
 * employees (not those still waiting for their joining charge, nor those who
 * have not verified their e-mail, whose joining has not started) at next
 * cycle's budget. The Subscription screen's expected monthly total is the
 * sum of this for its next charge date.
 */
/**
 * The user attributes cycleMembers reads (and nothing else): a reader of a whole
 * team that only needs the next charge Queries these (listTeamUsersProjected).
 */
export const CYCLE_MEMBER_ATTRIBUTES = [
  'userId',
  'role',
  'status',
  'fundingPending',
  'emailVerified',
  'joinAttempt.fundedAt',
  'nextBudgetCents',
  'budgetCents',
] as const;

export function cycleMembers(users: UserRecord[], cycleDate: Date): { userId: string; cents: number }[] {
  return (
    users
      .filter((m) => m.role === 'employee' && m.status === 'active' && !m.fundingPending && m.emailVerified)
      // Joined (and charged on joining) after this cycle day: their first cycle is the next one
      // (spec). Only a late or retried renewal, planned after its cycle day, meets them.
      .filter((m) => !joinedAfter(m as MemberRecord, cycleDate))
      .map((m) => ({ userId: m.userId, cents: m.nextBudgetCents ?? m.budgetCents ?? 0 }))
      .filter((m) => m.cents > 0)
  );
}

/**
 * One team's monthly renewal: one charge for all active employees' budgets
 * (next cycle's budget takes effect now), then one credit per employee. Paused
 * and deleted employees are neither charged nor funded. Runs again safely.
 *
 * The plan (who gets how much, the total, the purpose, the Stripe key) is
 * stored on the team before the charge, and every retry for the month uses it
 * instead of the members as they are by then: the charge is found by its
 * purpose rather than taken again, and the credits add up to exactly what was
 * charged even if people joined, left or changed budgets meanwhile.
 */
export async function renewTeam(
  team: RenewableTeam,
  month: string,
  now: Date,
  log: Logger,
  cycleDate: Date = now,
): Promise<'funded' | 'declined' | 'nothing'> {
  if (!team.stripeCustomerId || !team.setupMonth || team.setupMonth >= month) return 'nothing';
  // The caller's copy may come from the cycle index (eventually consistent): the plan must be the latest.
  let current = ((await getTeam(team.teamId)) as RenewableTeam | undefined) ?? team;
  if (current.lastRenewedMonth && current.lastRenewedMonth >= month) return 'nothing';
  const earlier = current.cycleAttempt;
  if (
    isPlan(earlier) &&
    earlier.month < month &&
    (current.lastRenewedMonth ?? '') < earlier.month &&
    (await chargeAlreadyTaken(current, earlier))
  ) {
    // An earlier month stopped after its charge and no run finished it (a month of failed
    // runs): this month's plan would replace it and strand that money, so it is credited
    // first, with its own plan (its charge is found by purpose, never taken again).
    await renewTeam(current, earlier.month, now, log);
    current = ((await getTeam(team.teamId)) as RenewableTeam | undefined) ?? current;
    if (current.lastRenewedMonth && current.lastRenewedMonth >= month) return 'nothing';
  }
  const stored = current.cycleAttempt;
  let plan = stored?.month === month && isPlan(stored) ? stored : undefined;
  // Suspended or closed: nobody is charged. Resumed since this cycle day: that month is skipped.
  if (!teamMayCharge(current) || renewalSkippedByResume(cycleDate, current.resumedAt)) {
    // But a renewal that took the money before it stopped half-way is credited all the same.
    const taken = await chargeAlreadyTaken(current, plan);
    if (!plan || !taken) return 'nothing';
    plan = { ...plan, status: 'charged', chargeId: taken };
    await replaceAttempt(keys.team(team.teamId), 'cycleAttempt', plan, plan.key);
  }
  if (!plan) {
    const members = cycleMembers(await listTeamUsers(team.teamId), cycleDate);
    const totalCents = members.reduce((s, m) => s + m.cents, 0);
    if (totalCents === 0) {
      // Nobody to fund on the cycle day: the month is renewed, with nothing. Someone who joins
      // later is charged on joining and joins the next cycle (spec), not this month's again.
      await setTeamFields(team.teamId, { lastRenewedMonth: month });
      return 'nothing';
    }
    plan = {
      month,
      purpose: `CYCLE#${team.teamId}#${month}`,
      n: 1,
      key: `CYCLE#${team.teamId}#${month}#1`,
      status: 'pending',
      members,
      totalCents,
    };
    await replaceAttempt(keys.team(team.teamId), 'cycleAttempt', plan, stored?.key);
  } else if (plan.status === 'declined') {
    // Nothing was taken: try the same plan again under a new key (Stripe would replay the decline).
    const previousKey = plan.key;
    plan = { ...plan, n: plan.n + 1, key: `CYCLE#${team.teamId}#${month}#${plan.n + 1}`, status: 'pending' };
    await replaceAttempt(keys.team(team.teamId), 'cycleAttempt', plan, previousKey);
  }
  let chargeId = plan.chargeId;
  if (!chargeId) {
    const result = await charge(
      {
        customerId: team.stripeCustomerId,
        amountCents: plan.totalCents,
        description: monthlyChargeDescription(month, plan.members.length),
        purpose: plan.purpose,
        metadata: { teamId: team.teamId, cycle: month },
      },
      plan.key,
    );
    if (result.status === 'declined') {
      log.warn('renewal declined', { teamId: team.teamId, code: result.code, attempt: plan.n });
      await replaceAttempt(keys.team(team.teamId), 'cycleAttempt', { ...plan, status: 'declined' }, plan.key);
      const pastDueSince =
        current.status === 'pastDue' && current.pastDueSince ? current.pastDueSince : now.toISOString();
      if (current.status !== 'pastDue') await setTeamFields(team.teamId, { status: 'pastDue', pastDueSince });
      // Every step of the retry policy is e-mailed; the last retry's decline is told by the suspension e-mail.
      const retry = utcDaysBetween(pastDueSince, now);
      if (retry < PAST_DUE_RETRY_DAYS)
        await sendRenewalDeclined(current, plan.totalCents, result.message, pastDueSince, retry);
      return 'declined';
    }
    chargeId = result.chargeId;
    plan = { ...plan, status: 'charged', chargeId, ...(result.card ? { card: result.card } : {}) };
    await replaceAttempt(keys.team(team.teamId), 'cycleAttempt', plan, plan.key);
  }
  await creditPlan(team.teamId, plan, chargeId, now);
  return 'funded';
}

/**
 * Credits the month's charge to the people of its plan, then marks the month
 * renewed: the second half of a renewal, after its charge was taken (by this
 * run or an earlier one). Every step is keyed or conditioned, so two runs
 * doing it at once (the job and a close, say) credit each person once.
 */
async function creditPlan(teamId: string, plan: CyclePlan, chargeId: string, now: Date): Promise<void> {
  const { month } = plan;
  // Every credit first: the ledger then holds all of the charge even if a card update below fails.
  // One after another: every credit writes the team's external account.
  for (const { userId, cents } of plan.members) {
    await post(
      funding({
        entryId: `FUNDING#${teamId}#${userId}#${month}`,
        teamId,
        userId,
        amountCents: cents,
        description: monthlyCreditDescription(month),
        chargeId,
        card: plan.card,
      }),
      now.toISOString(),
    );
  }
  // The month's invoice, from the credits just posted (or posted by an earlier run): before the
  // month is marked renewed, so a run cut off here leaves it to the next run, which makes it once.
  await issueInvoice(
    teamId,
    chargeId,
    plan.members.map(({ userId }) => `FUNDING#${teamId}#${userId}#${month}`),
    now,
  );
  const people = new Map((await listTeamUsers(teamId)).map((u) => [u.userId, u]));
  const cards: { userId: string; cardId: string }[] = [];
  // In order: a sweep writes the team's pool, so two at once would conflict on it.
  for (const { userId, cents } of plan.members) {
    const member = people.get(userId);
    if (!member) continue;
    if (member.status === 'deleted') {
      // Removed after the plan was charged: their card is cancelled, so the credit joins
      // their other money in the team pool, where the manager reallocates or redeems it.
      await sweepToPool(member, 'removed');
      continue;
    }
    await setUserFields(userId, { budgetCents: cents, lastFundedMonth: month });
    await collectDebt(userId, teamId);
    if (member.cardId) cards.push({ userId, cardId: member.cardId });
  }
  // One Stripe call per card, each touching only its own card's items: a few at once, as
  // one after another they are most of a renewal's time against real Stripe.
  await mapWithConcurrency(cards, CARD_CALL_CONCURRENCY, ({ userId, cardId }) =>
    updateBackstop(userId, cardId),
  );
  await setTeamFields(teamId, {
    status: 'active',
    lastRenewedMonth: month,
    cycleAttempt: { ...plan, status: 'funded' },
  });
  await recordAudit({
    teamId,
    actorId: 'system',
    action: 'cycle.funded',
    after: { month, chargeId, totalCents: plan.totalCents, employees: plan.members.length },
    at: now.toISOString(),
  });
}

/**
 * Closing's half of "a charge taken is always credited": the team's unfinished
 * renewal whose charge Stripe took (a run cut off after it, or one running
 * right now) is credited through the renewal's own plan and entry ids, closed
 * or not, so the month's money is on the ledger before closing sweeps the cards
 * and redeems or keeps the pool. Never charges: a plan whose charge was not
 * taken is left as it is (a closed team is never charged). 'funded' when it
 * credited a month (or found it credited by a run at the same moment).
 */
export async function finishTakenRenewal(teamId: string, now: Date): Promise<'funded' | 'nothing'> {
  const team = (await getTeam(teamId)) as RenewableTeam | undefined;
  const stored = team?.cycleAttempt;
  if (!team || !isPlan(stored) || (team.lastRenewedMonth ?? '') >= stored.month) return 'nothing';
  const chargeId = await takenCharge(team, stored);
  if (!chargeId) return 'nothing';
  const plan: CyclePlan = { ...stored, status: 'charged', chargeId };
  if (stored.status !== 'charged' || stored.chargeId !== chargeId)
    await replaceAttempt(keys.team(teamId), 'cycleAttempt', plan, stored.key);
  await creditPlan(teamId, plan, chargeId, now);
  return 'funded';
}

/**
 * What finishTakenRenewal would credit now: the planned credits not yet on the
 * ledger of a renewal whose charge was taken, in cents (0 when none). The
 * Subscription screen adds it to the money closing would redeem or keep.
 */
export async function takenUncreditedCents(team: RenewableTeam): Promise<number> {
  const plan = team.cycleAttempt;
  if (!isPlan(plan) || (team.lastRenewedMonth ?? '') >= plan.month) return 0;
  if (!(await takenCharge(team, plan))) return 0;
  const entryId = (userId: string) => `FUNDING#${team.teamId}#${userId}#${plan.month}`;
  const posted = await getJournals(plan.members.map((m) => entryId(m.userId)));
  return plan.members.filter((m) => !posted.has(entryId(m.userId))).reduce((sum, m) => sum + m.cents, 0);
}
