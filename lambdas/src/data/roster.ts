/**
 * Issue 28's people schedule: scheduled starts (roster import rows with a
 * later start day) and employees' last days.
 *
 * Scheduled start: pk `STARTS#<teamId>`, sk `EMAIL#<email>` (one per team and
 * address: a second upload finds it), listed under its day on gsi3
 * (`STARTDUE#<day>`). Written with its audit entry; removed (DeleteItem) when
 * the job has sent the invitation or the manager cancels it.
 *
 * Last day: `lastDay` on the User item, listed on gsi3 under `LASTDAY#<day>`;
 * clearing removes both. The removal on the day is the manager's delete
 * (services/accounts deleteAccount's rules), conditioned on the same last day.
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditEvent } from './audit';
import { auditTransactItem } from './audit';
import { db, isConditionFailure, queryAll, tableName } from './client';
import { keys } from './keys';
import { failedCondition, sendTransaction } from './transactions';
import type { UserRecord } from './users';

export interface ScheduledStartRecord {
  teamId: string;
  email: string;
  firstName: string;
  lastName: string;
  budgetCents: number;
  /** `yyyy-mm-dd` in the team's calendar. */
  startDay: string;
  /** The manager who imported it: the invitation is sent in their name. */
  managerId: string;
  createdAt: string;
}

/**
 * Stores a scheduled start, with its audit entry, unless the team already has
 * one for the address (false: nothing written).
 */
export async function putScheduledStart(start: ScheduledStartRecord, audit: AuditEvent): Promise<boolean> {
  try {
    await sendTransaction([
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...keys.scheduledStart(start.teamId, start.email),
            ...keys.scheduledStartByDay(start.startDay, start.teamId, start.email),
            entity: 'ScheduledStart',
            ...start,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      auditTransactItem(audit, `${audit.action}#${start.teamId}#${start.email}#${start.createdAt}`),
    ]);
    return true;
  } catch (error) {
    if (failedCondition(error)) return false;
    throw error;
  }
}

export async function getScheduledStart(
  teamId: string,
  email: string,
  consistent = false,
): Promise<ScheduledStartRecord | undefined> {
  const result = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.scheduledStart(teamId, email),
      ConsistentRead: consistent,
    }),
  );
  return result.Item as ScheduledStartRecord | undefined;
}

/** A team's scheduled starts (one Query on its partition). */
export function listScheduledStarts(teamId: string): Promise<ScheduledStartRecord[]> {
  return queryAll<ScheduledStartRecord>({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.scheduledStart(teamId, '').pk },
  });
}

/** Every team's starts listed under one day (gsi3 `STARTDUE#<day>`). */
export function scheduledStartsOn(day: string): Promise<ScheduledStartRecord[]> {
  return queryAll<ScheduledStartRecord>({
    IndexName: 'gsi3',
    KeyConditionExpression: 'gsi3pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.scheduledStartByDay(day, '', '').gsi3pk },
  });
}

/**
 * Removes a scheduled start still as read (same day and createdAt), with an
 * audit entry when given (a cancellation). False when it was gone or changed.
 */
export async function deleteScheduledStart(
  start: ScheduledStartRecord,
  audit?: AuditEvent,
): Promise<boolean> {
  const remove = {
    TableName: tableName(),
    Key: keys.scheduledStart(start.teamId, start.email),
    ConditionExpression: 'createdAt = :created',
    ExpressionAttributeValues: { ':created': start.createdAt },
  };
  try {
    if (audit)
      await sendTransaction([
        { Delete: remove },
        auditTransactItem(audit, `${audit.action}#${start.teamId}#${start.email}#${start.createdAt}`),
      ]);
    else await db().send(new DeleteCommand(remove));
    return true;
  } catch (error) {
    if (isConditionFailure(error) || failedCondition(error)) return false;
    throw error;
  }
}

// --- Last days -------------------------------------------------------------------

/**
 * Sets (a day) or clears (null) an employee's last day, with its audit entry,
 * while they are not removed. False when they were removed meanwhile.
 */
export async function setLastDay(
  userId: string,
  lastDay: string | null,
  audit: AuditEvent,
): Promise<boolean> {
  const index = lastDay ? keys.userByLastDay(lastDay, userId) : undefined;
  try {
    await sendTransaction([
      {
        Update: {
          TableName: tableName(),
          Key: keys.user(userId),
          UpdateExpression: index
            ? 'SET lastDay = :day, gsi3pk = :pk, gsi3sk = :sk'
            : 'REMOVE lastDay, gsi3pk, gsi3sk',
          ConditionExpression: 'attribute_exists(pk) AND #status <> :deleted',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':deleted': 'deleted',
            ...(index ? { ':day': lastDay, ':pk': index.gsi3pk, ':sk': index.gsi3sk } : {}),
          },
        },
      },
      auditTransactItem(audit, `${audit.action}#${userId}#${audit.at}`),
    ]);
    return true;
  } catch (error) {
    if (failedCondition(error)) return false;
    throw error;
  }
}

/** Employees whose last day is `day` (gsi3 `LASTDAY#<day>`), every team's. */
export function lastDaysOn(day: string): Promise<UserRecord[]> {
  return queryAll<UserRecord>({
    IndexName: 'gsi3',
    KeyConditionExpression: 'gsi3pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.userByLastDay(day, '').gsi3pk },
  });
}

/** Takes a removed person off the last-day list (the job's last step; `lastDay` stays, as history). */
export async function leaveLastDayList(userId: string): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.user(userId),
      UpdateExpression: 'REMOVE gsi3pk, gsi3sk',
      ConditionExpression: 'attribute_exists(pk)',
    }),
  );
}
