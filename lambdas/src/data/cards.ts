/**
 * Virtual cards (issuer ids, last4, expiry, status: never the number or CVC)
 * and card authorization decisions.
 */
import { BatchGetCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { keys } from './keys';

export type CardStatus = 'active' | 'inactive' | 'canceled';

/** Why a card is frozen. A manager's freeze is only lifted by a manager; a receipt freeze lifts itself. */
export interface FreezeReasons {
  manager?: boolean;
  missingReceipt?: boolean;
  dormant?: boolean;
}

export interface CardRecord {
  cardId: string;
  cardholderId: string;
  userId: string;
  teamId: string;
  last4: string;
  expMonth: number;
  expYear: number;
  status: CardStatus;
  freeze?: FreezeReasons;
  /** The all-time limit last mirrored into the issuer's spending controls. */
  lifetimeLimitCents: number;
  createdAt: string;
}

export interface AuthorizationRecord {
  authorizationId: string;
  cardId: string;
  userId?: string;
  teamId?: string;
  approved: boolean;
  /** Plain words for the employee when declined. */
  reason?: string;
  amountCents: number;
  /** Still on hold for this authorization. */
  heldCents: number;
  merchant: string;
  category: string;
  decidedAt: string;
  /** Captures already settled against this authorization: transaction id -> cents. */
  captures?: Record<string, number>;
}

export async function putCard(card: CardRecord): Promise<void> {
  await db().send(
    new PutCommand({ TableName: tableName(), Item: { ...keys.card(card.cardId), entity: 'Card', ...card } }),
  );
}

export async function getCard(cardId: string): Promise<CardRecord | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: keys.card(cardId) }));
  return result.Item as CardRecord | undefined;
}

export async function updateCard(cardId: string, fields: Partial<CardRecord>): Promise<void> {
  const entries = Object.entries(fields);
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.card(cardId),
      UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#f${i}`, k])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
    }),
  );
}

export async function getAuthorization(authorizationId: string): Promise<AuthorizationRecord | undefined> {
  const result = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.authorization(authorizationId),
      ConsistentRead: true,
    }),
  );
  return result.Item as AuthorizationRecord | undefined;
}

/** One round trip for everything an authorization decision reads. */
export async function loadForDecision(authorizationId: string, cardId: string, userId: string | undefined) {
  const wanted = [keys.authorization(authorizationId), keys.card(cardId)];
  if (userId) wanted.push(keys.user(userId), keys.account(`card:${userId}`));
  const result = await db().send(
    new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: wanted, ConsistentRead: true } } }),
  );
  const items = result.Responses?.[tableName()] ?? [];
  const find = (key: { pk: string; sk: string }) => items.find((i) => i.pk === key.pk && i.sk === key.sk);
  return {
    decided: find(keys.authorization(authorizationId)) as AuthorizationRecord | undefined,
    card: find(keys.card(cardId)) as CardRecord | undefined,
    user: userId ? (find(keys.user(userId)) as { status: string; teamId: string } | undefined) : undefined,
    balanceCents: userId ? Number(find(keys.account(`card:${userId}`))?.balanceCents ?? 0) : 0,
  };
}

export function authorizationItem(record: AuthorizationRecord) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.authorization(record.authorizationId),
        ...(record.userId
          ? keys.authorizationByUser(record.userId, record.decidedAt, record.authorizationId)
          : {}),
        entity: 'Authorization',
        ...record,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** A card owner's latest decisions, newest first (to show why a purchase was declined). */
export async function recentAuthorizations(userId: string, limit = 10): Promise<AuthorizationRecord[]> {
  const result = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk AND begins_with(gsi2sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':prefix': 'AUTH#' },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (result.Items ?? []) as AuthorizationRecord[];
}
