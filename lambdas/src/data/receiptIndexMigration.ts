/**
 * The sparse awaiting-receipt index (gsi3, access pattern 38) arrived after
 * purchases were already being recorded: those awaiting a receipt carry no
 * gsi3 keys, so the receipt job would not see them. This lists each of them
 * there, once, after the new code is live (docs/deploy.md; locally on every
 * start, infra/local/seed.ts).
 *
 * Per team (every team with billing), the old filtered query of the team's
 * purchases (pattern 17) finds those awaiting and not yet listed; each is
 * listed with a condition that it still awaits its receipt, so a receipt
 * recorded meanwhile wins. It also takes out of gsi3 any purchase that is
 * listed but received: an old Lambda still running during the deploy may
 * record a receipt without removing the keys the new settlement wrote.
 *
 * Idempotent and safe to run twice at once: a second run finds nothing to do
 * (each write is conditional and sets the same values).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { teamsWithBilling } from './accounts';
import { db, isConditionFailure, queryAll, tableName } from './client';
import { keys } from './keys';
import type { PurchaseRecord } from './purchases';

export interface ReceiptIndexResult {
  /** Purchases awaiting a receipt that this run listed in gsi3. */
  indexed: number;
  /** Received purchases this run took out of gsi3. */
  unlisted: number;
  /** Teams looked at. */
  teams: number;
}

/** A team's purchases awaiting a receipt but missing from gsi3 (reads the team's whole history, once). */
async function unlistedAwaiting(teamId: string): Promise<PurchaseRecord[]> {
  return queryAll<PurchaseRecord>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
    FilterExpression: 'receiptStatus = :awaiting AND attribute_not_exists(gsi3pk)',
    ExpressionAttributeValues: {
      ':pk': keys.purchaseByTeam(teamId, '', '').gsi1pk,
      ':prefix': 'PURCHASE#',
      ':awaiting': 'awaiting',
    },
  });
}

/** A team's gsi3 entries whose purchase is no longer awaiting. */
async function listedReceived(teamId: string): Promise<PurchaseRecord[]> {
  return queryAll<PurchaseRecord>({
    IndexName: 'gsi3',
    KeyConditionExpression: 'gsi3pk = :pk',
    FilterExpression: 'receiptStatus <> :awaiting',
    ExpressionAttributeValues: { ':pk': keys.receiptsDueOfTeam(teamId), ':awaiting': 'awaiting' },
  });
}

/** Runs one conditional update; false when its condition no longer held (someone else got there). */
async function conditional(input: ConstructorParameters<typeof UpdateCommand>[0]): Promise<boolean> {
  try {
    await db().send(new UpdateCommand(input));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export async function indexAwaitingReceipts(): Promise<ReceiptIndexResult> {
  const result: ReceiptIndexResult = { indexed: 0, unlisted: 0, teams: 0 };
  for (const team of await teamsWithBilling()) {
    result.teams++;
    for (const p of await unlistedAwaiting(team.teamId)) {
      const index = keys.purchaseAwaitingReceipt(team.teamId, p.userId, p.createdAt, p.purchaseId);
      const listed = await conditional({
        TableName: tableName(),
        Key: keys.purchase(p.purchaseId),
        UpdateExpression: 'SET gsi3pk = :pk, gsi3sk = :sk',
        ConditionExpression:
          'attribute_exists(pk) AND receiptStatus = :awaiting AND attribute_not_exists(gsi3pk)',
        ExpressionAttributeValues: { ':pk': index.gsi3pk, ':sk': index.gsi3sk, ':awaiting': 'awaiting' },
      });
      if (listed) result.indexed++;
    }
    for (const p of await listedReceived(team.teamId)) {
      const unlisted = await conditional({
        TableName: tableName(),
        Key: keys.purchase(p.purchaseId),
        UpdateExpression: 'REMOVE gsi3pk, gsi3sk',
        ConditionExpression: 'attribute_exists(gsi3pk) AND receiptStatus <> :awaiting',
        ExpressionAttributeValues: { ':awaiting': 'awaiting' },
      });
      if (unlisted) result.unlisted++;
    }
  }
  return result;
}
