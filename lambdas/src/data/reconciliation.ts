/**
 * Reconciliation's own records: per Stripe list, how far the last run read
 * (its watermark), and the differences it could not explain (one item per
 * Stripe object, so a second run does not report the same one again).
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, queryAll, tableName } from './client';
import { keys } from './keys';

export type ReconSource =
  | 'charges'
  | 'refunds'
  | 'issuingTransactions'
  | 'issuingAuthorizations'
  | 'expiredAuthorizations';

/** Stripe's `created` (unix seconds) up to which the last run of this source read everything. */
export async function getWatermark(source: ReconSource): Promise<number | undefined> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.reconWatermark(source), ConsistentRead: true }),
  );
  return result.Item ? Number(result.Item.createdBefore) : undefined;
}

/** Moves a watermark forward only (a slow old run finishing late never moves it back). */
export async function setWatermark(source: ReconSource, createdBefore: number, at: string): Promise<void> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.reconWatermark(source),
          entity: 'ReconWatermark',
          source,
          createdBefore,
          updatedAt: at,
        },
        ConditionExpression: 'attribute_not_exists(pk) OR createdBefore < :new',
        ExpressionAttributeValues: { ':new': createdBefore },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

export interface ReconDifference {
  /** The Stripe object the difference is about (ch_, re_, ipi_, iauth_). */
  stripeObjectId: string;
  kind: string;
  /** What Stripe holds, in cents (positive). */
  stripeCents: number;
  /** What the ledger holds for it, in cents (positive); 0 when nothing. */
  ledgerCents: number;
  teamId?: string;
  message: string;
  foundAt: string;
}

/** Stores a difference; false when this object's difference was already recorded (an earlier run). */
export async function recordDifference(difference: ReconDifference): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.reconDifference(difference.stripeObjectId),
          ...keys.reconDifferenceByMonth(difference.foundAt, difference.stripeObjectId),
          entity: 'ReconDifference',
          ...difference,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** The differences found in one month (`yyyy-mm`), oldest first. */
export async function differencesOfMonth(month: string): Promise<ReconDifference[]> {
  return queryAll<ReconDifference>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': `RECONDIFFS#${month}` },
  });
}
