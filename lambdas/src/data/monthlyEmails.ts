/**
 * Monthly e-mails (issue 26, point 5): the per-person, per-month markers that
 * make a re-run send nothing twice, the per-team "month done" marker that lets
 * later daily runs skip a team, and each person's choice to get them or not
 * (`monthlyEmailsOff` on the User item: the kinds turned off; absent: both on).
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { MonthlyEmailKind } from '@shared/domain/nudges';
import { db, isConditionFailure, tableName } from './client';
import { keys } from './keys';

/** Markers outlive the month they guard by far; then TTL removes them. */
const MARKER_DAYS = 400;

function expiry(now: Date): number {
  return Math.floor(now.getTime() / 1000) + MARKER_DAYS * 24 * 3600;
}

/**
 * Claims a person's e-mail of `kind` for `month`, before it is sent: true for
 * the one run that gets to send it. A send that fails after the claim is not
 * repeated (one missing nudge beats a duplicate).
 */
export async function claimMonthlyEmail(
  userId: string,
  kind: MonthlyEmailKind,
  month: string,
  now: Date,
): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.monthlyEmail(userId, kind, month),
          entity: 'MonthlyEmail',
          userId,
          kind,
          month,
          sentAt: now.toISOString(),
          expiresAt: expiry(now),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export async function teamMonthDone(teamId: string, month: string): Promise<boolean> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.monthlyEmailsDone(teamId, month) }),
  );
  return Item !== undefined;
}

export async function markTeamMonthDone(teamId: string, month: string, now: Date): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.monthlyEmailsDone(teamId, month),
        entity: 'MonthlyEmailsDone',
        teamId,
        month,
        doneAt: now.toISOString(),
        expiresAt: expiry(now),
      },
    }),
  );
}

/**
 * Turns a person's monthly e-mail of `kind` on or off (a string set of the
 * kinds off). Only an existing person; their other kind is left as it is.
 */
export async function setMonthlyEmail(userId: string, kind: MonthlyEmailKind, on: boolean): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.user(userId),
      UpdateExpression: on ? 'DELETE monthlyEmailsOff :kind' : 'ADD monthlyEmailsOff :kind',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':kind': new Set([kind]) },
    }),
  );
}

/** Whether a person gets their monthly e-mail of `kind` (on unless turned off). */
export function monthlyEmailOn(user: { monthlyEmailsOff?: Set<string> }, kind: MonthlyEmailKind): boolean {
  return !user.monthlyEmailsOff?.has(kind);
}
