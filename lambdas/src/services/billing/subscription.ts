/**
 * The subscription's lifecycle (spec §4; docs/decisions.md "Subscription
 * lifecycle"): the manager suspends, resumes or closes it; the daily job
 * suspends a team whose renewal stayed unpaid through every retry.
 *
 * Suspended: nobody charged or funded (renewals, joining charges, deposits);
 * cards keep what they hold. Closed: the same, for good; every card cancelled,
 * pending invitations withdrawn, the money left redeemed (less the fee) or kept in the pool, and every write
 * refused by the handler wrapper while reads go on.
 */

import { nextRenewalDay } from '@shared/domain/billingCycle';
import {
  cardAccount,
  planRedemptionRefunds,
  poolAccount,
  redemption,
  redemptionQuote,
} from '@shared/domain/ledger';
import { type ClosingChoice, retriesExhausted, subscriptionState } from '@shared/domain/subscription';
import { AppError } from '@shared/errors';
import type { SubscriptionOutput } from '@shared/schemas/subscription';
import { isStripeFailure, refund, setCardStatus as setIssuerCardStatus } from '../../adapters/stripe';
import {
  type ClosingPlan,
  getTeam,
  listTeamInvitations,
  listTeamUsers,
  listTeamUsersProjected,
  setTeamFields,
  type TeamRecord,
  withdrawTeamInvitations,
} from '../../data/accounts';
import { recordAudit } from '../../data/audit';
import { getCard, updateCard } from '../../data/cards';
import { updateFields } from '../../data/client';
import { keys } from '../../data/keys';
import { balanceOf, getJournal, post } from '../../data/ledger';
import type { UserRecord } from '../../data/users';
import type { Actor } from '../../platform/auth';
import type { Logger } from '../../platform/log';
import { issueInvoice } from '../invoices';
import { asRule, finishOpenPoolClaims, refundableCharges, sweepToPool } from '../money';
import { audit } from '../team';
import { finishTakenJoin, takenJoinCents } from './joining';
import { listPayments } from './payments';
import { fundPendingMembers } from './pendingFunding';
import {
  CYCLE_MEMBER_ATTRIBUTES,
  cycleMembers,
  finishTakenRenewal,
  type RenewableTeam,
  takenUncreditedCents,
} from './renewals';
import { sendClosed, sendResumed, sendSuspended, sendSuspendedUnpaid } from './subscriptionEmails';

const UNDER_MINIMUM =
  'Refund is not available for balances under $5: choose to keep the money instead, or close without redeeming.';

async function ownTeam(actor: Actor): Promise<TeamRecord> {
  const team = await getTeam(actor.teamId);
  if (!team) throw new AppError('NOT_FOUND', 'No such team.');
  return team;
}

function employeesOf(users: UserRecord[]) {
  return users.filter((u) => u.role === 'employee');
}

/** What closing would leave: every employee's spendable balance plus the team pool. */
async function moneyLeft(team: TeamRecord, users: UserRecord[]): Promise<number> {
  const cards = await Promise.all(employeesOf(users).map((u) => balanceOf(cardAccount(u.userId))));
  return cards.reduce((s, c) => s + Math.max(c, 0), 0) + (await balanceOf(poolAccount(team.teamId)));
}

async function liveCards(users: UserRecord[]) {
  const cards = await Promise.all(
    employeesOf(users)
      .filter((u) => u.cardId)
      .map((u) => getCard(u.cardId as string)),
  );
  return cards.filter((c) => c && c.status !== 'canceled');
}

function quoteOrNothing(cents: number) {
  try {
    return redemptionQuote(cents);
  } catch {
    return undefined;
  }
}

/**
 * The next monthly charge as the funding job will make it: its day, and who
 * it funds at what budget (the same member rule as the renewal's plan).
 */
export async function nextCharge(
  team: TeamRecord,
  users: UserRecord[],
  now: Date,
): Promise<SubscriptionOutput['billing']> {
  if (!team.cycleDay || !team.setupMonth) return undefined;
  const nextChargeDate = nextRenewalDay(
    {
      cycleDay: team.cycleDay,
      setupMonth: team.setupMonth,
      lastRenewedMonth: (team as RenewableTeam).lastRenewedMonth,
    },
    now,
  );
  const members = cycleMembers(users, new Date(`${nextChargeDate}T23:59:59.999Z`));
  return {
    cycleDay: team.cycleDay,
    nextChargeDate,
    employees: members.length,
    expectedTotalCents: members.reduce((sum, m) => sum + m.cents, 0),
    // Not charged until they join (each then on the day they do), but the wizard's total counted them.
    ...(await invitedCost(team.teamId)),
  };
}

/**
 * The next charge of a team without its users at hand (insights): the same
 * figure, from a Query of only the attributes the member rule reads.
 */
export async function nextChargeOfTeam(team: TeamRecord, now: Date): Promise<SubscriptionOutput['billing']> {
  const users = await listTeamUsersProjected(team.teamId, CYCLE_MEMBER_ATTRIBUTES);
  return nextCharge(team, users as UserRecord[], now);
}

async function invitedCost(teamId: string) {
  const invitations = await listTeamInvitations(teamId);
  return {
    invited: invitations.length,
    invitedMonthlyCents: invitations.reduce((sum, i) => sum + Number(i.budgetCents), 0),
  };
}

/** The Subscription screen: state, the next charge, and what closing would do with the money left. */
export async function describeSubscription(
  teamOrActor: Actor | TeamRecord,
  now: Date,
  log?: Logger,
  teamUsers?: UserRecord[],
): Promise<SubscriptionOutput> {
  const team = 'managerId' in teamOrActor ? teamOrActor : await ownTeam(teamOrActor);
  const users = teamUsers ?? (await listTeamUsers(team.teamId));
  const state = subscriptionState(team);
  const billing = state === 'running' ? await nextCharge(team, users, now) : undefined;
  const taken = state === 'closed' ? 0 : await takenButUncreditedIfKnown(team, users, log);
  const remainingCents = state === 'closed' ? 0 : (await moneyLeft(team, users)) + (taken ?? 0);
  const quote = quoteOrNothing(remainingCents);
  return {
    state,
    chargeBeingConfirmed: taken === undefined ? true : undefined,
    suspendedAt: state === 'suspended' ? team.suspendedAt : undefined,
    suspendedBy: state === 'suspended' ? team.suspendedBy : undefined,
    closedAt: team.closedAt,
    billing,
    remainingCents,
    redeemFeeCents: quote?.feeCents,
    redeemNetCents: quote?.netCents,
    cardsToCancel: state === 'closed' ? 0 : (await liveCards(users)).length,
    closing: team.closing
      ? {
          choice: team.closing.choice,
          amountCents: team.closing.amountCents,
          feeCents: team.closing.feeCents,
          netCents: team.closing.netCents,
        }
      : undefined,
  };
}

/**
 * GET /subscription: the screen's state and a page of its payments history,
 * the team's people read once for both (the bill's members, the rows' names).
 */
export async function subscriptionScreen(
  actor: Actor,
  payments: { cursor?: string; limit: number },
  now: Date,
  log: Logger,
) {
  const users = await listTeamUsers(actor.teamId);
  const [subscription, page] = await Promise.all([
    describeSubscription(actor, now, log, users),
    listPayments(actor.teamId, payments, users),
  ]);
  return { ...subscription, payments: page };
}

function refuseUnlessRunning(team: TeamRecord) {
  if (team.status === 'setup') throw new AppError('CONFLICT', 'Finish setting up your account first.');
  if (team.subscription === 'suspended')
    throw new AppError('CONFLICT', 'Your subscription is already suspended.');
}

export async function suspendSubscription(actor: Actor, now: Date): Promise<SubscriptionOutput> {
  const team = await ownTeam(actor);
  refuseUnlessRunning(team);
  const fields = {
    subscription: 'suspended' as const,
    suspendedAt: now.toISOString(),
    suspendedBy: 'manager' as const,
  };
  await setTeamFields(team.teamId, fields);
  await audit(actor, 'billing.subscriptionSuspended', now, { after: { by: 'manager' } });
  await sendSuspended(team);
  return describeSubscription({ ...team, ...fields }, now);
}

/**
 * The daily job, after a past-due team's last retry: suspended if it is still
 * past due and running (one conditional write, so a payment that just went
 * through, or a second run, changes nothing). True when it suspended. Not
 * while a renewal is in flight (`pending` or `charged`: it failed half-way,
 * perhaps after taking the money): that is our failure, not an unpaid bill,
 * and suspending would strand the charge; the next run finishes it.
 */
export async function suspendIfStillUnpaid(team: TeamRecord, now: Date): Promise<boolean> {
  if (team.status !== 'pastDue' || team.subscription || !team.pastDueSince) return false;
  if (!retriesExhausted(team.pastDueSince, now)) return false;
  try {
    await updateFields(
      keys.team(team.teamId),
      { subscription: 'suspended', suspendedAt: now.toISOString(), suspendedBy: 'unpaid' },
      {
        condition: {
          expression:
            '#status = :pastDue AND attribute_not_exists(#subscription) AND NOT (#cycle.#state IN (:pending, :charged))',
          names: {
            '#status': 'status',
            '#subscription': 'subscription',
            '#cycle': 'cycleAttempt',
            '#state': 'status',
          },
          values: { ':pastDue': 'pastDue', ':pending': 'pending', ':charged': 'charged' },
        },
      },
    );
  } catch (error) {
    if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
  await recordAudit({
    teamId: team.teamId,
    actorId: 'system',
    action: 'billing.subscriptionSuspended',
    after: { by: 'unpaid', pastDueSince: team.pastDueSince },
    at: now.toISOString(),
  });
  await sendSuspendedUnpaid(team);
  return true;
}

/**
 * Running again from the next cycle day: the months whose cycle day fell before
 * today are not charged (renewals check `resumedAt`), so an unpaid renewal left
 * from before is forgiven and the team is no longer past due for it. Members
 * who joined meanwhile are charged and funded now.
 */
export async function resumeSubscription(actor: Actor, now: Date, log: Logger): Promise<SubscriptionOutput> {
  const team = await ownTeam(actor);
  if (team.subscription !== 'suspended')
    throw new AppError('CONFLICT', 'Your subscription is not suspended.');
  await updateFields(
    keys.team(team.teamId),
    { resumedAt: now.toISOString(), ...(team.status === 'pastDue' ? { status: 'active' } : {}) },
    { remove: ['subscription', 'suspendedAt', 'suspendedBy', 'pastDueSince'] },
  );
  await audit(actor, 'billing.subscriptionResumed', now, { before: { by: team.suspendedBy } });
  await sendResumed(team);
  await fundPendingMembers(team.teamId, now, log);
  return describeSubscription(actor, now);
}

/**
 * Closes the subscription for good. A charge already taken but not yet
 * credited (a month's renewal, a joining charge) is credited first. Marked
 * closed next, so nothing is charged from that moment and no redemption or
 * reallocation opens a pool claim (they answer 409); the ones already under
 * way are finished; then every card is cancelled (issuer first, then our
 * record) and its money swept into the team pool; then the pool is redeemed
 * to the card on file as one redemption (one fee) or kept. The plan is stored
 * before any refund, from a pool only closing can take from, so a retry (the
 * route stays open to it) refunds the same parts once and posts the same entry.
 */
export async function closeSubscription(
  actor: Actor,
  choice: ClosingChoice,
  now: Date,
): Promise<SubscriptionOutput> {
  let team = await ownTeam(actor);
  if (team.closing?.status === 'done') return describeSubscription(team, now);
  // A charge taken but not yet credited (a renewal or a join cut off after it) is credited
  // first, as its own retry would: the money the employer paid is then on the ledger,
  // counted below and redeemed or kept with the rest (docs/decisions.md).
  await creditTakenCharges(team.teamId, now);
  const users = await listTeamUsers(team.teamId);
  if (!team.closing && choice === 'redeem') {
    // Refused before anything changes: the same rules as any redemption.
    const left = await moneyLeft(team, users);
    if (left > 0) {
      const quote = quoteOrNothing(left);
      if (!quote) throw new AppError('RULE_VIOLATED', UNDER_MINIMUM);
      const charges = await refundableCharges(team.teamId);
      asRule(() => planRedemptionRefunds(quote.netCents, charges));
    }
  }
  if (team.subscription !== 'closed') {
    await setTeamFields(team.teamId, { subscription: 'closed', closedAt: now.toISOString() });
    team = { ...team, subscription: 'closed', closedAt: now.toISOString() };
  }
  // Again now nothing new can be charged: a renewal or join that was charging as the team
  // closed is credited before any card is swept (no retry credits a closed team's charge).
  await creditTakenCharges(team.teamId, now);
  // Nobody new joins a closed team.
  await withdrawTeamInvitations(team.teamId);
  // The pool is closing's from here: no pool claim opens on a closed team, and the redemptions
  // and reallocations that opened one before are finished now, as their own requests would,
  // so the pool planned below is what they left and no dollar is refunded twice.
  const people = await listTeamUsers(team.teamId);
  await finishOpenPoolClaims(
    team.teamId,
    people.map((u) => u.userId),
    now,
  );
  let cancelled = 0;
  for (const user of employeesOf(people)) {
    const card = user.cardId ? await getCard(user.cardId) : undefined;
    if (card && card.status !== 'canceled') {
      await setIssuerCardStatus(card.cardId, 'canceled');
      await updateCard(card.cardId, { status: 'canceled' });
      cancelled++;
    }
    await sweepToPool(user, user.status === 'deleted' ? 'removed' : 'closed');
  }
  const plan = team.closing ?? (await storeClosingPlan(team.teamId, await planClosing(team, choice)));
  if (plan.choice === 'redeem' && plan.amountCents > 0) {
    const entryId = `CLOSE#${team.teamId}`;
    await refuseUnlessPoolCovers(team.teamId, entryId, plan.amountCents);
    const refunds = [];
    for (const part of plan.refunds) {
      const refundId = await refund({
        chargeId: part.chargeId,
        amountCents: part.amountCents,
        purpose: `${entryId}#${part.chargeId}`,
        metadata: { teamId: team.teamId, reason: 'close' },
      });
      refunds.push({ ...part, refundId });
    }
    await post(
      redemption({ entryId, teamId: team.teamId, amountCents: plan.amountCents, refunds }),
      now.toISOString(),
    );
    // The closing refund's credit note, before the close is marked done (a retry makes it once).
    await issueInvoice(team.teamId, entryId, [entryId], now);
  }
  const done: ClosingPlan = { ...plan, status: 'done' };
  await setTeamFields(team.teamId, { closing: done });
  await audit(actor, 'billing.subscriptionClosed', now, {
    after: {
      choice: plan.choice,
      amountCents: plan.amountCents,
      feeCents: plan.feeCents,
      cardsCancelled: cancelled,
    },
  });
  await sendClosed(team, plan, cancelled);
  return describeSubscription({ ...team, closing: done }, now);
}

/** Charges taken whose credits never came: closing credits them first, so the screen counts them. */
/**
 * takenButUncredited for the screen: undefined when Stripe cannot say now. An
 * unfinished renewal or joining charge is exactly what a Stripe outage leaves,
 * so the screen still opens with the money the ledger holds and says a charge
 * is being confirmed; closing credits it first (or fails, and is tried again).
 */
async function takenButUncreditedIfKnown(
  team: TeamRecord,
  users: UserRecord[],
  log: Logger | undefined,
): Promise<number | undefined> {
  try {
    return await takenButUncredited(team, users);
  } catch (error) {
    if (!isStripeFailure(error)) throw error;
    log?.warn('taken charge unknown: Stripe did not answer', { teamId: team.teamId });
    return undefined;
  }
}

async function takenButUncredited(team: TeamRecord, users: UserRecord[]): Promise<number> {
  let cents = await takenUncreditedCents(team);
  for (const member of employeesOf(users).filter((u) => u.fundingPending))
    cents += await takenJoinCents(member.userId);
  return cents;
}

/**
 * Credits every charge the team's card paid whose credit never came: the
 * month's renewal and any member's joining charge cut off after Stripe took
 * it. Never charges; each credit is keyed as its own flow keys it, so doing
 * this again (a retried close, a job at the same moment) credits nothing twice.
 */
async function creditTakenCharges(teamId: string, now: Date): Promise<void> {
  await finishTakenRenewal(teamId, now);
  const pending = employeesOf(await listTeamUsers(teamId)).filter((u) => u.fundingPending);
  for (const member of pending) await finishTakenJoin(member.userId, now);
}

/**
 * Stores closing's plan once: a second close racing this one (another
 * Idempotency-Key) finds the first plan stored and carries out that one, so
 * the refunds of `CLOSE#<team>` are planned once.
 */
async function storeClosingPlan(teamId: string, plan: ClosingPlan): Promise<ClosingPlan> {
  try {
    await updateFields(
      keys.team(teamId),
      { closing: plan },
      { condition: { expression: 'attribute_not_exists(#closing)', names: { '#closing': 'closing' } } },
    );
    return plan;
  } catch (error) {
    if (!(error instanceof Error && error.name === 'ConditionalCheckFailedException')) throw error;
    const stored = (await getTeam(teamId))?.closing;
    if (!stored) throw error;
    return stored;
  }
}

/**
 * Before any refund of closing's plan: the pool still holds what it plans to
 * take (or the entry is posted already, by an earlier try). Nothing else takes
 * from a closed team's pool, so this never refuses; if it ever did, no money
 * would go back to the card without the entry that takes it from the pool.
 */
async function refuseUnlessPoolCovers(teamId: string, entryId: string, amountCents: number): Promise<void> {
  if (await getJournal(entryId)) return;
  const pooled = await balanceOf(poolAccount(teamId));
  if (pooled < amountCents)
    throw new Error(
      `closing planned ${amountCents} cents from the pool, which holds ${pooled}: nothing refunded`,
    );
}

/** What closing does with the pool: the whole of it redeemed as one (one fee), or kept. */
async function planClosing(team: TeamRecord, choice: ClosingChoice): Promise<ClosingPlan> {
  const amountCents = await balanceOf(poolAccount(team.teamId));
  if (choice === 'keep' || amountCents <= 0)
    return {
      choice,
      amountCents: Math.max(amountCents, 0),
      feeCents: 0,
      netCents: 0,
      refunds: [],
      status: 'planned',
    };
  const quote = quoteOrNothing(amountCents);
  if (!quote) {
    // Under the $5 minimum: nothing can come back, so it stays, as with any small redemption.
    return { choice: 'keep', amountCents, feeCents: 0, netCents: 0, refunds: [], status: 'planned' };
  }
  const charges = await refundableCharges(team.teamId);
  const refunds = asRule(() => planRedemptionRefunds(quote.netCents, charges));
  return { choice, ...quote, refunds, status: 'planned' };
}
