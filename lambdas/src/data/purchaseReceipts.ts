/**
 * Purchases as the receipt policy and the manager's CSV export read them
 * (access patterns 17 and 18, keys in keys.ts). A purchase is written by the
 * card settlement with `receiptStatus: 'awaiting'`; the receipt upload marks it
 * received. Reminder stages already sent are kept on the purchase, so a
 * reminder is sent once however often the job runs.
 */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, queryAll, tableName, updateFields } from './client';
import { keys } from './keys';
import type { PurchaseRecord } from './purchases';

const awaiting = {
  FilterExpression: 'receiptStatus = :awaiting',
};

/** A team's purchases still awaiting a receipt (pattern 17, filtered). */
export async function teamPurchasesAwaitingReceipt(teamId: string): Promise<PurchaseRecord[]> {
  return queryAll<PurchaseRecord>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
    ...awaiting,
    ExpressionAttributeValues: { ':pk': `TEAM#${teamId}`, ':prefix': 'PURCHASE#', ':awaiting': 'awaiting' },
  });
}

/** An employee's purchases still awaiting a receipt (pattern 18, filtered). */
export async function userPurchasesAwaitingReceipt(userId: string): Promise<PurchaseRecord[]> {
  return queryAll<PurchaseRecord>({
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk AND begins_with(gsi2sk, :prefix)',
    ...awaiting,
    ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':prefix': 'PURCHASE#', ':awaiting': 'awaiting' },
  });
}

/**
 * A team's purchases made in [from, to) (ISO times), newest first, one
 * DynamoDB page at a time (pattern 17 with a range on the sort key), so a
 * caller can stream thousands without holding them all.
 */
export async function* teamPurchasesBetween(
  teamId: string,
  from: string,
  to: string,
  pageSize = 500,
): AsyncGenerator<PurchaseRecord[]> {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': `TEAM#${teamId}`,
          ':from': `PURCHASE#${from}`,
          // Every sort key of a purchase made before `to` sorts below `PURCHASE#<to>`.
          ':to': `PURCHASE#${to}`,
        },
        ScanIndexForward: false,
        Limit: pageSize,
        ExclusiveStartKey: start,
      }),
    );
    const items = (page.Items ?? []) as PurchaseRecord[];
    if (items.length > 0) yield items;
    start = page.LastEvaluatedKey;
  } while (start);
}

/** Records that a reminder stage was sent; false when it already was, or the receipt came in meanwhile. */
export async function markReminderSent(purchaseId: string, stage: string): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.purchase(purchaseId),
        UpdateExpression: 'ADD receiptReminders :stage',
        ConditionExpression:
          'attribute_exists(pk) AND receiptStatus = :awaiting AND NOT contains(receiptReminders, :name)',
        ExpressionAttributeValues: { ':stage': new Set([stage]), ':name': stage, ':awaiting': 'awaiting' },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** The receipt is in (the upload's confirm does this; tests call it directly). */
export async function markReceiptReceived(purchaseId: string, at: string): Promise<void> {
  await updateFields(keys.purchase(purchaseId), { receiptStatus: 'received', receiptReceivedAt: at });
}
