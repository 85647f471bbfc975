/**
 * Purchases as the receipt policy and the manager's CSV export read them
 * (access patterns 17, 18 and 38, keys in keys.ts). A purchase is written by
 * the card settlement with `receiptStatus: 'awaiting'` and listed in the
 * sparse gsi3 (`RECEIPTDUE#<teamId>`); recording the receipt marks it received
 * and takes it out of gsi3 in the same update, so gsi3 holds exactly the
 * purchases still awaiting a receipt, however old, and the daily job reads
 * those and nothing else. Reminder stages already sent are kept on the
 * purchase, so a reminder is sent once however often the job runs.
 */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, queryAll, tableName, updateFields } from './client';
import { keys } from './keys';
import type { PurchaseRecord } from './purchases';

/** Attributes that list a purchase in gsi3; removed with the update that ends "awaiting". */
const AWAITING_RECEIPT_INDEX_KEYS = ['gsi3pk', 'gsi3sk'] as const;

/** A team's purchases still awaiting a receipt, by person, oldest first (pattern 38). */
export async function teamPurchasesAwaitingReceipt(teamId: string): Promise<PurchaseRecord[]> {
  return queryAll<PurchaseRecord>({
    IndexName: 'gsi3',
    KeyConditionExpression: 'gsi3pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.receiptsDueOfTeam(teamId) },
  });
}

/** One employee's purchases still awaiting a receipt, oldest first (pattern 38, their sort key prefix). */
export async function userPurchasesAwaitingReceipt(
  teamId: string,
  userId: string,
): Promise<PurchaseRecord[]> {
  return queryAll<PurchaseRecord>({
    IndexName: 'gsi3',
    KeyConditionExpression: 'gsi3pk = :pk AND begins_with(gsi3sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': keys.receiptsDueOfTeam(teamId),
      ':prefix': keys.receiptsDueOfUser(userId),
    },
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

/** The receipt is in (tests and the bench call this directly; the upload's confirm is recordReceipt). */
export async function markReceiptReceived(purchaseId: string, at: string): Promise<void> {
  await updateFields(
    keys.purchase(purchaseId),
    { receiptStatus: 'received', receiptReceivedAt: at },
    { remove: [...AWAITING_RECEIPT_INDEX_KEYS] },
  );
}
