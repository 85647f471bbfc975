/**
 * Reallocation (spec §2): a removed employee's pooled money is shared out among
 * chosen active employees (or all of them), posted in parts that each fit the
 * ledger's leg limit. Entry ids come from the pool claim, so a retry posts the
 * same parts once; receivers' card backstops follow and the move is audited.
 * What a request checked and which claims it took are kept with its
 * Idempotency-Key: its retry after a run that died answers what that run
 * moved, rather than finding the money gone and refusing.
 */

import {
  cardAccount,
  combineShares,
  reallocationPart,
  reallocationShares,
  type Share,
} from '@shared/domain/ledger';
import { AppError } from '@shared/errors';
import type { reallocateInput } from '@shared/schemas/team';
import type { z } from 'zod';
import { getTeam, listTeamUsers } from '../../data/accounts';
import { getJournal, MAX_LEGS, post } from '../../data/ledger';
import { closePoolClaim, type PoolClaim, type PoolPlan } from '../../data/poolClaims';
import type { UserRecord } from '../../data/users';
import type { Actor } from '../../platform/auth';
import type { RequestSteps } from '../../platform/requestSteps';
import { updateBackstop } from '../cards';
import { audit, teamEmployee } from '../team';
import {
  asRule,
  deletedTeamEmployee,
  moneyReleased,
  pooledMoneyNow,
  type TakenClaim,
  takePooledMoney,
} from './poolClaim';

/** Receivers per reallocation posting: a posting's leg limit, less the pool's leg. */
const SHARES_PER_POSTING = MAX_LEGS - 1;

type TeamUsers = Map<string, UserRecord>;

/** The receivers a request names (or every active employee), each checked to be a member of the team. */
function receiversOf(team: TeamUsers, input: z.output<typeof reallocateInput>): string[] {
  const receivers = input.allEmployees
    ? [...team.values()].filter((u) => u.role === 'employee' && u.status === 'active').map((u) => u.userId)
    : input.receiverIds;
  if (receivers.length === 0)
    throw new AppError(
      'VALIDATION_FAILED',
      'Please select at least one employee to receive the reallocation',
      { fields: { receiverIds: 'Please select at least one employee to receive the reallocation' } },
    );
  for (const id of receivers) {
    const user = team.get(id);
    if (user?.role !== 'employee' || user.status === 'deleted')
      throw new AppError('NOT_FOUND', 'A receiving employee is not an active member of your team.');
  }
  return receivers;
}

const NOT_REMOVED = 'Only removed or dormant employees of your team can be reallocated.';
const NOTHING_LEFT = 'There is no remaining budget to reallocate.';

/**
 * What `reallocate` would post, without writing anything: the same receivers,
 * the same per-person split (reallocationShares, or an open claim's own plan)
 * and the same sum per receiver, so the shares shown before confirming are the
 * ones the ledger then records (unless the pool changes in between).
 */
export async function previewReallocation(actor: Actor, input: z.output<typeof reallocateInput>) {
  const team: TeamUsers = new Map((await listTeamUsers(actor.teamId)).map((u) => [u.userId, u]));
  const receivers = receiversOf(team, input);
  let total = 0;
  const plans: Share[][] = [];
  for (const deletedId of new Set(input.deletedUserIds)) {
    const user = await teamEmployee(actor, deletedId);
    if (!moneyReleased(user)) throw new AppError('NOT_FOUND', NOT_REMOVED);
    const { cents, plan } = await pooledMoneyNow(actor, deletedId, 'reallocate');
    if (cents <= 0) continue;
    plans.push(plan?.op === 'reallocate' ? plan.shares : asRule(() => reallocationShares(cents, receivers)));
    total += cents;
  }
  if (total === 0) throw new AppError('RULE_VIOLATED', NOTHING_LEFT);
  return { amountCents: total, shares: combineShares(plans) };
}

const partId = (deletedId: string, stateId: string, part: number) =>
  `REALLOCATE#${deletedId}#${stateId}#${part}`;

/**
 * Posts the parts of a claim this request took and closes it; answers its
 * shares. A retry may find the claim finished (by the run that died, or by a
 * request that resumed it), or even replaced by a later one: its parts are
 * then on the ledger, and the shares are read back from them.
 */
async function finishClaim(
  teamId: string,
  deletedId: string,
  taken: TakenClaim,
  claim: PoolClaim | undefined,
  now: Date,
): Promise<Share[]> {
  if (claim?.plan.op !== 'reallocate') return postedShares(deletedId, taken.stateId);
  // Resuming an interrupted claim posts its own plan, which may name other receivers than asked here.
  if (claim.status === 'open') await finishReallocation({ ...claim, teamId }, claim.plan, now);
  return claim.plan.shares;
}

/**
 * Carries out an open reallocation claim's plan: its parts posted (each id
 * derived from the claim, so a part posted before is a duplicate), then the
 * claim closes. The request that opened the claim, its retry, or closing the
 * subscription may run it, even at once: each part is posted once.
 */
export async function finishReallocation(
  claim: PoolClaim,
  plan: Extract<PoolPlan, { op: 'reallocate' }>,
  now: Date,
): Promise<void> {
  for (let i = 0; i < plan.shares.length; i += SHARES_PER_POSTING) {
    await post(
      reallocationPart({
        entryId: partId(claim.userId, claim.stateId, i / SHARES_PER_POSTING + 1),
        teamId: claim.teamId,
        shares: plan.shares.slice(i, i + SHARES_PER_POSTING),
        fromUserId: claim.userId,
      }),
      now.toISOString(),
    );
  }
  await closePoolClaim(claim.userId, claim.stateId, now.toISOString());
}

/**
 * The receiver's backstop after their credit. Closing the subscription may
 * cancel the card at the issuer in between (it finishes this reallocation's
 * claim first, then cancels every card), and Stripe refuses to change a
 * cancelled card: that needs no backstop, as it spends nothing. Closing marks
 * the team closed before it cancels any card, so a refusal on a closed team is that.
 */
async function raiseBackstop(teamId: string, userId: string, cardId: string): Promise<void> {
  try {
    await updateBackstop(userId, cardId);
  } catch (error) {
    if ((await getTeam(teamId))?.subscription === 'closed') return;
    throw error;
  }
}

/** The shares a finished claim posted, from its parts on the ledger. */
async function postedShares(deletedId: string, stateId: string): Promise<Share[]> {
  const shares: Share[] = [];
  for (let part = 1; ; part++) {
    const entry = await getJournal(partId(deletedId, stateId, part));
    if (!entry) return shares;
    for (const leg of entry.legs)
      if (leg.account.startsWith(cardAccount('')))
        shares.push({ userId: leg.account.slice(cardAccount('').length), amountCents: leg.amountCents });
  }
}

export async function reallocate(
  actor: Actor,
  input: z.output<typeof reallocateInput>,
  now: Date,
  steps: RequestSteps,
) {
  // One read of the team serves the receivers' check, "all employees" and the backstops.
  const team: TeamUsers = new Map((await listTeamUsers(actor.teamId)).map((u) => [u.userId, u]));
  // Checked once per request: its retry is not refused for what its first run changed.
  const { receivers, givers } = await steps.once('reallocation', async () => {
    const named = receiversOf(team, input);
    const removed = [...new Set(input.deletedUserIds)];
    // Everyone named is checked before anyone's money moves: a refusal moves nothing.
    for (const deletedId of removed)
      if (!(await deletedTeamEmployee(actor, deletedId))) throw new AppError('NOT_FOUND', NOT_REMOVED);
    return { receivers: named, givers: removed };
  });
  let total = 0;
  const plans: Share[][] = [];
  for (const deletedId of givers) {
    const took = await takePooledMoney(
      actor,
      deletedId,
      'reallocate',
      async (cents) => ({ op: 'reallocate', shares: asRule(() => reallocationShares(cents, receivers)) }),
      now,
      steps,
    );
    if (!took) continue;
    plans.push(await finishClaim(actor.teamId, deletedId, took.taken, took.claim, now));
    total += took.taken.amountCents;
  }
  if (total === 0) throw new AppError('RULE_VIOLATED', NOTHING_LEFT);
  const shares = combineShares(plans);
  for (const { userId } of shares) {
    const cardId = team.get(userId)?.cardId;
    if (cardId) await raiseBackstop(actor.teamId, userId, cardId);
  }
  // Once per request: a retry finishing it does not log the move again.
  await steps.once('audited', async () => {
    await audit(actor, 'funds.reallocated', now, {
      // One person's money: they are the row's "To whom"; the receivers and their shares are in `after`.
      ...(givers.length === 1 ? { targetId: givers[0] } : {}),
      after: {
        from: input.deletedUserIds,
        totalCents: total,
        shares: Object.fromEntries(shares.map((s) => [s.userId, s.amountCents])),
      },
    });
    return true;
  });
  return { amountCents: total, shares };
}
