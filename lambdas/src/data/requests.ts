/**
 * Fund requests (issue 27; docs/data-model.md "Fund requests"). Keys in keys.ts:
 * `REQUEST#<id>` / `REQUEST`, listed by team on gsi1 and by the employee on
 * gsi2 (`REQUEST#<createdAt>#<id>`, newest first), and on the sparse gsi3
 * under the day it expires while it is pending. Beside it, per employee and
 * item, the guard `USER#<id>` / `OPENREQUEST#<item>` holds the open request:
 * created with it in one transaction, marked closed in the same transaction
 * as the request leaves pending, so there is one open request per item.
 *
 * Every state change is conditioned on the state it leaves (and, for an
 * approval in flight, on its attempt), so two tabs or a job and a person
 * racing on one request change it once.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { RequestState } from '@shared/schemas/requests';
import { db, isConditionFailure, queryAll, tableName } from './client';
import { keys } from './keys';
import { failedConditionItems, sendTransaction, type TransactItem } from './transactions';

export interface RequestRecord {
  requestId: string;
  teamId: string;
  userId: string;
  /** The catalogue item asked for, if any. */
  itemId?: string;
  /** What makes two requests "the same item": the item id, or the free-form link or title. */
  itemKey: string;
  title: string;
  link?: string;
  merchant: string;
  amountCents: number;
  why: string;
  skillArea: string;
  state: RequestState;
  createdAt: string;
  expiresAt: string;
  /** Each approval attempt's number: the deposit's key derives from it, so a retried attempt charges once and a new attempt after a card decline is a new charge. */
  attempt: number;
  /** The approval in flight (state `approving`): its Idempotency-Key, who, when and how much. */
  approvalKey?: string;
  approvingAt?: string;
  approvedCents?: number;
  decidedAt?: string;
  decidedBy?: string;
  automatic?: boolean;
  declineReason?: string;
  cardDecline?: string;
}

const LEAVES_PENDING: readonly RequestState[] = ['approving', 'approved', 'declined', 'cancelled', 'expired'];
const CLOSED: readonly RequestState[] = ['approved', 'declined', 'cancelled', 'expired'];

/** Stores a new pending request, unless the employee has an open request for the same item (`duplicate`). */
export async function putRequest(request: RequestRecord): Promise<'created' | 'duplicate'> {
  try {
    await sendTransaction([
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...keys.request(request.requestId),
            ...keys.requestByTeam(request.teamId, request.createdAt, request.requestId),
            ...keys.requestByUser(request.userId, request.createdAt, request.requestId),
            ...keys.requestExpiring(request.expiresAt, request.requestId),
            entity: 'Request',
            ...request,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...keys.openRequest(request.userId, request.itemKey),
            entity: 'OpenRequest',
            requestId: request.requestId,
            open: true,
          },
          ConditionExpression: 'attribute_not_exists(pk) OR #open = :false',
          ExpressionAttributeNames: { '#open': 'open' },
          ExpressionAttributeValues: { ':false': false },
        },
      },
    ]);
    return 'created';
  } catch (error) {
    if (failedConditionItems(error).includes(1)) return 'duplicate';
    throw error;
  }
}

export async function getRequest(requestId: string): Promise<RequestRecord | undefined> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.request(requestId), ConsistentRead: true }),
  );
  return result.Item as RequestRecord | undefined;
}

function strip(items: Record<string, unknown>[]): RequestRecord[] {
  return items.map(({ pk, sk, gsi1pk, gsi1sk, gsi2pk, gsi2sk, gsi3pk, gsi3sk, entity, ...rest }) => {
    return rest as unknown as RequestRecord;
  });
}

/** A team's requests, newest first. */
export async function listTeamRequests(teamId: string): Promise<RequestRecord[]> {
  const { gsi1pk } = keys.requestByTeam(teamId, '', '');
  return strip(
    await queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :request)',
      ExpressionAttributeValues: { ':pk': gsi1pk, ':request': 'REQUEST#' },
      ScanIndexForward: false,
    }),
  );
}

/** A team's requests made between two instants (`from` included, `to` not): a key range of its list (gsi1). */
export async function teamRequestsCreatedBetween(
  teamId: string,
  fromIso: string,
  toIso: string,
): Promise<RequestRecord[]> {
  const { gsi1pk } = keys.requestByTeam(teamId, '', '');
  return strip(
    await queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': gsi1pk, ':from': `REQUEST#${fromIso}`, ':to': `REQUEST#${toIso}` },
    }),
  ).filter((r) => r.createdAt < toIso);
}

/** One employee's requests, newest first. */
export async function listUserRequests(userId: string): Promise<RequestRecord[]> {
  const { gsi2pk } = keys.requestByUser(userId, '', '');
  return strip(
    await queryAll({
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk AND begins_with(gsi2sk, :request)',
      ExpressionAttributeValues: { ':pk': gsi2pk, ':request': 'REQUEST#' },
      ScanIndexForward: false,
    }),
  );
}

/** Pending requests expiring on a UTC day (`yyyy-mm-dd`), from the sparse gsi3. */
export async function requestsExpiringOn(day: string): Promise<{ requestId: string; expiresAt: string }[]> {
  const { gsi3pk } = keys.requestExpiring(`${day}T`, '');
  return queryAll({
    IndexName: 'gsi3',
    KeyConditionExpression: 'gsi3pk = :pk',
    ExpressionAttributeValues: { ':pk': gsi3pk },
    ProjectionExpression: 'requestId, expiresAt',
  });
}

/**
 * Moves a request from `from` to `to`, setting `fields`, in one transaction
 * with its guard when it closes. `when` adds a condition (an approval's
 * attempt). False when the request was not in `from` (someone else moved it).
 */
export async function moveRequest(
  request: Pick<RequestRecord, 'requestId' | 'userId' | 'itemKey' | 'expiresAt'>,
  from: RequestState,
  to: RequestState,
  fields: Partial<RequestRecord>,
  options: { remove?: (keyof RequestRecord)[]; whenAttempt?: number } = {},
): Promise<boolean> {
  const names: Record<string, string> = { '#state': 'state' };
  const values: Record<string, unknown> = { ':from': from, ':to': to };
  const sets = ['#state = :to'];
  Object.entries(fields).forEach(([name, value], i) => {
    if (value === undefined) return;
    names[`#f${i}`] = name;
    values[`:v${i}`] = value;
    sets.push(`#f${i} = :v${i}`);
  });
  const removes: string[] = (options.remove ?? []).map((name, i) => {
    names[`#r${i}`] = name;
    return `#r${i}`;
  });
  if (from === 'pending' && LEAVES_PENDING.includes(to)) removes.push('gsi3pk', 'gsi3sk');
  if (to === 'pending' && from !== 'pending') {
    const expiring = keys.requestExpiring(request.expiresAt, request.requestId);
    values[':g3pk'] = expiring.gsi3pk;
    values[':g3sk'] = expiring.gsi3sk;
    sets.push('gsi3pk = :g3pk', 'gsi3sk = :g3sk');
  }
  let condition = '#state = :from';
  if (options.whenAttempt !== undefined) {
    values[':attempt'] = options.whenAttempt;
    condition += ' AND attempt = :attempt';
  }
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName(),
        Key: keys.request(request.requestId),
        UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  ];
  if (CLOSED.includes(to)) {
    items.push({
      Update: {
        TableName: tableName(),
        Key: keys.openRequest(request.userId, request.itemKey),
        UpdateExpression: 'SET #open = :false',
        ConditionExpression: 'requestId = :id',
        ExpressionAttributeNames: { '#open': 'open' },
        ExpressionAttributeValues: { ':false': false, ':id': request.requestId },
      },
    });
  }
  try {
    await sendTransaction(items);
    return true;
  } catch (error) {
    if (failedConditionItems(error).includes(0)) return false;
    throw error;
  }
}

/**
 * Counts `cents` against a person's automatic approvals of a month, if the
 * month stays within `capCents` (atomic: two requests at once cannot both
 * pass a cap only one fits). False when it would not.
 */
export async function reserveAutoApproval(
  userId: string,
  month: string,
  cents: number,
  capCents: number,
): Promise<boolean> {
  if (cents > capCents) return false;
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.autoApprovedMonth(userId, month),
        UpdateExpression: 'ADD totalCents :cents SET entity = :entity',
        ConditionExpression: 'attribute_not_exists(totalCents) OR totalCents <= :room',
        ExpressionAttributeValues: { ':cents': cents, ':room': capCents - cents, ':entity': 'AutoApproved' },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Gives an automatic approval's cents back to the month (its charge was declined). */
export async function releaseAutoApproval(userId: string, month: string, cents: number): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.autoApprovedMonth(userId, month),
      UpdateExpression: 'ADD totalCents :minus',
      ExpressionAttributeValues: { ':minus': -cents },
    }),
  );
}
