/**
 * A removed employee's pooled money leaves the pool through one claim at a
 * time: the claim records what is being done (reallocate or redeem), from
 * which pool state, and the whole plan (shares, or fee and refunds). A retry,
 * a crash or a racing request resumes the open claim's plan instead of
 * planning again, so the money leaves once, the way first decided, even when
 * it takes several postings or outside refunds.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Share } from '@shared/domain/ledger';
import { db, isConditionFailure, tableName } from './client';
import { keys } from './keys';

export type PoolPlan =
  | { op: 'reallocate'; shares: Share[] }
  | { op: 'redeem'; feeCents: number; refunds: { chargeId: string; amountCents: number }[] };

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

/** Opens a claim unless another is open; false when someone else opened one first. */
export async function openPoolClaim(claim: Omit<PoolClaim, 'status'>): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.poolClaim(claim.userId), entity: 'PoolClaim', ...claim, status: 'open' },
        // A done claim of an earlier state may be replaced; an open one, or this state's, not.
        ConditionExpression: 'attribute_not_exists(pk) OR (#status = :done AND stateId <> :state)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':done': 'done', ':state': claim.stateId },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
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
