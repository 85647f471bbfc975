/**
 * Redemption (spec §2): a removed employee's pooled money goes back to the
 * manager's card, less the fee, refunded to the team's own charges. Every
 * person is checked before any money moves; the plan is kept in the pool claim
 * so a retry finishes the same redemption rather than starting another. What a
 * request checked and which claims it took are kept with its Idempotency-Key,
 * so its retry after a run that died answers what that run returned.
 */
import {
  planRedemptionRefunds,
  type RedemptionRefund,
  redemption,
  redemptionQuote,
} from '@shared/domain/ledger';
import { AppError } from '@shared/errors';
import { refund } from '../../adapters/stripe';
import { getTeam } from '../../data/accounts';
import { post, teamJournal } from '../../data/ledger';
import { closePoolClaim, getPoolClaim, type PoolClaim, type PoolPlan } from '../../data/poolClaims';
import type { Actor } from '../../platform/auth';
import type { RequestSteps } from '../../platform/requestSteps';
import { issueInvoice } from '../invoices';
import { audit, teamEmployee } from '../team';
import { pooledFrom } from './pool';
import { asRule, deletedTeamEmployee, moneyReleased, pooledMoneyNow, takePooledMoney } from './poolClaim';
import { checkWithinLimit, reserveWithinLimit } from './velocityLimits';

const NOT_REMOVED = 'Only removed or dormant employees of your team can be redeemed.';
const UNDER_MINIMUM = 'Refund is not available for balances under $5.';

/** The team's charges (from funding entries), newest first, with what each can still take back. */
export async function refundableCharges(
  teamId: string,
): Promise<{ chargeId: string; refundableCents: number }[]> {
  const journal = await teamJournal(teamId);
  const byCharge = new Map<string, number>();
  for (const entry of journal) {
    const chargeId = entry.references?.charge;
    if (!chargeId) continue;
    const credited = entry.legs
      .filter((l) => l.account.startsWith('card:'))
      .reduce((s, l) => s + l.amountCents, 0);
    byCharge.set(chargeId, (byCharge.get(chargeId) ?? 0) + credited);
  }
  for (const entry of journal) {
    for (const r of entry.refunds ?? []) {
      byCharge.set(r.chargeId, (byCharge.get(r.chargeId) ?? 0) - r.amountCents);
    }
  }
  return [...byCharge]
    .map(([chargeId, refundableCents]) => ({ chargeId, refundableCents }))
    .filter((c) => c.refundableCents > 0)
    .reverse();
}

/**
 * Checks every person before any money moves, so a request naming one person
 * under the minimum changes nothing. A person whose money this same redemption
 * already returned (a retry after a partial failure) is skipped, not refused.
 */
async function redeemable(actor: Actor, deletedUserIds: string[]): Promise<string[]> {
  const people: string[] = [];
  for (const deletedId of deletedUserIds) {
    if (!(await deletedTeamEmployee(actor, deletedId))) throw new AppError('NOT_FOUND', NOT_REMOVED);
    const claim = await getPoolClaim(deletedId);
    if (claim?.status === 'open') {
      people.push(deletedId);
      continue;
    }
    const { cents } = await pooledFrom(actor.teamId, deletedId);
    if (cents === 0 && claim?.plan.op === 'redeem' && deletedUserIds.length > 1) continue;
    asRule(() => redemptionQuote(cents));
    people.push(deletedId);
  }
  if (people.length === 0) throw new AppError('RULE_VIOLATED', UNDER_MINIMUM);
  return people;
}

/**
 * Redeems removed employees' pooled money back to the manager's card, less the
 * fee (15% or $5, whichever is greater; not under $5). The net is refunded to
 * the team's own charges, newest first, split over several when one cannot
 * take it all. The plan is kept in the pool claim and each refund is made once
 * per purpose, so a retry (under any Idempotency-Key) finishes the same
 * redemption rather than starting another. The net is counted against the
 * team's daily redemption limit before any refund (refused with the limit
 * named, nothing refunded); a request that fails midway keeps its count. The
 * check and the claims are the request's steps: its retry after a run that
 * died is not checked again against a pool that run emptied, and answers the
 * amounts and fees of the claims it took.
 */
export async function redeem(
  actor: Actor,
  deletedUserIds: string[],
  now: Date,
  key: string,
  steps: RequestSteps,
) {
  const people = await steps.once('redemption', async () => {
    const checked = await redeemable(actor, [...new Set(deletedUserIds)]);
    // The daily redemption limit, before any refund. Money an interrupted earlier
    // request already claimed was counted by that request, so only new money is.
    const { newNetCents } = await redemptionPlan(actor, checked);
    if (newNetCents > 0)
      await reserveWithinLimit(await teamOf(actor), 'redemption', `REDEEM#${key}`, newNetCents, now);
    return checked;
  });
  let total = 0;
  let fees = 0;
  for (const deletedId of people) {
    const took = await takePooledMoney(
      actor,
      deletedId,
      'redeem',
      async (cents) => {
        const { feeCents, netCents } = asRule(() => redemptionQuote(cents));
        const charges = await refundableCharges(actor.teamId);
        return {
          op: 'redeem',
          feeCents,
          refunds: asRule(() => planRedemptionRefunds(netCents, charges)),
        };
      },
      now,
      steps,
    );
    // Nothing of theirs is left in the pool: the same words as for a small balance.
    if (!took) throw new AppError('RULE_VIOLATED', UNDER_MINIMUM);
    const { taken, claim } = took;
    total += taken.amountCents;
    fees += taken.feeCents ?? 0;
    // A done claim (or one since replaced by a later one) was finished before.
    if (claim?.status !== 'open' || claim.plan.op !== 'redeem') continue;
    await finishRedemption(claim, claim.plan, now);
  }
  // Once per request: a retry finishing it does not log the redemption again.
  await steps.once('audited', async () => {
    await audit(actor, 'funds.redeemed', now, {
      // One person's money: they are the row's "To whom", as on the ledger's own row beside it.
      ...(people.length === 1 ? { targetId: people[0] } : {}),
      after: { from: deletedUserIds, totalCents: total, feeCents: fees },
    });
    return true;
  });
  return { amountCents: total, feeCents: fees };
}

/**
 * Carries out an open redemption claim's plan: each planned refund once per
 * purpose (a refund already made for it is found, not made again), then the
 * one posting that takes the claimed money out of the pool with the refunds
 * on it, then the claim closes. The request that opened the claim, its retry,
 * or closing the subscription may run it, even at once: they make the same
 * refunds and post the same entry, once.
 */
export async function finishRedemption(
  claim: PoolClaim,
  plan: Extract<PoolPlan, { op: 'redeem' }>,
  now: Date,
): Promise<void> {
  const entryId = `REDEEM#${claim.userId}#${claim.stateId}`;
  const refunds: RedemptionRefund[] = [];
  for (const part of plan.refunds) {
    const refundId = await refund({
      chargeId: part.chargeId,
      amountCents: part.amountCents,
      purpose: `${entryId}#${part.chargeId}`,
      // The same parameters whoever sends it: Stripe refuses a key reused with others.
      metadata: { teamId: claim.teamId, userId: claim.userId },
    });
    refunds.push({ ...part, refundId });
  }
  await post(
    redemption({
      entryId,
      teamId: claim.teamId,
      amountCents: claim.amountCents,
      refunds,
      fromUserId: claim.userId,
    }),
    now.toISOString(),
  );
  // The credit note, before the claim closes: whoever finishes the claim makes it, once.
  await issueInvoice(claim.teamId, entryId, [entryId], now);
  await closePoolClaim(claim.userId, claim.stateId, now.toISOString());
}

/**
 * What `redeem` would do, without writing anything: per person the amount, the
 * fee and the net from the same redemptionQuote (or an open claim's own plan),
 * refused for the same reasons (under $5, nothing left after the fee, more than
 * the team's earlier charges can take back).
 */
export async function previewRedemption(actor: Actor, deletedUserIds: string[], now: Date) {
  const { preview, newNetCents } = await redemptionPlan(actor, deletedUserIds);
  if (newNetCents > 0) await checkWithinLimit(await teamOf(actor), 'redemption', newNetCents, now);
  return preview;
}

async function teamOf(actor: Actor) {
  const team = await getTeam(actor.teamId);
  if (!team) throw new AppError('NOT_FOUND', 'No such team.');
  return team;
}

/** The preview's figures, and the net of those not already under way (`newNetCents`). */
async function redemptionPlan(actor: Actor, deletedUserIds: string[]) {
  const people: { userId: string; amountCents: number; feeCents: number; netCents: number }[] = [];
  // Net of those not already under way (an open claim's refunds are planned already).
  let newNetCents = 0;
  for (const deletedId of new Set(deletedUserIds)) {
    const user = await teamEmployee(actor, deletedId);
    if (!moneyReleased(user)) throw new AppError('NOT_FOUND', NOT_REMOVED);
    const { cents, plan } = await pooledMoneyNow(actor, deletedId, 'redeem');
    if (plan?.op === 'redeem') {
      people.push({
        userId: deletedId,
        amountCents: cents,
        feeCents: plan.feeCents,
        netCents: cents - plan.feeCents,
      });
      continue;
    }
    if (cents === 0) throw new AppError('RULE_VIOLATED', UNDER_MINIMUM);
    const quote = asRule(() => redemptionQuote(cents));
    people.push({ userId: deletedId, ...quote });
    newNetCents += quote.netCents;
  }
  const sum = (pick: (p: (typeof people)[number]) => number) => people.reduce((s, p) => s + pick(p), 0);
  const netCents = sum((p) => p.netCents);
  // The refunds go back to the team's own charges: refuse now what the redemption would refuse then.
  const charges = await refundableCharges(actor.teamId);
  if (newNetCents > 0) asRule(() => planRedemptionRefunds(newNetCents, charges));
  return {
    preview: { amountCents: sum((p) => p.amountCents), feeCents: sum((p) => p.feeCents), netCents, people },
    newNetCents,
  };
}
