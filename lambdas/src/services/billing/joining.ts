/**
 * Joining: a person who became an active member gets their virtual card, their
 * first budget charged to the manager's card and credited to theirs, then any
 * debt collected and the backstop raised (see chargeAttempts.ts for how a
 * charge is made once however often it is retried).
 *
 *   purpose and entry JOIN#<userId>; Stripe key JOIN#<userId>#<attempt>; card ISSUE#<userId>
 */

import { cardAccount, funding, holdAccount } from '@shared/domain/ledger';
import { teamMayCharge } from '@shared/domain/subscription';
import { type ChargedCard, charge, issueVirtualCard, succeededChargeFor } from '../../adapters/stripe';
import { getTeam, setTeamFields, setUserFields, type TeamRecord } from '../../data/accounts';
import { getCard, putCard } from '../../data/cards';
import { startDormancyClock } from '../../data/dormancy';
import { keys } from '../../data/keys';
import { balanceOf, post } from '../../data/ledger';
import { getUser, type UserRecord } from '../../data/users';
import type { Logger } from '../../platform/log';
import { creditedToCard, updateBackstop } from '../cards';
import { issueInvoice } from '../invoices';
import { collectDebt } from '../money';
import { type Attempt, notifyDecline, replaceAttempt } from './chargeAttempts';

/** Issues the employee's virtual card once (idempotent by user id). */
export async function ensureCard(user: UserRecord, team: TeamRecord, now: Date): Promise<string> {
  if (user.cardId) return user.cardId;
  return issueCard(user, team, now, `ISSUE#${user.userId}`, 0);
}

/**
 * A new virtual card for someone reactivated (issue 28) whose card was
 * cancelled at their removal: Stripe cannot reactivate a cancelled card.
 * Idempotent by the card it replaces. Its backstop counts only what the
 * person could still spend when it was issued (their card and hold balances)
 * and what is credited after: what the old card already spent is not
 * allowed again on the new one (cardBackstop.ts, `lifetimeOffsetCents`).
 */
export async function issueReplacementCard(user: UserRecord, team: TeamRecord, now: Date): Promise<string> {
  const old = user.cardId ? await getCard(user.cardId) : undefined;
  if (old && old.status !== 'canceled') return old.cardId;
  if (!old) return ensureCard(user, team, now);
  const [credited, spendable, held] = await Promise.all([
    creditedToCard(user.userId),
    balanceOf(cardAccount(user.userId)),
    balanceOf(holdAccount(user.userId)),
  ]);
  return issueCard(user, team, now, `ISSUE#${user.userId}#${old.cardId}`, spendable + held - credited);
}

async function issueCard(
  user: UserRecord,
  team: TeamRecord,
  now: Date,
  key: string,
  lifetimeOffsetCents: number,
): Promise<string> {
  if (!team.billingAddress) throw new Error(`team ${team.teamId} has no billing address yet`);
  const issued = await issueVirtualCard(
    {
      userId: user.userId,
      teamId: team.teamId,
      name: `${user.firstName} ${user.lastName}`.slice(0, 24),
      email: user.email,
      billing: {
        line1: team.billingAddress.address1,
        city: team.billingAddress.city,
        state: team.billingAddress.state,
        postalCode: team.billingAddress.zip,
      },
      spendingLimitCents: 0,
    },
    key,
  );
  await putCard({
    cardId: issued.cardId,
    cardholderId: issued.cardholderId,
    userId: user.userId,
    teamId: team.teamId,
    last4: issued.last4,
    expMonth: issued.expMonth,
    expYear: issued.expYear,
    status: issued.status,
    lifetimeLimitCents: 0,
    ...(lifetimeOffsetCents !== 0 ? { lifetimeOffsetCents } : {}),
    createdAt: now.toISOString(),
  });
  await setUserFields(user.userId, { cardId: issued.cardId });
  // A new card without purchases counts as quiet from the day it was issued.
  await startDormancyClock(user, now.toISOString());
  return issued.cardId;
}

/** A member's joining charge: the amount is fixed when the attempt starts, so a retry credits what it charged. */
export interface JoinAttempt extends Attempt {
  cents: number;
  /** First decline of the current run of declines: the daily job retries for RETRY_DAYS after it. */
  declinedSince?: string;
  /** When the joining budget was credited: a renewal for a cycle day before this leaves them out (renewals.ts). */
  fundedAt?: string;
}

export type MemberRecord = UserRecord & { joinAttempt?: JoinAttempt };

/** `awaitingVerification`: the member has not verified their e-mail yet; nothing was done. */
export type ActivationResult = 'funded' | 'pendingBilling' | 'declined' | 'awaitingVerification';

/**
 * The member's current joining attempt, written with `fundingPending: true`
 * before anything is charged. An attempt still pending (in flight, or cut off
 * after the charge) is reused as it is: same Stripe key, same amount. After a
 * decline (or a finished one) the next attempt gets the next key.
 */
async function startJoinAttempt(user: MemberRecord): Promise<JoinAttempt> {
  const previous = user.joinAttempt;
  if (previous?.status === 'pending' && user.fundingPending) return previous;
  const n = (previous?.n ?? 0) + 1;
  const next: JoinAttempt = {
    n,
    key: `JOIN#${user.userId}#${n}`,
    status: 'pending',
    cents: user.budgetCents ?? 0,
    ...(previous?.status === 'declined' && previous.declinedSince
      ? { declinedSince: previous.declinedSince }
      : {}),
  };
  await replaceAttempt(keys.user(user.userId), 'joinAttempt', next, previous?.key, { fundingPending: true });
  return next;
}

/**
 * A person became an active member: issue their card, charge their budget to
 * the manager's card, credit it. Without billing set up yet, nothing is charged
 * and they are funded when the manager finishes setup. The member stays
 * `fundingPending` from before the charge until the credit is posted, so a
 * crash anywhere in between leaves them to the retries (daily job, card change).
 * Nothing starts before the member has verified their e-mail (issue 24, attack
 * 2): whoever signed up with an address they cannot read gets no card and costs
 * nothing. An attempt already started goes on, so a charge taken is credited.
 */
export async function activateEmployee(userId: string, now: Date, log: Logger): Promise<ActivationResult> {
  const user = (await getUser(userId)) as MemberRecord | undefined;
  if (user?.role !== 'employee' || user.status !== 'active') return 'pendingBilling';
  if (!user.emailVerified && user.joinAttempt?.status !== 'pending') return 'awaitingVerification';
  const team = await getTeam(user.teamId);
  // No billing yet, or a suspended or closed subscription: charged and funded once it runs.
  if (!team?.stripeCustomerId || !team.billingAddress || !teamMayCharge(team)) {
    await setUserFields(userId, { fundingPending: true });
    return 'pendingBilling';
  }
  const attempt = await startJoinAttempt(user);
  const cardId = await ensureCard(user, team, now);
  let chargeId: string | undefined;
  let chargedTo: ChargedCard | undefined;
  if (attempt.cents > 0) {
    const result = await charge(
      {
        customerId: team.stripeCustomerId,
        amountCents: attempt.cents,
        description: `Learning budget for ${user.firstName} ${user.lastName}`,
        purpose: `JOIN#${userId}`,
        metadata: { teamId: team.teamId, userId, reason: 'join' },
      },
      attempt.key,
    );
    if (result.status === 'declined') {
      log.warn('joining charge declined', { userId, code: result.code, attempt: attempt.n });
      await replaceAttempt(
        keys.user(userId),
        'joinAttempt',
        { ...attempt, status: 'declined', declinedSince: attempt.declinedSince ?? now.toISOString() },
        attempt.key,
      );
      const alreadyPastDue = team.status === 'pastDue';
      await setTeamFields(team.teamId, {
        status: 'pastDue',
        pastDueSince: alreadyPastDue ? team.pastDueSince : now.toISOString(),
      });
      // The manager hears of each member's first decline, and of a team falling past due;
      // the daily retries of a card they already know is declined do not e-mail again.
      if (!alreadyPastDue || attempt.n === 1) await notifyDecline(team, attempt.cents, result.message);
      return 'declined';
    }
    chargeId = result.chargeId;
    chargedTo = result.card;
  }
  await creditJoin(user, attempt, chargeId, cardId, now, chargedTo);
  return 'funded';
}

/**
 * The second half of joining, once the charge is taken (or nothing was to be
 * charged): the credit, keyed `JOIN#<userId>`, then the member is no longer
 * pending, their debt is collected and the backstop raised.
 */
async function creditJoin(
  user: MemberRecord,
  attempt: JoinAttempt,
  chargeId: string | undefined,
  cardId: string | undefined,
  now: Date,
  /** The card on file the charge went to, when this run took it (the payments history names it). */
  chargedTo?: ChargedCard,
): Promise<void> {
  if (chargeId) {
    await post(
      funding({
        entryId: `JOIN#${user.userId}`,
        teamId: user.teamId,
        userId: user.userId,
        amountCents: attempt.cents,
        description: 'First learning budget',
        chargeId,
        card: chargedTo,
      }),
      now.toISOString(),
    );
    // Before the member stops being pending: a run cut off here is retried, and invoices once.
    await issueInvoice(user.teamId, chargeId, [`JOIN#${user.userId}`], now);
  }
  // Cleared only now that the credit is on the ledger.
  await replaceAttempt(
    keys.user(user.userId),
    'joinAttempt',
    { ...attempt, status: 'funded', fundedAt: now.toISOString() },
    attempt.key,
    { fundingPending: false },
  );
  await collectDebt(user.userId, user.teamId);
  if (cardId) await updateBackstop(user.userId, cardId);
}

/** A member's joining charge Stripe took whose credit never came (cut off after the charge), or undefined. */
async function takenJoin(userId: string) {
  const user = (await getUser(userId)) as MemberRecord | undefined;
  const attempt = user?.joinAttempt;
  if (!user?.fundingPending || attempt?.status !== 'pending' || attempt.cents <= 0) return undefined;
  const team = await getTeam(user.teamId);
  if (!team?.stripeCustomerId) return undefined;
  const chargeId = await succeededChargeFor(team.stripeCustomerId, `JOIN#${userId}`);
  return chargeId ? { user, attempt, chargeId } : undefined;
}

/**
 * Closing's half of "a charge taken is always credited", for joining: a member
 * whose joining charge was taken but not credited is credited from their
 * stored attempt, closed or not (activation credits nobody of a closed team).
 * Never charges. 'funded' when it credited.
 */
export async function finishTakenJoin(userId: string, now: Date): Promise<'funded' | 'nothing'> {
  const taken = await takenJoin(userId);
  if (!taken) return 'nothing';
  await creditJoin(taken.user, taken.attempt, taken.chargeId, taken.user.cardId, now);
  return 'funded';
}

/** What finishTakenJoin would credit now, in cents (0 when nothing). */
export async function takenJoinCents(userId: string): Promise<number> {
  return (await takenJoin(userId))?.attempt.cents ?? 0;
}
