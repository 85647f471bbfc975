/**
 * Failed sign-ins, counted per e-mail address and per source address. Only
 * failures are counted (a right password never adds), and the count is
 * forgotten an hour after the last failure (TTL) or, for the address, at the
 * next successful sign-in. services/accounts/signInThrottle.ts turns counts into delays.
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { keys } from './keys';

export type FailureScope = 'address' | 'source';

export interface FailureCount {
  failures: number;
  lastFailureAt: Date;
}

/** Failures are forgotten this long after the last one. */
export const FAILURE_MEMORY_SECONDS = 3600;

export async function getFailures(scope: FailureScope, id: string): Promise<FailureCount | undefined> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.signInFailures(scope, id), ConsistentRead: true }),
  );
  const item = result.Item;
  if (!item || Number(item.expiresAt) * 1000 <= Date.now()) return undefined;
  return { failures: Number(item.failures), lastFailureAt: new Date(String(item.lastFailureAt)) };
}

export async function addFailure(scope: FailureScope, id: string, now: Date): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.signInFailures(scope, id),
      UpdateExpression:
        'ADD failures :one SET lastFailureAt = :now, expiresAt = :expiresAt, entity = :entity',
      ExpressionAttributeValues: {
        ':one': 1,
        ':now': now.toISOString(),
        ':expiresAt': Math.floor(now.getTime() / 1000) + FAILURE_MEMORY_SECONDS,
        ':entity': 'SignInFailures',
      },
    }),
  );
}

export async function clearFailures(scope: FailureScope, id: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.signInFailures(scope, id) }));
}
