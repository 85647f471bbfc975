/**
 * The audit log: every manager action, every money movement and what the
 * daily jobs do to people and cards, per team, in time order (the ULID sort
 * key). Entries are written once, never changed.
 */
import { createHash } from 'node:crypto';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditAction } from '@shared/domain/auditLog';
import { encodeTime } from 'ulid';
import { CROCKFORD, newId } from '../adapters/clock';
import { db, tableName } from './client';
import { keys } from './keys';
import type { TransactItem } from './transactions';

export interface AuditEvent {
  teamId: string;
  actorId: string;
  action: AuditAction;
  targetId?: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  at: string;
}

function auditPut(event: AuditEvent, eventId: string) {
  return {
    TableName: tableName(),
    Item: { ...keys.audit(event.teamId, eventId), entity: 'AuditEvent', eventId, ...event },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
}

export async function recordAudit(event: AuditEvent): Promise<void> {
  await db().send(new PutCommand(auditPut(event, newId(new Date(event.at)))));
}

/**
 * The id of an event something may try to record twice (a job's retried run,
 * the upload and the job lifting the same freeze): a ULID whose time is the
 * event's, so the log keeps its order, and whose other 16 characters come from
 * a hash of what the event is (`eventKey`), so the same event always gets the
 * same id and the conditional write keeps one.
 */
export function derivedAuditId(at: string, eventKey: string): string {
  const hash = createHash('sha256').update(eventKey).digest();
  const tail = Array.from(hash.subarray(0, 16), (byte) => CROCKFORD[byte % 32]).join('');
  return `${encodeTime(Date.parse(at), 10)}${tail}`;
}

/**
 * An audit entry as one item of a transaction, so the change it records and
 * the entry are written together or not at all; its id is derived from
 * `eventKey` (derivedAuditId), and an entry already there cancels the write.
 */
export function auditTransactItem(event: AuditEvent, eventKey: string): TransactItem {
  return { Put: auditPut(event, derivedAuditId(event.at, eventKey)) };
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
