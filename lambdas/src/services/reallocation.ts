/**
 * Reallocation (spec §2): a removed employee's pooled money is shared out among
 * chosen active employees (or all of them), posted in parts that each fit the
 * ledger's leg limit. Entry ids come from the pool claim, so a retry posts the
 * same parts once; receivers' card backstops follow and the move is audited.
 */
import type { z } from 'zod';
import { reallocationPart, reallocationShares } from '../../../shared/src/domain/ledger';
import { AppError } from '../../../shared/src/errors';
import type { reallocateInput } from '../../../shared/src/schemas/team';
import { listTeamUsers } from '../data/accounts';
import { MAX_LEGS, post } from '../data/ledger';
import { closePoolClaim } from '../data/poolClaims';
import type { Actor } from '../platform/auth';
import { updateBackstop } from './cardBackstop';
import { asRule, claimPooledMoney, deletedTeamEmployee } from './poolClaim';
import { audit } from './teamScope';

/** Receivers per reallocation posting: a posting's leg limit, less the pool's leg. */
const SHARES_PER_POSTING = MAX_LEGS - 1;

export async function reallocate(actor: Actor, input: z.output<typeof reallocateInput>, now: Date) {
  // One read of the team serves the receivers' check, "all employees" and the backstops.
  const team = new Map((await listTeamUsers(actor.teamId)).map((u) => [u.userId, u]));
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
  let total = 0;
  const shares = new Map<string, number>();
  for (const deletedId of input.deletedUserIds) {
    if (!(await deletedTeamEmployee(actor, deletedId)))
      throw new AppError('NOT_FOUND', 'Only removed employees of your team can be reallocated.');
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
    for (const share of planned)
      shares.set(share.userId, (shares.get(share.userId) ?? 0) + share.amountCents);
  }
  if (total === 0) throw new AppError('RULE_VIOLATED', 'There is no remaining budget to reallocate.');
  for (const id of shares.keys()) {
    const cardId = team.get(id)?.cardId;
    if (cardId) await updateBackstop(id, cardId);
  }
  await audit(actor, 'funds.reallocated', now, {
    after: { from: input.deletedUserIds, totalCents: total, shares: Object.fromEntries(shares) },
  });
  return {
    amountCents: total,
    shares: [...shares].map(([userId, amountCents]) => ({ userId, amountCents })),
  };
}
