/**
 * Single-use, expiring tokens for links in e-mails (verify address, reset
 * password). Only the SHA-256 of a token is stored, so a leaked table cannot be
 * turned into working links; redeeming deletes the record in the same call.
 */
import { createHash, randomBytes } from 'node:crypto';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
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
): Promise<string | undefined> {
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
    return result.Attributes?.userId as string | undefined;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}
