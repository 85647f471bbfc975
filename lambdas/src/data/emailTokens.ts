/**
 * Single-use, expiring tokens for links in e-mails (verify address, reset
 * password). Only the SHA-256 of a token is stored, so a leaked table cannot be
 * turned into working links. Redeeming a reset link deletes the record in the
 * same call; a verification link is marked used instead and kept until it
 * expires, so opening it again can say "already verified" (redeemOnceKeepingTrace).
 */
import { createHash, randomBytes } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, tableName } from './client';
import { keys } from './keys';

export type TokenPurpose = 'verifyEmail' | 'resetPassword';

export const TOKEN_LIFETIME_SECONDS: Record<TokenPurpose, number> = {
  verifyEmail: 3 * 24 * 3600,
  resetPassword: 3600,
};

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function issueEmailToken(purpose: TokenPurpose, userId: string, now: Date): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.emailToken(hashToken(token)),
        entity: 'EmailToken',
        purpose,
        userId,
        createdAt: now.toISOString(),
        expiresAt: Math.floor(now.getTime() / 1000) + TOKEN_LIFETIME_SECONDS[purpose],
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return token;
}

/**
 * Redeems a token once: returns its user id, or undefined if it is unknown,
 * already used, expired (TTL deletion is lazy, so expiry is checked here) or
 * issued for another purpose.
 */
export async function redeemEmailToken(
  purpose: TokenPurpose,
  token: string,
  now: Date,
): Promise<{ userId: string; createdAt: string } | undefined> {
  try {
    const result = await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.emailToken(hashToken(token)),
        ConditionExpression: 'attribute_exists(pk) AND purpose = :purpose AND expiresAt > :now',
        ExpressionAttributeValues: { ':purpose': purpose, ':now': Math.floor(now.getTime() / 1000) },
        ReturnValues: 'ALL_OLD',
      }),
    );
    const attributes = result.Attributes;
    return attributes
      ? { userId: String(attributes.userId), createdAt: String(attributes.createdAt) }
      : undefined;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

export type Redemption =
  | { kind: 'first'; userId: string }
  /** This very link was redeemed before: only its holder (the e-mail's reader) can learn that. */
  | { kind: 'again'; userId: string };

/**
 * Redeems a token once, marking it used rather than deleting it: a second
 * redemption of the same link is told apart from an unknown, expired or
 * wrong-purpose one (undefined), which lets the page say "already verified"
 * instead of "invalid". One conditional write (and a read when it is refused);
 * the record goes at expiry (TTL).
 */
export async function redeemOnceKeepingTrace(
  purpose: TokenPurpose,
  token: string,
  now: Date,
): Promise<Redemption | undefined> {
  try {
    const result = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.emailToken(hashToken(token)),
        UpdateExpression: 'SET usedAt = :usedAt',
        ConditionExpression:
          'attribute_exists(pk) AND purpose = :purpose AND expiresAt > :now AND attribute_not_exists(usedAt)',
        ExpressionAttributeValues: {
          ':purpose': purpose,
          ':now': Math.floor(now.getTime() / 1000),
          ':usedAt': now.toISOString(),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    const userId = result.Attributes?.userId;
    return typeof userId === 'string' ? { kind: 'first', userId } : undefined;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // Refused: a link used before (for this purpose, not yet expired) is told apart by reading it.
    const { Item: old } = await db().send(
      new GetCommand({
        TableName: tableName(),
        Key: keys.emailToken(hashToken(token)),
        ConsistentRead: true,
      }),
    );
    const expiresAt = Number(old?.expiresAt);
    if (
      old?.purpose === purpose &&
      typeof old.usedAt === 'string' &&
      typeof old.userId === 'string' &&
      expiresAt > Math.floor(now.getTime() / 1000)
    ) {
      return { kind: 'again', userId: old.userId };
    }
    return undefined;
  }
}
