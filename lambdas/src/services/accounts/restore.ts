/**
 * Reactivating a removed employee (issue 28: "reactivation before the next
 * cycle restores the person and their card"). Before the team's first billing
 * day after the removal, the person comes back as they were: the same user id
 * and sign-in, active, the same budget, billed again from the next cycle; a
 * new virtual card (the cancelled one cannot be reactivated at the issuer);
 * and what of their own money is still in the team pool back on it, through
 * the ledger (services/money/poolReturn.ts): what the manager reallocated or
 * redeemed meanwhile stays where it went. From that billing day on, the cycle
 * they left is over and they cannot be reactivated (docs/scim.md).
 *
 * Once, however often or concurrently asked: the first write (deleted to
 * active, conditioned on the removal read) has one winner, and marks the user
 * `restoring`; every later step is idempotent (the issuer's key, the pool
 * claim's entry id), so a run cut off is resumed by the next request; the mark
 * is cleared in the transaction that writes the audit entry, so it is written once.
 */
import { mayReactivate, reactivationDeadline } from '@shared/domain/billingCycle';
import { dayIn, formatUsDay } from '@shared/domain/calendar';
import { AppError } from '@shared/errors';
import { enableUser } from '../../adapters/cognito';
import { getTeam, zoneOf } from '../../data/accounts';
import { type AuditEvent, auditTransactItem } from '../../data/audit';
import { isConditionFailure, tableName, updateFields } from '../../data/client';
import { keys } from '../../data/keys';
import { failedConditionItems, sendTransaction } from '../../data/transactions';
import { getUserNow, type UserRecord } from '../../data/users';
import { issueReplacementCard } from '../billing';
import { updateBackstop } from '../cards';
import { poolSince, returnPooledMoney } from '../money';

export interface Restored {
  /** This call finished the reactivation and wrote its audit entry; false when it was done already. */
  restored: boolean;
  cardId?: string;
  /** What went to the team pool from them since the removal, in cents. */
  pooledCents: number;
  /** What of it came back to their card; the rest had been reallocated or redeemed. */
  returnedCents: number;
}

/** Refused unless the team's first billing day after the removal is still ahead (and the team not closed). */
function checkRestorable(user: UserRecord, team: Awaited<ReturnType<typeof getTeam>>, now: Date) {
  if (!team || team.subscription === 'closed')
    throw new AppError('RULE_VIOLATED', 'This subscription is closed: nobody can be reactivated.');
  if (!user.deletedAt)
    throw new AppError('RULE_VIOLATED', 'This person was removed before reactivation existed.');
  if (team.cycleDay && !mayReactivate(Number(team.cycleDay), new Date(user.deletedAt), now)) {
    const removed = formatUsDay(dayIn(user.deletedAt, zoneOf(team)));
    const deadline = formatUsDay(reactivationDeadline(Number(team.cycleDay), new Date(user.deletedAt)));
    throw new AppError(
      'RULE_VIOLATED',
      `This person was removed on ${removed}; a removed person can be reactivated only until the team's ` +
        `next billing day (${deadline}), which has passed: their card and money stayed with the cycle they left.`,
    );
  }
}

/**
 * Restores a removed (or half-restored) employee. Throws RULE_VIOLATED with
 * the reason when they may not be; `audit` makes the entry written on finishing.
 */
export async function restoreMember(
  target: UserRecord,
  now: Date,
  audit: (outcome: Omit<Restored, 'restored'>) => AuditEvent,
): Promise<Restored> {
  const team = await getTeam(target.teamId);
  let user: UserRecord | undefined = target;
  if (user.status === 'deleted') {
    checkRestorable(user, team, now);
    const restoring = { deletedAt: user.deletedAt as string, since: now.toISOString() };
    try {
      // Back in the team's quiet list (gsi4) under the clock they had, if one had started.
      const quiet = user.quietSince ? keys.userByQuietSince(user.teamId, user.quietSince, user.userId) : {};
      await updateFields(
        keys.user(user.userId),
        { status: 'active', restoring, ...quiet },
        {
          // Their last day, if that removed them, is over: the daily job must not remove them again.
          remove: ['deletedAt', 'lastDay', 'gsi3pk', 'gsi3sk'],
          condition: {
            expression: '#status = :deleted AND deletedAt = :deletedAt',
            names: { '#status': 'status' },
            values: { ':deleted': 'deleted', ':deletedAt': restoring.deletedAt },
          },
        },
      );
      user = { ...user, status: 'active', restoring };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // Another request reactivated them a moment ago: go on with theirs (every step is idempotent).
      user = await getUserNow(target.userId);
    }
  }
  const restoring = user?.restoring;
  if (!user || !team || !restoring) {
    return { restored: false, cardId: user?.cardId, pooledCents: 0, returnedCents: 0 };
  }
  await enableUser(user.email);
  const current = (await getUserNow(user.userId)) ?? user;
  const cardId = team.billingAddress ? await issueReplacementCard(current, team, now) : current.cardId;
  await returnPooledMoney(team.teamId, user.userId, now);
  if (cardId) await updateBackstop(user.userId, cardId);
  const { pooledCents, returnedCents } = await poolSince(team.teamId, user.userId, restoring.deletedAt);
  const outcome = { cardId, pooledCents, returnedCents };
  try {
    await sendTransaction([
      {
        Update: {
          TableName: tableName(),
          Key: keys.user(user.userId),
          UpdateExpression: 'REMOVE restoring',
          ConditionExpression: 'restoring.since = :since',
          ExpressionAttributeValues: { ':since': restoring.since },
        },
      },
      auditTransactItem(audit(outcome), `employee.reactivated#${user.userId}#${restoring.since}`),
    ]);
  } catch (error) {
    if (failedConditionItems(error).length > 0) return { restored: false, ...outcome };
    throw error;
  }
  return { restored: true, ...outcome };
}
