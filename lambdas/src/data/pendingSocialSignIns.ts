/**
 * A social sign-in whose account has an authenticator app: the hosted UI's
 * code is single use, so the tokens it was exchanged for wait here (for five
 * minutes, at most) until the person types the code. The browser holds only a
 * random challenge in an HttpOnly cookie; the table holds its SHA-256, so the
 * table alone cannot finish anyone's sign-in. Finishing claims the record
 * once (an update, not a delete: the TTL removes it).
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, tableName } from './client';
import { hashToken } from './emailTokens';
import { keys } from './keys';

/** How long the code may take: the cookie's Max-Age and the record's TTL. */
export const PENDING_SOCIAL_SIGN_IN_SECONDS = 5 * 60;

export interface PendingSocialSignIn {
  userId: string;
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

export async function putPendingSocialSignIn(
  challenge: string,
  pending: PendingSocialSignIn,
  now: Date,
): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.pendingSocialSignIn(hashToken(challenge)),
        entity: 'PendingSocialSignIn',
        ...pending,
        createdAt: now.toISOString(),
        expiresAt: Math.floor(now.getTime() / 1000) + PENDING_SOCIAL_SIGN_IN_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

const LIVE = 'attribute_exists(pk) AND attribute_not_exists(claimedAt) AND expiresAt > :now';

/** Whose sign-in waits under this challenge, or undefined when it is unknown, finished or expired. */
export async function pendingSocialSignInUser(challenge: string, now: Date): Promise<string | undefined> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.pendingSocialSignIn(hashToken(challenge)) }),
  );
  const item = result.Item;
  if (!item || item.claimedAt || Number(item.expiresAt) <= now.getTime() / 1000) return undefined;
  return String(item.userId);
}

/** Takes the waiting tokens, once: a second claim (or a late one) gets undefined. */
export async function claimPendingSocialSignIn(
  challenge: string,
  now: Date,
): Promise<PendingSocialSignIn | undefined> {
  try {
    const result = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.pendingSocialSignIn(hashToken(challenge)),
        ConditionExpression: LIVE,
        UpdateExpression: 'SET claimedAt = :at REMOVE accessToken, refreshToken',
        ExpressionAttributeValues: { ':now': Math.floor(now.getTime() / 1000), ':at': now.toISOString() },
        ReturnValues: 'ALL_OLD',
      }),
    );
    const item = result.Attributes;
    if (!item) return undefined;
    return {
      userId: String(item.userId),
      accessToken: String(item.accessToken),
      refreshToken: String(item.refreshToken),
      expiresIn: Number(item.expiresIn),
    };
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}
