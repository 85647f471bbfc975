/** Records of scheduled job runs, one per job and day, so a repeated firing does nothing twice. */
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, tableName } from './client';
import { keys } from './keys';

/** Claims today's run of a job; false when it was already claimed (a retry or a double firing). */
export async function claimJobRun(jobId: string, day: string, startedAt: string): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.jobRun(jobId, day), entity: 'JobRun', jobId, day, startedAt, status: 'running' },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export async function finishJobRun(jobId: string, day: string, summary: Record<string, number>, at: string) {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.jobRun(jobId, day),
      UpdateExpression: 'SET #status = :done, finishedAt = :at, summary = :summary',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':done': 'done', ':at': at, ':summary': summary },
    }),
  );
}

/** The day (`yyyy-mm-dd`) of a job's last finished run before `day`, if any. */
export async function lastFinishedRunBefore(jobId: string, day: string): Promise<string | undefined> {
  const { pk } = keys.jobRun(jobId, day);
  const result = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk < :day',
      FilterExpression: '#status = :done',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pk': pk, ':day': keys.jobRun(jobId, day).sk, ':done': 'done' },
      ScanIndexForward: false,
      Limit: 10,
    }),
  );
  return (result.Items?.[0]?.day as string | undefined) ?? undefined;
}
