/**
 * Purchases (card captures awaiting or holding their receipt). Written by the
 * settlement (services/cards/cardSettlement.ts); read here newest first by team
 * (gsi1, access pattern 17) or by employee (gsi2, pattern 18), a page at a time.
 */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { UNKNOWN_MEDIA, UNKNOWN_SKILL } from '@shared/domain/insightDeltas';
import { AppError } from '@shared/errors';
import { db, isConditionFailure, queryAll, tableName } from './client';
import { keys } from './keys';

export interface ReceiptRecord {
  key: string;
  contentType: string;
  size: number;
  uploadedAt: string;
  uploadedBy: string;
}

export interface PurchaseRecord {
  purchaseId: string;
  userId: string;
  teamId: string;
  cardId: string;
  authorizationId?: string;
  /** What the ledger settled for this capture, cents. */
  amountCents: number;
  /** What the merchant refunded against it so far, cents. */
  refundedCents?: number;
  merchant: string;
  category: string;
  createdAt: string;
  receiptStatus: 'awaiting' | 'received';
  title?: string;
  receipt?: ReceiptRecord;
  /** When the manager first opened the receipt; from then on the employee cannot replace it. */
  receiptSeenAt?: string;
  receiptReceivedAt?: string;
  /** Reminder stages already e-mailed (a string set: 'reminder', 'dueToday'); see receiptPolicy. */
  receiptReminders?: Set<string>;
  /** Skill area and media type (issue 26): inferred at capture, or set by the employee or manager; absent on older purchases (Uncategorised). */
  skillArea?: string;
  media?: string;
  skillSource?: 'inferred' | 'employee' | 'manager' | 'none';
  /** The team's calendar month its capture was counted in (insights aggregates). */
  insightMonth?: string;
}

/**
 * A purchase as stored: its own key, the team's and the person's lists, and,
 * while it awaits its receipt, the sparse receipt-due list (gsi3). The one
 * place the item is put together: the settlement writes it, and tests that
 * need a purchase without the card network write the very same.
 */
export function purchaseItem(purchase: PurchaseRecord): Record<string, unknown> {
  const { purchaseId, teamId, userId, createdAt } = purchase;
  return {
    ...keys.purchase(purchaseId),
    ...keys.purchaseByTeam(teamId, createdAt, purchaseId),
    ...keys.purchaseByUser(userId, createdAt, purchaseId),
    ...(purchase.receiptStatus === 'awaiting'
      ? keys.purchaseAwaitingReceipt(teamId, userId, createdAt, purchaseId)
      : {}),
    entity: 'Purchase',
    ...purchase,
  };
}

export async function getPurchase(purchaseId: string): Promise<PurchaseRecord | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: keys.purchase(purchaseId) }));
  return result.Item as PurchaseRecord | undefined;
}

const SORT_KEY = /^PURCHASE#[0-9T:.\-Z]+#[\w-]+$/;

function encodeCursor(sortKey: string): string {
  return Buffer.from(JSON.stringify({ s: sortKey })).toString('base64url');
}

function decodeCursor(cursor: string): string {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { s?: unknown };
    if (typeof value.s === 'string' && SORT_KEY.test(value.s)) return value.s;
  } catch {
    // fall through
  }
  throw new AppError('VALIDATION_FAILED', 'Invalid cursor', { fields: { cursor: 'Invalid cursor' } });
}

/** A cursor that starts the next page after `purchase` (when a page stops before the query's end). */
export function purchaseCursor(purchase: PurchaseRecord): string {
  return encodeCursor(`PURCHASE#${purchase.createdAt}#${purchase.purchaseId}`);
}

/** One page of a team's (gsi1) or an employee's (gsi2) purchases, newest first: the filtered page with no filter. */
export function purchasesPage(
  owner: { teamId: string } | { userId: string },
  limit: number,
  cursor: string | undefined,
): Promise<{ purchases: PurchaseRecord[]; nextCursor: string | null }> {
  return filteredPurchasesPage(owner, {}, {}, limit, cursor);
}

/** What a filtered list keeps (issue 26): each field set narrows it; absent skill area / media count as Uncategorised / other. */
export interface PurchaseMatch {
  skillArea?: string;
  media?: string;
  merchant?: string;
  /** Only purchases whose receipt is not in yet (awaiting or overdue). */
  awaitingReceipt?: boolean;
}

/** What one filtered page reads from DynamoDB at most, however few items match. */
export const FILTERED_READ_AT_MOST = 1000;

/** The FilterExpression for `match`, or undefined when it keeps every purchase of the range. */
function matchFilter(match: PurchaseMatch) {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, string> = {};
  const equals = (attribute: string, value: string, orAbsent: boolean) => {
    names[`#${attribute}`] = attribute;
    values[`:${attribute}`] = value;
    parts.push(
      orAbsent
        ? `(attribute_not_exists(#${attribute}) OR #${attribute} = :${attribute})`
        : `#${attribute} = :${attribute}`,
    );
  };
  if (match.skillArea !== undefined) equals('skillArea', match.skillArea, match.skillArea === UNKNOWN_SKILL);
  if (match.media !== undefined) equals('media', match.media, match.media === UNKNOWN_MEDIA);
  if (match.merchant !== undefined) equals('merchant', match.merchant, false);
  if (match.awaitingReceipt) {
    // As the list shows it (services/purchases toRow): received only once recorded with its file.
    names['#receiptStatus'] = 'receiptStatus';
    names['#receipt'] = 'receipt';
    values[':received'] = 'received';
    parts.push('(#receiptStatus <> :received OR attribute_not_exists(#receipt))');
  }
  if (parts.length === 0) return undefined;
  return { expression: parts.join(' AND '), names, values };
}

/**
 * One page of a team's (gsi1) or an employee's (gsi2) purchases made in
 * [`range.from`, `range.to`) (ISO instants; a key range, so nothing outside it
 * is read), newest first, keeping those that `match`. DynamoDB filters after
 * reading, so this reads on until `limit` match or the range ends, but never
 * more than FILTERED_READ_AT_MOST items: the page may then be short, even
 * empty, with a cursor to read on from. The cursor is the unfiltered list's.
 */
export async function filteredPurchasesPage(
  owner: { teamId: string } | { userId: string },
  range: { from?: string; to?: string },
  match: PurchaseMatch,
  limit: number,
  cursor: string | undefined,
): Promise<{ purchases: PurchaseRecord[]; nextCursor: string | null }> {
  const byTeam = 'teamId' in owner;
  const index = byTeam ? 'gsi1' : 'gsi2';
  const partition = byTeam ? `TEAM#${owner.teamId}` : `USER#${owner.userId}`;
  // `PURCHASE#<to>` sorts before every purchase made at `to` or later: BETWEEN is [from, to) here.
  const low = range.from ? `PURCHASE#${range.from}` : 'PURCHASE#';
  const high = range.to ? `PURCHASE#${range.to}` : 'PURCHASE$';
  let start: Record<string, string> | undefined;
  if (cursor) {
    const sortKey = decodeCursor(cursor);
    // DynamoDB refuses a start key outside the key condition: a cursor of another range is not this list's.
    if (sortKey < low || sortKey > high) {
      throw new AppError('VALIDATION_FAILED', 'Invalid cursor', { fields: { cursor: 'Invalid cursor' } });
    }
    const purchaseId = sortKey.slice(sortKey.lastIndexOf('#') + 1);
    start = { ...keys.purchase(purchaseId), [`${index}pk`]: partition, [`${index}sk`]: sortKey };
  }
  const filter = matchFilter(match);
  const found: PurchaseRecord[] = [];
  let read = 0;
  // The first read asks for a page's worth (a filter that keeps most costs no more than the plain list), then more.
  let ask = limit;
  for (;;) {
    const result = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: index,
        KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :low AND :high',
        FilterExpression: filter?.expression,
        ExpressionAttributeNames: { '#pk': `${index}pk`, '#sk': `${index}sk`, ...filter?.names },
        ExpressionAttributeValues: { ':pk': partition, ':low': low, ':high': high, ...filter?.values },
        ScanIndexForward: false,
        Limit: Math.min(ask, FILTERED_READ_AT_MOST - read),
        ExclusiveStartKey: start,
      }),
    );
    read += result.ScannedCount ?? 0;
    const items = (result.Items ?? []) as PurchaseRecord[];
    const last = result.LastEvaluatedKey;
    for (const [at, item] of items.entries()) {
      found.push(item);
      if (found.length < limit) continue;
      // Enough: the next page starts after the last one listed (none when the range ended with it).
      const more = at < items.length - 1 || last !== undefined;
      return { purchases: found, nextCursor: more ? purchaseCursor(item) : null };
    }
    if (!last) return { purchases: found, nextCursor: null };
    if (read >= FILTERED_READ_AT_MOST) {
      return { purchases: found, nextCursor: encodeCursor(last[`${index}sk`] as string) };
    }
    start = last as Record<string, string>;
    ask = Math.min(ask * 4, FILTERED_READ_AT_MOST);
  }
}

/**
 * An employee's purchases settled at or after `fromIso` (gsi2, pattern 18, a
 * key range: nothing older is read), with only what the monthly nudge needs:
 * when, and the skill area (issue 26; absent on purchases nobody categorised).
 */
export function purchasesOfUserSince(
  userId: string,
  fromIso: string,
): Promise<{ createdAt: string; skillArea?: string }[]> {
  return queryAll({
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': `USER#${userId}`,
      ':from': `PURCHASE#${fromIso}`,
      ':to': 'PURCHASE$',
    },
    ProjectionExpression: 'createdAt, skillArea',
  });
}

/**
 * Records a checked receipt and its title. Refused (CONFLICT) once the manager
 * has seen the current receipt: from then on it is evidence, not a draft.
 */
export async function recordReceipt(
  purchaseId: string,
  title: string,
  receipt: ReceiptRecord,
): Promise<PurchaseRecord> {
  try {
    const result = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.purchase(purchaseId),
        // Leaving the sparse awaiting-receipt index (gsi3) in the same write keeps it exact.
        UpdateExpression:
          'SET #title = :title, #receipt = :receipt, #state = :received REMOVE gsi3pk, gsi3sk',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(receiptSeenAt)',
        ExpressionAttributeNames: { '#title': 'title', '#receipt': 'receipt', '#state': 'receiptStatus' },
        ExpressionAttributeValues: { ':title': title, ':receipt': receipt, ':received': 'received' },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return result.Attributes as PurchaseRecord;
  } catch (error) {
    if (isConditionFailure(error)) {
      throw new AppError('CONFLICT', 'Your manager has already seen this receipt, so it cannot be replaced.');
    }
    throw error;
  }
}

/** Marks the current receipt seen by the manager (first look only). */
export async function markReceiptSeen(purchaseId: string, at: string): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.purchase(purchaseId),
        UpdateExpression: 'SET receiptSeenAt = :at',
        ConditionExpression: 'attribute_exists(#receipt) AND attribute_not_exists(receiptSeenAt)',
        ExpressionAttributeNames: { '#receipt': 'receipt' },
        ExpressionAttributeValues: { ':at': at },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
