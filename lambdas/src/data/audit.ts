/**
 * The audit log: every manager action and every money movement, per team,
 * in time order (the ULID sort key). Entries are written once, never changed.
 */
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditAction } from '../../../shared/src/domain/auditLog';
import { newId } from '../adapters/clock';
import { db, tableName } from './client';
import { keys } from './keys';

export interface AuditEvent {
  teamId: string;
  actorId: string;
  action: AuditAction;
  targetId?: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  at: string;
}

export async function recordAudit(event: AuditEvent): Promise<void> {
  const eventId = newId(new Date(event.at));
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.audit(event.teamId, eventId), entity: 'AuditEvent', eventId, ...event },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function listAudit(teamId: string, limit = 100): Promise<(AuditEvent & { eventId: string })[]> {
  const result = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.team(teamId).pk, ':prefix': 'AUDIT#' },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (result.Items ?? []) as (AuditEvent & { eventId: string })[];
}

/** Sort keys of a team's audit events sit between these (ULIDs sort by time). */
export const AUDIT_SK_FIRST = 'AUDIT#';
export const AUDIT_SK_AFTER_LAST = 'AUDIT$';

/**
 * Up to `limit` of a team's audit events older than the sort key `before`
 * (exclusive), newest first, each with its sort key for the next page.
 */
export async function auditBefore(
  teamId: string,
  before: string,
  limit: number,
): Promise<(AuditEvent & { eventId: string; sk: string })[]> {
  const result = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :before',
      ExpressionAttributeValues: { ':pk': keys.team(teamId).pk, ':first': AUDIT_SK_FIRST, ':before': before },
      ScanIndexForward: false,
      // BETWEEN is inclusive: one more, in case the bound itself comes back.
      Limit: limit + 1,
    }),
  );
  const items = (result.Items ?? []) as (AuditEvent & { eventId: string; sk: string })[];
  return items.filter((item) => item.sk !== before).slice(0, limit);
}
