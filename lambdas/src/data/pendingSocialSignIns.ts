/**
 * A social sign-in waiting (for five minutes, at most) for what the person
 * types next:
 *
 * - `code`: the account has an authenticator app. The hosted UI's code is
 *   single use, so the tokens it was exchanged for wait here until the person
 *   types the app's code.
 * - `password`: the provider's sign-in is a user of its own that the
 *   pre-sign-up trigger would not link to the account with its e-mail
 *   (services/accounts/socialSignIn.ts); it waits, as `join`, for that
 *   account's password. No tokens wait: the provider user's are ended at once.
 *
 * A `code` step that follows a `password` step carries the `join` too, and its
 * tokens are the server client's (`issuedTo`). The browser holds only a
 * random challenge in an HttpOnly cookie; the table holds its SHA-256 and the
 * tokens and the join sealed (AES-256-GCM) under a key derived from the
 * challenge, so the table, or a backup of it, alone cannot finish anyone's
 * sign-in nor use the tokens. Finishing claims the record once (an update,
 * not a delete: the TTL removes it).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AppClient, FederatedLogin } from '../adapters/cognito';
import { db, isConditionFailure, tableName } from './client';
import { hashToken } from './emailTokens';
import { keys } from './keys';

/** How long the code may take: the cookie's Max-Age and the record's TTL. */
export const PENDING_SOCIAL_SIGN_IN_SECONDS = 5 * 60;

export type PendingStep = 'code' | 'password';

export interface PendingSocialSignIn {
  userId: string;
  step: PendingStep;
  /** The tokens waiting for the code (the `code` step only), and the client that issued them. */
  tokens?: { accessToken: string; refreshToken: string; expiresIn: number };
  issuedTo: AppClient;
  /** The provider's sign-in to join to the account once it is proven. */
  join?: FederatedLogin;
}

/** What is sealed: everything that would let someone finish the sign-in or use it. */
interface Sealed {
  accessToken?: string;
  refreshToken?: string;
  join?: FederatedLogin;
}

/** The sealing key: HKDF of the challenge, apart from the SHA-256 the record is keyed by. */
function sealingKey(challenge: string): Buffer {
  return Buffer.from(hkdfSync('sha256', challenge, 'learning-budget', 'pending social sign-in tokens', 32));
}

function seal(challenge: string, pending: PendingSocialSignIn): string {
  const sealed: Sealed = {
    ...(pending.tokens
      ? { accessToken: pending.tokens.accessToken, refreshToken: pending.tokens.refreshToken }
      : {}),
    ...(pending.join ? { join: pending.join } : {}),
  };
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(challenge), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(sealed), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

function unseal(challenge: string, sealed: string): Sealed {
  const bytes = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(challenge), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  const json = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  return JSON.parse(json) as Sealed;
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
        step: pending.step,
        issuedTo: pending.issuedTo,
        ...(pending.tokens ? { expiresIn: pending.tokens.expiresIn } : {}),
        sealedTokens: seal(challenge, pending),
        createdAt: now.toISOString(),
        expiresAt: Math.floor(now.getTime() / 1000) + PENDING_SOCIAL_SIGN_IN_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

const LIVE = 'attribute_exists(pk) AND attribute_not_exists(claimedAt) AND expiresAt > :now';

/**
 * Whose sign-in waits under this challenge and for what, or undefined when it
 * is unknown, finished or expired. (Records from before the password step
 * waited for a code.)
 */
export async function waitingSocialSignIn(
  challenge: string,
  now: Date,
): Promise<{ userId: string; step: PendingStep } | undefined> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.pendingSocialSignIn(hashToken(challenge)) }),
  );
  const item = result.Item;
  if (!item || item.claimedAt || Number(item.expiresAt) <= now.getTime() / 1000) return undefined;
  return { userId: String(item.userId), step: item.step === 'password' ? 'password' : 'code' };
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
    const { accessToken, refreshToken, join } = unseal(challenge, String(item.sealedTokens));
    return {
      userId: String(item.userId),
      step: item.step === 'password' ? 'password' : 'code',
      issuedTo: item.issuedTo === 'server' ? 'server' : 'web',
      ...(accessToken && refreshToken
        ? { tokens: { accessToken, refreshToken, expiresIn: Number(item.expiresIn ?? 3600) } }
        : {}),
      ...(join ? { join } : {}),
    };
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/**
 * Puts a claimed sign-in back to wait (its code or password was wrong), if
 * the claim is still the one made at `claimedAt`: what waits is sealed again
 * and the record keeps its original expiry.
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
