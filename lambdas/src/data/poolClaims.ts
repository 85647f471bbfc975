/**
 * A removed employee's pooled money leaves the pool through one claim at a
 * time: the claim records what is being done (reallocate, redeem, or give
 * it back to the person, reactivated), from
 * which pool state, and the whole plan (shares, or fee and refunds). A retry,
 * a crash or a racing request resumes the open claim's plan instead of
 * planning again, so the money leaves once, the way first decided, even when
 * it takes several postings or outside refunds.
 *
 * Closing the subscription takes the whole pool: no claim opens once the team
 * is marked closed (the opening is conditioned on the team item), and closing
 * finishes the claims opened before that (issue 24, attack 5).
 */
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  GetCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { Share } from '@shared/domain/ledger';
import { db, isConditionFailure, tableName } from './client';
import { keys } from './keys';
import { failedConditionItems, sendTransaction } from './transactions';

export type PoolPlan =
  | { op: 'reallocate'; shares: Share[] }
  | { op: 'redeem'; feeCents: number; refunds: { chargeId: string; amountCents: number }[] }
  /** The person was reactivated (issue 28): what is still pooled from them goes back to their card. */
  | { op: 'restore' };

export interface PoolClaim {
  userId: string;
  teamId: string;
  /** The removed employee's last pool entry when planned: entry ids derive from it. */
  stateId: string;
  amountCents: number;
  plan: PoolPlan;
  status: 'open' | 'done';
  openedAt: string;
}

export async function getPoolClaim(userId: string): Promise<PoolClaim | undefined> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.poolClaim(userId), ConsistentRead: true }),
  );
  return result.Item as PoolClaim | undefined;
}

/**
 * Opens a claim unless another is open (`taken`: someone else opened one
 * first) or the claim's team is closed or closing (`closed`: closing takes the
 * whole pool). One transaction: the claim's put and a check of the team item,
 * so a claim either opened before the team was marked closed (and closing
 * finishes it) or not at all.
 */
export async function openPoolClaim(
  claim: Omit<PoolClaim, 'status'>,
): Promise<'opened' | 'taken' | 'closed'> {
  try {
    await sendTransaction([
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.poolClaim(claim.userId), entity: 'PoolClaim', ...claim, status: 'open' },
          // A done claim of an earlier state may be replaced; an open one, or this state's, not.
          ConditionExpression: 'attribute_not_exists(pk) OR (#status = :done AND stateId <> :state)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':done': 'done', ':state': claim.stateId },
        },
      },
      {
        ConditionCheck: {
          TableName: tableName(),
          Key: keys.team(claim.teamId),
          ConditionExpression: 'attribute_not_exists(#subscription) OR #subscription <> :closed',
          ExpressionAttributeNames: { '#subscription': 'subscription' },
          ExpressionAttributeValues: { ':closed': 'closed' },
        },
      },
    ]);
    return 'opened';
  } catch (error) {
    const failed = failedConditionItems(error);
    if (failed.includes(1)) return 'closed';
    if (failed.includes(0)) return 'taken';
    throw error;
  }
}

/** The claims of these people (consistent reads, 100 a call); people without one are left out. */
export async function getPoolClaims(userIds: string[]): Promise<PoolClaim[]> {
  const claims: PoolClaim[] = [];
  for (let i = 0; i < userIds.length; i += 100) {
    let pending: Record<string, unknown>[] | undefined = userIds
      .slice(i, i + 100)
      .map((id) => keys.poolClaim(id));
    while (pending && pending.length > 0) {
      const result: BatchGetCommandOutput = await db().send(
        new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: true } } }),
      );
      claims.push(...((result.Responses?.[tableName()] ?? []) as PoolClaim[]));
      pending = result.UnprocessedKeys?.[tableName()]?.Keys;
    }
  }
  return claims;
}

export async function closePoolClaim(userId: string, stateId: string, at: string): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.poolClaim(userId),
        UpdateExpression: 'SET #status = :done, closedAt = :at',
        ConditionExpression: 'stateId = :state',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':done': 'done', ':state': stateId, ':at': at },
      }),
    );
  } catch (error) {
    // A racing request resuming the same claim closed it and a newer one exists: nothing to do.
    if (!isConditionFailure(error)) throw error;
  }
}
