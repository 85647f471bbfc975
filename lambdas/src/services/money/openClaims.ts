/**
 * Closing the subscription takes the whole team pool. Once the team is marked
 * closed no pool claim opens (data/poolClaims.ts), so the claims it must deal
 * with are the ones opened before: each is finished here, its own way (the
 * redemption's refunds and entry, the reallocation's parts), exactly as the
 * request that opened it would finish it. Only then does closing read the
 * pool and plan its own refunds, so nothing is planned twice (issue 24,
 * attack 5).
 */
import { getPoolClaims } from '../../data/poolClaims';
import { finishPoolReturn } from './poolReturn';
import { finishReallocation } from './reallocation';
import { finishRedemption } from './redemption';

/**
 * Finishes every open pool claim of the team's people (`userIds`): for a team
 * already marked closed, after this the pool is closing's alone. Idempotent:
 * a claim finished meanwhile (by its own request) posts duplicates and changes
 * nothing; a crash part-way is resumed by running it again. Answers how many
 * claims it finished.
 */
export async function finishOpenPoolClaims(teamId: string, userIds: string[], now: Date): Promise<number> {
  const open = (await getPoolClaims(userIds)).filter((c) => c.status === 'open' && c.teamId === teamId);
  for (const claim of open) {
    if (claim.plan.op === 'redeem') await finishRedemption(claim, claim.plan, now);
    else if (claim.plan.op === 'restore') await finishPoolReturn(claim, now);
    else await finishReallocation(claim, claim.plan, now);
  }
  return open.length;
}
