/**
 * Virtual cards (issuer ids, last4, expiry, status: never the number or CVC)
 * and card authorization decisions.
 */
import { BatchGetCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { FreezeReasons } from '@shared/domain/spendPolicy';
import { db, tableName, updateFields } from './client';
import { keys } from './keys';
import { failedCondition, sendTransaction, type TransactItem } from './transactions';

export type CardStatus = 'active' | 'inactive' | 'canceled';

export type { FreezeReasons };

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
  /**
   * A replacement card's (issue 28, reactivation): added to everything ever
   * credited to the person to make its all-time limit, so it may spend what
   * they held when it was issued and what came after, not what the cancelled
   * card already spent. Absent (0) on a first card.
   */
  lifetimeOffsetCents?: number;
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
  /**
   * Position in Stripe's `request_history` of the latest request decided here.
   * A merchant's incremental authorization is a new request on the same
   * authorization, listed after the earlier ones, so this tells a new request
   * from a redelivered one. Absent on records from before increments were decided.
   */
  lastRequest?: number;
  /** Each request decided here, by its position in `request_history`: what was answered. */
  requests?: Record<string, RequestDecision>;
}

export interface RequestDecision {
  approved: boolean;
  reason?: string;
  /** What this request asked for (an increment asks only for the extra amount). */
  amountCents: number;
  decidedAt: string;
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

/** Many cards in few round trips (BatchGet takes 100 keys at a time). */
export async function getCards(cardIds: string[]): Promise<Map<string, CardRecord>> {
  const cards = new Map<string, CardRecord>();
  for (let i = 0; i < cardIds.length; i += 100) {
    const chunk = cardIds.slice(i, i + 100);
    const result = await db().send(
      new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: chunk.map((id) => keys.card(id)) } } }),
    );
    for (const item of result.Responses?.[tableName()] ?? []) cards.set(item.cardId, item as CardRecord);
  }
  return cards;
}

export async function updateCard(cardId: string, fields: Partial<CardRecord>): Promise<void> {
  await updateFields(keys.card(cardId), fields);
}

/** Whether a freeze reason is on the card now: the condition of a change that adds or lifts it. */
export type FreezeReasonCondition = { reason: keyof FreezeReasons; on: boolean };

/**
 * Sets a card's status and freeze reasons together with `entry` (the audit
 * entry that records it) in one transaction, only if the card is not canceled
 * and `reason` is as `expected` says: two runs (or the upload and the job)
 * racing to add or lift the same reason change the card, and log it, once.
 * False when the condition did not hold or the entry was already there.
 */
export async function changeCardFreeze(
  cardId: string,
  change: { status?: CardStatus; freeze: FreezeReasons },
  expected: FreezeReasonCondition,
  entry: TransactItem,
): Promise<boolean> {
  const reasonNow = expected.on
    ? 'freeze.#reason = :on'
    : '(attribute_not_exists(freeze.#reason) OR freeze.#reason <> :on)';
  const update: TransactItem = {
    Update: {
      TableName: tableName(),
      Key: keys.card(cardId),
      UpdateExpression: change.status ? 'SET freeze = :freeze, #status = :status' : 'SET freeze = :freeze',
      ConditionExpression: `attribute_exists(pk) AND #status <> :canceled AND ${reasonNow}`,
      ExpressionAttributeNames: { '#status': 'status', '#reason': expected.reason },
      ExpressionAttributeValues: {
        ':freeze': change.freeze,
        ':canceled': 'canceled',
        ':on': true,
        ...(change.status ? { ':status': change.status } : {}),
      },
    },
  };
  try {
    await sendTransaction([update, entry]);
    return true;
  } catch (error) {
    if (failedCondition(error)) return false;
    throw error;
  }
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

async function batchGet(wanted: { pk: string; sk: string }[]) {
  const result = await db().send(
    new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: wanted, ConsistentRead: true } } }),
  );
  const items = result.Responses?.[tableName()] ?? [];
  return (key: { pk: string; sk: string }) => items.find((i) => i.pk === key.pk && i.sk === key.sk);
}

/**
 * Everything an authorization decision reads, in one round trip when the card's
 * metadata names its owner (it always does for cards we issue); otherwise the
 * owner is read from our card record in a second one.
 */
export async function loadForDecision(
  authorizationId: string,
  cardId: string,
  userIdHint: string | undefined,
) {
  const wanted = [keys.authorization(authorizationId), keys.card(cardId)];
  if (userIdHint) wanted.push(keys.user(userIdHint), keys.account(`card:${userIdHint}`));
  let find = await batchGet(wanted);
  const decided = find(keys.authorization(authorizationId)) as AuthorizationRecord | undefined;
  const card = find(keys.card(cardId)) as CardRecord | undefined;
  const userId = userIdHint ?? card?.userId;
  if (userId && !userIdHint && !decided)
    find = await batchGet([keys.user(userId), keys.account(`card:${userId}`)]);
  // The card record is ours and decides whose card it is; a hint naming someone else counts for nothing.
  const owned = Boolean(userId) && card?.userId === userId;
  return {
    decided,
    card,
    userId: owned ? userId : undefined,
    user:
      owned && userId
        ? (find(keys.user(userId)) as { status: string; teamId: string } | undefined)
        : undefined,
    balanceCents: owned && userId ? Number(find(keys.account(`card:${userId}`))?.balanceCents ?? 0) : 0,
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
        ...(record.teamId
          ? keys.authorizationByTeam(record.teamId, record.decidedAt, record.authorizationId)
          : {}),
        entity: 'Authorization',
        ...record,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** A declined purchase as Purchase History and the Statement list it (beside its decision, `AUTH#<id>` / `DECLINE`). */
export interface DeclineRecord {
  authorizationId: string;
  userId?: string;
  teamId?: string;
  /** What the merchant asked for; nothing was held or taken. */
  amountCents: number;
  merchant: string;
  reason?: string;
  decidedAt: string;
}

/**
 * The decline's list item, written in the same transaction as its decision
 * (and failing with it on a redelivery). Not a ledger entry: no money moved.
 * Only a decline whose card is ours is listed (someone must see it).
 */
export function declineItem(record: AuthorizationRecord): TransactItem[] {
  if (record.approved || (!record.userId && !record.teamId)) return [];
  const { authorizationId, userId, teamId, decidedAt } = record;
  const decline: DeclineRecord = {
    authorizationId,
    ...(userId ? { userId } : {}),
    ...(teamId ? { teamId } : {}),
    amountCents: record.amountCents,
    merchant: record.merchant,
    ...(record.reason !== undefined ? { reason: record.reason } : {}),
    decidedAt,
  };
  return [
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.decline(authorizationId),
          ...(userId ? keys.declineByUser(userId, decidedAt, authorizationId) : {}),
          ...(teamId ? keys.declineByTeam(teamId, decidedAt, authorizationId) : {}),
          entity: 'Decline',
          ...decline,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
}

const DECLINE_SORT_KEY = /^DECLINE#[0-9T:.\-Z]+#[\w-]+$/;

/** Where a page of declines ends: the sort key of its last decline (opaque to callers). */
export function declinePosition(decline: DeclineRecord): string {
  return `DECLINE#${decline.decidedAt}#${decline.authorizationId}`;
}

export function isDeclinePosition(value: unknown): value is string {
  return typeof value === 'string' && DECLINE_SORT_KEY.test(value);
}

/**
 * Up to `limit` declines of a team (gsi1) or an employee (gsi2), newest
 * first, older than `after` (a `declinePosition`) when given. One query: only
 * declines carry these keys, so nothing is filtered away.
 */
export async function declinesPage(
  owner: { teamId: string } | { userId: string },
  limit: number,
  after?: string,
): Promise<DeclineRecord[]> {
  const byTeam = 'teamId' in owner;
  const index = byTeam ? 'gsi1' : 'gsi2';
  const partition = byTeam ? `TEAM#${owner.teamId}` : `USER#${owner.userId}`;
  // Start after the decline `after` names: its own keys (the position holds its id).
  const start = after
    ? {
        ...keys.decline(after.slice(after.lastIndexOf('#') + 1)),
        [`${index}pk`]: partition,
        [`${index}sk`]: after,
      }
    : undefined;
  const result = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: index,
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ExpressionAttributeNames: { '#pk': `${index}pk`, '#sk': `${index}sk` },
      ExpressionAttributeValues: { ':pk': partition, ':prefix': 'DECLINE#' },
      ScanIndexForward: false,
      Limit: limit,
      ExclusiveStartKey: start,
    }),
  );
  return (result.Items ?? []) as DeclineRecord[];
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

/**
 * Approved authorizations still holding money (not yet captured or released),
 * newest first, decided since `since`: an employee's (gsi2) or a team's (gsi1).
 * Issuers expire an uncaptured authorization after days, so the window bounds
 * the read; every page of it is read, the filter keeps only live holds.
 */
export async function pendingAuthorizations(
  owner: { teamId: string } | { userId: string },
  since: string,
): Promise<AuthorizationRecord[]> {
  const byTeam = 'teamId' in owner;
  const index = byTeam ? 'gsi1' : 'gsi2';
  const out: AuthorizationRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: index,
        KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
        FilterExpression: 'approved = :yes AND heldCents > :zero',
        ExpressionAttributeNames: { '#pk': `${index}pk`, '#sk': `${index}sk` },
        ExpressionAttributeValues: {
          ':pk': byTeam ? `TEAM#${owner.teamId}` : `USER#${owner.userId}`,
          ':from': `AUTH#${since}`,
          ':to': 'AUTH#\uffff',
          ':yes': true,
          ':zero': 0,
        },
        ScanIndexForward: false,
        ExclusiveStartKey: start,
      }),
    );
    out.push(...((page.Items ?? []) as AuthorizationRecord[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}
