/**
 * Failed sign-ins, counted per e-mail address and per source address. Each try
 * is counted before it is checked (reserveTry) and given back when it was not
 * a failure (releaseTry), so a right password never adds, and the count is
 * forgotten an hour after the last failure (TTL) or, for the address, at the
 * next successful sign-in. services/accounts/signInThrottle.ts turns counts into delays.
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, tableName } from './client';
import { keys } from './keys';

export type FailureScope = 'address' | 'source';

/** Failures are forgotten this long after the last one. */
export const FAILURE_MEMORY_SECONDS = 3600;

/**
 * Counts one try against `scope`/`id`, before the password or code is checked,
 * unless a delay earned by earlier failures still runs: then nothing is
 * written and the seconds left are returned. The write is conditioned on the
 * count it read, so of many tries at once each one counts (a lost race reads
 * again): parallel guesses cannot all pass a count none of them has raised.
 */
export async function reserveTry(
  scope: FailureScope,
  id: string,
  now: Date,
  delaySecondsAfter: (failures: number) => number,
): Promise<{ waitSeconds: number }> {
  for (;;) {
    const result = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.signInFailures(scope, id), ConsistentRead: true }),
    );
    const item = result.Item;
    const stored = item ? Number(item.failures) : undefined;
    const current = item && Number(item.expiresAt) * 1000 > Date.now() ? Number(item.failures) : 0;
    // No delay within the free tries: a parallel try that wrote a moment later (its `now` after
    // ours) must not make this one wait.
    const delayMs = current > 0 ? delaySecondsAfter(current) * 1000 : 0;
    if (delayMs > 0) {
      const readyAt = Date.parse(String(item?.lastFailureAt)) + delayMs;
      if (readyAt > now.getTime()) return { waitSeconds: Math.ceil((readyAt - now.getTime()) / 1000) };
    }
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.signInFailures(scope, id),
          // The failure before this try is kept, so giving the try back leaves no trace.
          UpdateExpression:
            'SET failures = :next, lastFailureAt = :now, priorFailureAt = :prior, expiresAt = :expiresAt, entity = :entity',
          ConditionExpression: stored === undefined ? 'attribute_not_exists(failures)' : 'failures = :stored',
          ExpressionAttributeValues: {
            ':next': current + 1,
            ':now': now.toISOString(),
            ':prior': current > 0 ? String(item?.lastFailureAt) : null,
            ':expiresAt': Math.floor(now.getTime() / 1000) + FAILURE_MEMORY_SECONDS,
            ':entity': 'SignInFailures',
            ...(stored === undefined ? {} : { ':stored': stored }),
          },
        }),
      );
      return { waitSeconds: 0 };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
}

/**
 * Takes back a try reserved by reserveTry that turned out not to be a failure
 * (`reservedAt`: the time it was reserved with). When no try came after it,
 * the count and the last failure's time are as before it; otherwise only the
 * count goes down, and the later try's time stays.
 */
export async function releaseTry(scope: FailureScope, id: string, reservedAt: Date): Promise<void> {
  const key = keys.signInFailures(scope, id);
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET lastFailureAt = priorFailureAt ADD failures :minusOne',
        ConditionExpression: 'lastFailureAt = :reservedAt AND failures > :zero AND priorFailureAt <> :none',
        ExpressionAttributeValues: {
          ':minusOne': -1,
          ':zero': 0,
          ':reservedAt': reservedAt.toISOString(),
          ':none': null,
        },
      }),
    );
    return;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'ADD failures :minusOne',
        ConditionExpression: 'failures > :zero',
        ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
      }),
    );
  } catch (error) {
    // Already forgotten (a success cleared it, or it expired): nothing to give back.
    if (!isConditionFailure(error)) throw error;
  }
}

export async function clearFailures(scope: FailureScope, id: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.signInFailures(scope, id) }));
}
