/**
 * Fixed-window rate limiting in the table: one counter item per bucket, client
 * and window, incremented with a condition so the limit holds under concurrency.
 * The item expires (TTL) shortly after its window.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { RateLimit } from '@shared/api/routes';
import { AppError } from '@shared/errors';
import { db, isConditionFailure, tableName } from './client';
import { keys } from './keys';

export async function consumeRateLimit(
  bucket: string,
  client: string,
  rule: RateLimit,
  now: Date,
): Promise<void> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const windowStart = nowSeconds - (nowSeconds % rule.windowSeconds);
  const windowEnd = windowStart + rule.windowSeconds;
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.rateWindow(bucket, client, windowStart),
        UpdateExpression: 'ADD hits :one SET expiresAt = :expiresAt',
        ConditionExpression: 'attribute_not_exists(hits) OR hits < :limit',
        ExpressionAttributeValues: { ':one': 1, ':limit': rule.limit, ':expiresAt': windowEnd + 60 },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const retryAfter = Math.max(1, windowEnd - nowSeconds);
    throw new AppError('RATE_LIMITED', 'Too many requests. Please try again later.', {
      headers: { 'Retry-After': String(retryAfter) },
    });
  }
}

/**
 * A per-recipient daily allowance for e-mails a stranger can make us send
 * (services/accounts/emailCaps.ts): takes one from `kind`'s allowance for `recipient`
 * today (UTC) and answers whether the e-mail may go. Over the cap it answers
 * false rather than refusing, so the route can answer as on success.
 */
export async function takeEmailAllowance(
  kind: string,
  recipient: string,
  perDay: number,
  now: Date,
): Promise<boolean> {
  try {
    await consumeRateLimit(
      `email:${kind}`,
      recipient.trim().toLowerCase(),
      { limit: perDay, windowSeconds: 86_400 },
      now,
    );
    return true;
  } catch (error) {
    if (error instanceof AppError && error.code === 'RATE_LIMITED') return false;
    throw error;
  }
}
