/**
 * Reallocation (spec §2): a removed employee's pooled money is shared out among
 * chosen active employees (or all of them), posted in parts that each fit the
 * ledger's leg limit. Entry ids come from the pool claim, so a retry posts the
 * same parts once; receivers' card backstops follow and the move is audited.
 */

import { combineShares, reallocationPart, reallocationShares, type Share } from '@shared/domain/ledger';
import { AppError } from '@shared/errors';
import type { reallocateInput } from '@shared/schemas/team';
import type { z } from 'zod';
import { listTeamUsers } from '../../data/accounts';
import { MAX_LEGS, post } from '../../data/ledger';
import { closePoolClaim } from '../../data/poolClaims';
import type { UserRecord } from '../../data/users';
import type { Actor } from '../../platform/auth';
import { updateBackstop } from '../cards';
import { audit, teamEmployee } from '../team';
import { asRule, claimPooledMoney, deletedTeamEmployee, moneyReleased, pooledMoneyNow } from './poolClaim';

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

export async function reallocate(actor: Actor, input: z.output<typeof reallocateInput>, now: Date) {
  // One read of the team serves the receivers' check, "all employees" and the backstops.
  const team: TeamUsers = new Map((await listTeamUsers(actor.teamId)).map((u) => [u.userId, u]));
  const receivers = receiversOf(team, input);
  const givers = [...new Set(input.deletedUserIds)];
  // Everyone named is checked before anyone's money moves: a refusal moves nothing.
  for (const deletedId of givers)
    if (!(await deletedTeamEmployee(actor, deletedId))) throw new AppError('NOT_FOUND', NOT_REMOVED);
  let total = 0;
  const plans: Share[][] = [];
  for (const deletedId of givers) {
    const claim = await claimPooledMoney(
      actor,
      deletedId,
      'reallocate',
      async (cents) => ({ op: 'reallocate', shares: asRule(() => reallocationShares(cents, receivers)) }),
      now,
    );
    if (claim?.plan.op !== 'reallocate') continue;
    // Resuming an interrupted claim posts its own plan, which may name other receivers than asked here.
    const planned = claim.plan.shares;
    for (let i = 0; i < planned.length; i += SHARES_PER_POSTING) {
      await post(
        reallocationPart({
          entryId: `REALLOCATE#${deletedId}#${claim.stateId}#${i / SHARES_PER_POSTING + 1}`,
          teamId: actor.teamId,
          shares: planned.slice(i, i + SHARES_PER_POSTING),
          fromUserId: deletedId,
        }),
        now.toISOString(),
      );
    }
    await closePoolClaim(deletedId, claim.stateId, now.toISOString());
    total += claim.amountCents;
    plans.push(planned);
  }
  if (total === 0) throw new AppError('RULE_VIOLATED', NOTHING_LEFT);
  const shares = combineShares(plans);
  for (const { userId } of shares) {
    const cardId = team.get(userId)?.cardId;
    if (cardId) await updateBackstop(userId, cardId);
  }
  await audit(actor, 'funds.reallocated', now, {
    // One person's money: they are the row's "To whom"; the receivers and their shares are in `after`.
    ...(givers.length === 1 ? { targetId: givers[0] } : {}),
    after: {
      from: input.deletedUserIds,
      totalCents: total,
      shares: Object.fromEntries(shares.map((s) => [s.userId, s.amountCents])),
    },
  });
  return { amountCents: total, shares };
}
