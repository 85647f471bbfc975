/**
 * Dormancy records on the User item: `quietSince` (the clock), `dormancy` (each
 * notice's sending time, the deactivation) and the gsi2 listing under the day
 * the job next has to look (keys.userByDormancyDay). Every write after the
 * clock starts is conditioned on `quietSince` being the one the job read, so a
 * purchase landing mid-run wins over the job.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type DormancyNotice, nextDormancyDay } from '@shared/domain/dormancy';
import { db, isConditionFailure, queryAll, tableName } from './client';
import { keys } from './keys';
import { failedCondition, sendTransaction, type TransactItem } from './transactions';
import type { UserRecord } from './users';

/**
 * (Re)starts someone's dormancy clock at `at`: the notices so far are cleared
 * and they are listed under their 11-month day, and in their team's quiet
 * list (gsi4, keys.userByQuietSince) under the same time. An older event than
 * the clock already holds (a capture delivered late) changes nothing.
 */
export async function startDormancyClock(
  user: { userId: string; teamId: string },
  at: string,
): Promise<boolean> {
  const index = keys.userByDormancyDay(nextDormancyDay(at, {}) as string, user.userId);
  const quiet = keys.userByQuietSince(user.teamId, at, user.userId);
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(user.userId),
        UpdateExpression:
          'SET quietSince = :at, dormancy = :none, gsi2pk = :pk, gsi2sk = :sk, gsi4pk = :quietPk, gsi4sk = :quietSk',
        ConditionExpression:
          'attribute_exists(pk) AND #role = :employee AND #status <> :deleted AND (attribute_not_exists(quietSince) OR quietSince < :at)',
        ExpressionAttributeNames: { '#role': 'role', '#status': 'status' },
        ExpressionAttributeValues: {
          ':at': at,
          ':none': {},
          ':pk': index.gsi2pk,
          ':sk': index.gsi2sk,
          ':quietPk': quiet.gsi4pk,
          ':quietSk': quiet.gsi4sk,
          ':employee': 'employee',
          ':deleted': 'deleted',
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Employees the job has to look at on one UTC day. */
export async function dueOn(day: string): Promise<UserRecord[]> {
  return queryAll<UserRecord>({
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.userByDormancyDay(day, '').gsi2pk },
  });
}

async function conditionalUpdate(
  user: UserRecord,
  update: string,
  extraCondition: string,
  names: Record<string, string>,
  values: Record<string, unknown>,
  /** Written in the same transaction (an audit entry): both or neither. */
  alongside?: TransactItem,
): Promise<boolean> {
  const input = {
    TableName: tableName(),
    Key: keys.user(user.userId),
    UpdateExpression: update,
    ConditionExpression: ['quietSince = :quiet', extraCondition].filter(Boolean).join(' AND '),
    ExpressionAttributeNames: Object.keys(names).length ? names : undefined,
    ExpressionAttributeValues: { ':quiet': user.quietSince, ...values },
  };
  try {
    if (alongside) await sendTransaction([{ Update: input }, alongside]);
    else await db().send(new UpdateCommand(input));
    return true;
  } catch (error) {
    if (isConditionFailure(error) || failedCondition(error)) return false;
    throw error;
  }
}

/**
 * Records that a notice is being sent, before the e-mail goes: true for the one
 * run that gets to send it (a second run, or a purchase that restarted the
 * clock meanwhile, gets false and sends nothing).
 */
export function claimNotice(user: UserRecord, notice: DormancyNotice, sentAt: string): Promise<boolean> {
  return conditionalUpdate(
    user,
    'SET dormancy.#n = :at',
    'attribute_not_exists(dormancy.#n)',
    { '#n': notice },
    { ':at': sentAt },
  );
}

/** The card is inactive and the person paused for dormancy: recorded once, with its audit entry. */
export function recordDeactivation(user: UserRecord, at: string, entry: TransactItem): Promise<boolean> {
  // A manager's pause from before is noted, on the condition that the status is the one read: a
  // manager pausing or unpausing meanwhile fails the write, and the next run decides from what it reads.
  const kept = user.status === 'paused' ? ', dormancy.keptManagerPause = :at' : '';
  return conditionalUpdate(
    user,
    `SET dormancy.deactivatedAt = :at${kept}, #status = :paused`,
    'attribute_not_exists(dormancy.deactivatedAt) AND #status = :was',
    { '#status': 'status' },
    { ':at': at, ':paused': 'paused', ':was': user.status },
    entry,
  );
}

/** Lists the person under the next day to look at, or nowhere (dormant, or left). */
export function relist(user: UserRecord, day: string | undefined): Promise<boolean> {
  if (!day) return conditionalUpdate(user, 'REMOVE gsi2pk, gsi2sk', '', {}, {});
  const index = keys.userByDormancyDay(day, user.userId);
  return conditionalUpdate(
    user,
    'SET gsi2pk = :pk, gsi2sk = :sk',
    '',
    {},
    {
      ':pk': index.gsi2pk,
      ':sk': index.gsi2sk,
    },
  );
}
