/**
 * A social sign-in whose account has an authenticator app: the hosted UI's
 * code is single use, so the tokens it was exchanged for wait here (for five
 * minutes, at most) until the person types the code. The browser holds only a
 * random challenge in an HttpOnly cookie; the table holds its SHA-256 and the
 * tokens sealed (AES-256-GCM) under a key derived from the challenge, so the
 * table, or a backup of it, alone cannot finish anyone's sign-in nor use the
 * tokens. Finishing claims the record once (an update, not a delete: the TTL
 * removes it).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
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

type Tokens = Pick<PendingSocialSignIn, 'accessToken' | 'refreshToken'>;

/** The sealing key: HKDF of the challenge, apart from the SHA-256 the record is keyed by. */
function sealingKey(challenge: string): Buffer {
  return Buffer.from(hkdfSync('sha256', challenge, 'learning-budget', 'pending social sign-in tokens', 32));
}

function seal(challenge: string, tokens: Tokens): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(challenge), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(tokens), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

function unseal(challenge: string, sealed: string): Tokens {
  const bytes = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(challenge), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  const json = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  return JSON.parse(json) as Tokens;
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
        userId: pending.userId,
        expiresIn: pending.expiresIn,
        sealedTokens: seal(challenge, pending),
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
        UpdateExpression: 'SET claimedAt = :at REMOVE sealedTokens',
        ExpressionAttributeValues: { ':now': Math.floor(now.getTime() / 1000), ':at': now.toISOString() },
        ReturnValues: 'ALL_OLD',
      }),
    );
    const item = result.Attributes;
    if (!item) return undefined;
    return {
      userId: String(item.userId),
      ...unseal(challenge, String(item.sealedTokens)),
      expiresIn: Number(item.expiresIn),
    };
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/**
 * Puts a claimed sign-in back to wait (its code was wrong), if the claim is
 * still the one made at `claimedAt`: the tokens are sealed again and the
 * record keeps its original expiry.
 */
export async function releasePendingSocialSignIn(
  challenge: string,
  pending: PendingSocialSignIn,
  claimedAt: Date,
): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.pendingSocialSignIn(hashToken(challenge)),
      ConditionExpression: 'claimedAt = :at',
      UpdateExpression: 'SET sealedTokens = :sealed REMOVE claimedAt',
      ExpressionAttributeValues: { ':at': claimedAt.toISOString(), ':sealed': seal(challenge, pending) },
    }),
  );
}
