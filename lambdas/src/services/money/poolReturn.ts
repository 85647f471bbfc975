/**
 * A removed person reactivated before the team's next cycle day (issue 28)
 * gets back what of their own money is still in the team pool: only that,
 * since the manager may have reallocated or redeemed part or all of it
 * meanwhile. It leaves the pool under the person's pool claim (poolClaim.ts),
 * as a reallocation or redemption does, so it never races them: a claim of
 * theirs still open is finished first (its own way, as closing does), and
 * then the rest is claimed for the return. The entry id derives from the
 * claim's pool state, so racing or retried reactivations post it once.
 */
import { fromPool, poolAccount } from '@shared/domain/ledger';
import { AppError } from '@shared/errors';
import { post, statement } from '../../data/ledger';
import { closePoolClaim, getPoolClaim, type PoolClaim } from '../../data/poolClaims';
import { claimPooledMoney } from './poolClaim';
import { finishReallocation } from './reallocation';
import { finishRedemption } from './redemption';

const entryIdOf = (claim: Pick<PoolClaim, 'userId' | 'stateId'>) =>
  `RESTORE#${claim.userId}#${claim.stateId}`;

/** Posts a restore claim's return (once: the id is the claim's) and closes the claim. */
export async function finishPoolReturn(claim: PoolClaim, now: Date): Promise<void> {
  await post(
    fromPool({
      entryId: entryIdOf(claim),
      teamId: claim.teamId,
      userId: claim.userId,
      amountCents: claim.amountCents,
    }),
    now.toISOString(),
  );
  await closePoolClaim(claim.userId, claim.stateId, now.toISOString());
}

/**
 * Gives `userId` back what is still pooled from them. Call it only once they
 * are active again (no manager's claim opens for an active person). Answers
 * the cents this call moved (0 when nothing was left, or a racing call moved it).
 */
export async function returnPooledMoney(teamId: string, userId: string, now: Date): Promise<number> {
  for (let attempt = 0; attempt < 3; attempt++) {
    // A reallocation or redemption opened before they were reactivated ends as it was planned.
    const open = await getPoolClaim(userId);
    if (open?.status === 'open' && open.teamId === teamId) {
      if (open.plan.op === 'redeem') await finishRedemption(open, open.plan, now);
      else if (open.plan.op === 'reallocate') await finishReallocation(open, open.plan, now);
    }
    try {
      const claim = await claimPooledMoney(
        { teamId },
        userId,
        'restore',
        async () => ({ op: 'restore' }),
        now,
      );
      if (!claim) return 0;
      await finishPoolReturn(claim, now);
      return claim.amountCents;
    } catch (error) {
      // A manager's claim opened between the two reads (it checked them removed just before): finish it, look again.
      if (!(error instanceof AppError && error.code === 'CONFLICT') || attempt === 2) throw error;
    }
  }
  return 0;
}

/**
 * Since `since` (a removal): what went to the pool from the person, and what
 * came back to them from it, in cents; the rest was reallocated or redeemed.
 */
export async function poolSince(
  teamId: string,
  userId: string,
  since: string,
): Promise<{ pooledCents: number; returnedCents: number }> {
  const lines = (await statement(poolAccount(teamId))).filter(
    (l) => l.references?.user === userId && l.postedAt >= since,
  );
  const sum = (kind: string) =>
    lines.filter((l) => l.kind === kind).reduce((s, l) => s + Math.abs(l.amountCents), 0);
  return { pooledCents: sum('poolTransfer'), returnedCents: sum('poolReturn') };
}
