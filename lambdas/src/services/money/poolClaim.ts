/**
 * How a removed employee's pooled money leaves the pool, shared by reallocation
 * and redemption: one claim at a time per person, holding the plan of where the
 * money goes, so a retry or a racing request finishes the same plan instead of
 * moving the money twice. The claim a request takes is kept with its
 * Idempotency-Key (`takePooledMoney`), so the request's own retry after it
 * died finishes that claim, even once it is done. Also turns the ledger's
 * pure rules into the errors the manager sees.
 */
import { cardAccount, InvalidPosting } from '@shared/domain/ledger';
import { AppError } from '@shared/errors';
import { balanceOf } from '../../data/ledger';
import { getPoolClaim, openPoolClaim, type PoolClaim, type PoolPlan } from '../../data/poolClaims';
import type { UserRecord } from '../../data/users';
import type { Actor } from '../../platform/auth';
import type { RequestSteps } from '../../platform/requestSteps';
import { teamEmployee } from '../team';
import { pooledFrom, sweepToPool } from './pool';

/**
 * Whose money a manager may move without deleting them: a removed employee, or
 * a dormant one (card inactive and paused after 13 months without a purchase).
 */
export function moneyReleased(user: UserRecord | undefined): boolean {
  if (!user) return false;
  return user.status === 'deleted' || (user.status === 'paused' && Boolean(user.dormancy?.deactivatedAt));
}

/**
 * A removed or dormant employee of the actor's team, their card's money swept
 * into the pool first (a dormant person's card is inactive, so nothing spends
 * it meanwhile); undefined for anyone else.
 */
export async function deletedTeamEmployee(actor: Actor, userId: string) {
  const user = await teamEmployee(actor, userId);
  if (!moneyReleased(user) || !user) return undefined;
  await sweepToPool(user, user.status === 'deleted' ? 'removed' : 'dormant');
  return user;
}

/** Turns a rule of the ledger's pure functions into the error the manager sees. */
export function asRule<T>(compute: () => T): T {
  try {
    return compute();
  } catch (error) {
    if (error instanceof InvalidPosting) throw new AppError('RULE_VIOLATED', error.message);
    throw error;
  }
}

export const BUSY: Record<PoolPlan['op'], string> = {
  reallocate: 'This person’s remaining budget is being reallocated right now; please try again in a moment.',
  redeem: 'This person’s remaining budget is being redeemed right now; please try again in a moment.',
  restore: 'This person was reactivated: their remaining budget is going back to their card.',
};

/** Refused because closing the subscription took the pool first (it redeems or keeps all of it). */
export const CLOSING =
  'Your subscription is being closed right now; the remaining budget in the pool is redeemed or kept with it.';

/**
 * The claim under which a removed employee's pooled money leaves the pool: the
 * open one, resumed with its plan (when it is for the same operation), or a new
 * one planned from the pool as it is now. Undefined when nothing of theirs is
 * left in the pool. No new claim opens once the team is marked closed: closing
 * takes the whole pool (409 CLOSING); a claim opened before that is finished
 * by closing, or by this request, whichever comes first, the same way.
 */
export async function claimPooledMoney(
  actor: Pick<Actor, 'teamId'>,
  deletedId: string,
  op: PoolPlan['op'],
  plan: (amountCents: number) => Promise<PoolPlan>,
  now: Date,
): Promise<PoolClaim | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await getPoolClaim(deletedId);
    if (current?.status === 'open') {
      if (current.plan.op !== op) throw new AppError('CONFLICT', BUSY[current.plan.op]);
      return current;
    }
    const { cents, stateId } = await pooledFrom(actor.teamId, deletedId);
    if (cents <= 0 || !stateId) return undefined;
    const claim = {
      userId: deletedId,
      teamId: actor.teamId,
      stateId,
      amountCents: cents,
      plan: await plan(cents),
      openedAt: now.toISOString(),
    };
    const opened = await openPoolClaim(claim);
    if (opened === 'opened') return { ...claim, status: 'open' };
    if (opened === 'closed') throw new AppError('CONFLICT', CLOSING);
    // Another request opened one between our read and write: look again.
  }
  throw new AppError('CONFLICT', BUSY[op]);
}

/** The claim a request took on one person's money, as kept with its Idempotency-Key. */
export interface TakenClaim {
  stateId: string;
  amountCents: number;
  /** A redemption's fee, from its plan. */
  feeCents?: number;
}

/**
 * claimPooledMoney, decided once per request (its step `<op>#<person>`): the
 * request's retry after a run that died gets the claim that run took, not a
 * fresh look at a pool that claim has already emptied. Answers what was taken
 * and the claim as stored now, while it is still that claim (open: to finish;
 * done: finished); `claim` is missing once it was finished and replaced by a
 * later one. Undefined when nothing of theirs was left to take.
 */
export async function takePooledMoney(
  actor: Actor,
  deletedId: string,
  op: PoolPlan['op'],
  plan: (amountCents: number) => Promise<PoolPlan>,
  now: Date,
  steps: RequestSteps,
): Promise<{ taken: TakenClaim; claim?: PoolClaim } | undefined> {
  let fresh = undefined as PoolClaim | undefined;
  const taken = await steps.once(`${op}#${deletedId}`, async (): Promise<TakenClaim | undefined> => {
    fresh = await claimPooledMoney(actor, deletedId, op, plan, now);
    if (fresh?.plan.op !== op) return undefined;
    const { stateId, amountCents } = fresh;
    return { stateId, amountCents, ...(fresh.plan.op === 'redeem' ? { feeCents: fresh.plan.feeCents } : {}) };
  });
  if (!taken) return undefined;
  const claim = fresh ?? (await getPoolClaim(deletedId));
  return claim?.stateId === taken.stateId && claim.plan.op === op ? { taken, claim } : { taken };
}

/**
 * Read-only: what would leave the pool for a removed employee if the manager
 * acted now - the open claim's amount and plan (the action would resume it), or
 * what is pooled plus what their card still holds (the action sweeps it first).
 * The previews use this so they write nothing, not even the sweep.
 */
export async function pooledMoneyNow(
  actor: Actor,
  deletedId: string,
  op: PoolPlan['op'],
): Promise<{ cents: number; plan?: PoolPlan }> {
  const claim = await getPoolClaim(deletedId);
  if (claim?.status === 'open') {
    if (claim.plan.op !== op) throw new AppError('CONFLICT', BUSY[claim.plan.op]);
    return { cents: claim.amountCents, plan: claim.plan };
  }
  const [{ cents }, onCard] = await Promise.all([
    pooledFrom(actor.teamId, deletedId),
    balanceOf(cardAccount(deletedId)),
  ]);
  return { cents: cents + Math.max(0, onCard) };
}
