/**
 * E-mailed identity codes (POST /me/identityCode): proof beyond the access
 * token for an account without a password of its own (made by social
 * sign-in). One per user, the newest: sending another ends the one before.
 * Only the SHA-256 is stored; a code is used up by a conditional update, so
 * two requests with the same code cannot both pass.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, tableName } from './client';
import { keys } from './keys';

export async function putIdentityCode(
  userId: string,
  codeHash: string,
  now: Date,
  lifetimeSeconds: number,
): Promise<void> {
  const expiresAtMs = now.getTime() + lifetimeSeconds * 1000;
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.identityCode(userId),
        entity: 'IdentityCode',
        codeHash,
        createdAt: now.toISOString(),
        expiresAtMs,
        expiresAt: Math.ceil(expiresAtMs / 1000),
      },
    }),
  );
}

/** Uses the code up; false when it is not the newest unused, unexpired one. */
export async function spendIdentityCode(userId: string, codeHash: string, now: Date): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.identityCode(userId),
        // An update, not a delete, so the routes' grant stays table:write.
        UpdateExpression: 'REMOVE codeHash SET usedAt = :now',
        ConditionExpression: 'codeHash = :hash AND expiresAtMs > :nowMs',
        ExpressionAttributeValues: { ':hash': codeHash, ':nowMs': now.getTime(), ':now': now.toISOString() },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
