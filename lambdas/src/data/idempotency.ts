/**
 * Idempotency records for money-moving requests: the first request with a key
 * claims it (with the hash of its body), and its answer is stored; a retry with
 * the same key and body gets the stored answer; the same key with another body
 * is refused. Records expire after 24 hours.
 */
import { createHash } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, tableName } from './client';
import { keys } from './keys';

const TTL_SECONDS = 24 * 3600;

export type Claim =
  | { state: 'claimed' }
  | { state: 'replay'; status: number; body: unknown }
  | { state: 'mismatch' }
  | { state: 'inProgress' };

export function hashBody(body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(body ?? null))
    .digest('hex');
}

export async function claimIdempotencyKey(
  scope: string,
  key: string,
  bodyHash: string,
  now: Date,
): Promise<Claim> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.idempotency(scope, key),
          entity: 'Idempotency',
          bodyHash,
          state: 'inProgress',
          createdAt: now.toISOString(),
          expiresAt: Math.floor(now.getTime() / 1000) + TTL_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now',
        ExpressionAttributeValues: { ':now': Math.floor(now.getTime() / 1000) },
      }),
    );
    return { state: 'claimed' };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  const existing = (
    await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.idempotency(scope, key), ConsistentRead: true }),
    )
  ).Item;
  if (!existing) return claimIdempotencyKey(scope, key, bodyHash, now);
  if (existing.bodyHash !== bodyHash) return { state: 'mismatch' };
  if (existing.state !== 'done') return { state: 'inProgress' };
  return { state: 'replay', status: Number(existing.status), body: existing.body };
}

export async function completeIdempotencyKey(scope: string, key: string, status: number, body: unknown) {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.idempotency(scope, key),
      UpdateExpression: 'SET #state = :done, #status = :status, #body = :body',
      ExpressionAttributeNames: { '#state': 'state', '#status': 'status', '#body': 'body' },
      ExpressionAttributeValues: { ':done': 'done', ':status': status, ':body': body },
    }),
  );
}

/** A request that failed may be retried with the same key: forget the claim. */
export async function releaseIdempotencyKey(scope: string, key: string) {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.idempotency(scope, key) }));
}
