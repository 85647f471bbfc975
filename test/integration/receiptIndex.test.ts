/**
 * The sparse awaiting-receipt index (gsi3, docs/data-model.md pattern 38) on
 * DynamoDB Local: the card settlement lists a purchase there, recording its
 * receipt takes it out in the same update, and the receipt job's query reads
 * only what is still awaited, however long the team's history. The job's own
 * results are receiptPolicy.test.ts's (unchanged); the upgrade of a table made
 * before gsi3 is receiptIndexUpgrade.test.ts.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../lambdas/src/data/keys';
import {
  markReceiptReceived,
  teamPurchasesAwaitingReceipt,
  userPurchasesAwaitingReceipt,
} from '../../lambdas/src/data/purchaseReceipts';
import { recordReceipt } from '../../lambdas/src/data/purchases';
import { indexAwaitingReceipts } from '../../lambdas/src/data/receiptIndexMigration';
import { createLogger } from '../../lambdas/src/platform/log';
import { applyCapture } from '../../lambdas/src/services/cards';
import { receiptsOutstanding, runReceiptDeadlines } from '../../lambdas/src/services/receipts';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { joinTeam, setUpTeam } from '../support/teams';

let stack: IntegrationStack;
beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
});
afterAll(async () => {
  await stack?.stop();
});

const log = createLogger({ test: 'receiptIndex' });
let captures = 0;

/** A purchase recorded by the real settlement (a capture with no hold: the card's debt, as any capture moves money). */
async function capture(employee: { cardId: string }, createdAt: string): Promise<string> {
  const transactionId = `ipi_index_${Date.now()}_${captures++}`;
  const result = await applyCapture(
    {
      transactionId,
      cardId: employee.cardId,
      amountCents: 100,
      merchant: 'Index Books',
      category: 'book_stores',
      createdAt,
    },
    log,
  );
  expect(result.status).toBe('posted');
  return transactionId;
}

const receipt = (userId: string, purchaseId: string) => ({
  key: `receipts/t/${purchaseId}/01JZZZZZZZZZZZZZZZZZZZZZZZ`,
  contentType: 'image/png',
  size: 100,
  uploadedAt: '2026-03-03T10:00:00.000Z',
  uploadedBy: userId,
});

/** What gsi3 holds for a team, with DynamoDB's own count of the items it read. */
async function gsi3Read(teamId: string) {
  const page = await stack.doc.send(
    new QueryCommand({
      TableName: stack.tableName,
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.receiptsDueOfTeam(teamId) },
    }),
  );
  return { ids: (page.Items ?? []).map((i) => i.purchaseId as string), scanned: page.ScannedCount };
}

describe('the awaiting-receipt index', () => {
  it('lists a captured purchase until its receipt is recorded, and takes it out in that same update', async () => {
    const { manager, teamId } = await setUpTeam(stack);
    const employee = await joinTeam(stack, manager, 30);
    const uploaded = await capture(employee, '2026-03-02T15:00:00.000Z');
    const marked = await capture(employee, '2026-03-02T16:00:00.000Z');

    expect(await stack.getItem(keys.purchase(uploaded))).toMatchObject({
      receiptStatus: 'awaiting',
      ...keys.purchaseAwaitingReceipt(teamId, employee.userId, '2026-03-02T15:00:00.000Z', uploaded),
    });
    expect((await gsi3Read(teamId)).ids).toEqual([uploaded, marked]);

    // The upload's confirm records the receipt with recordReceipt.
    await recordReceipt(uploaded, 'A book', receipt(employee.userId, uploaded));
    const recorded = await stack.getItem(keys.purchase(uploaded));
    expect(recorded).toMatchObject({ receiptStatus: 'received', title: 'A book' });
    expect(recorded).not.toHaveProperty('gsi3pk');
    expect(recorded).not.toHaveProperty('gsi3sk');
    // Replacing a receipt not yet seen keeps it out.
    await recordReceipt(uploaded, 'The same book', receipt(employee.userId, uploaded));
    expect(await stack.getItem(keys.purchase(uploaded))).not.toHaveProperty('gsi3pk');
    expect((await gsi3Read(teamId)).ids).toEqual([marked]);

    await markReceiptReceived(marked, '2026-03-03T10:00:00.000Z');
    expect(await stack.getItem(keys.purchase(marked))).not.toHaveProperty('gsi3pk');
    expect(await gsi3Read(teamId)).toEqual({ ids: [], scanned: 0 });
    expect(await teamPurchasesAwaitingReceipt(teamId)).toEqual([]);

    // A refund does not end "awaiting": the receipt is still due, so it stays listed.
    const refunded = await capture(employee, '2026-03-04T15:00:00.000Z');
    expect((await gsi3Read(teamId)).ids).toEqual([refunded]);
  });

  it("reads only what is awaited: 50 received purchases and 2 awaiting cost a read of 2, not the team's history", async () => {
    const { manager, teamId } = await setUpTeam(stack);
    const amy = await joinTeam(stack, manager, 30);
    const ben = await joinTeam(stack, manager, 30);
    for (let i = 0; i < 50; i++) {
      const createdAt = new Date(Date.UTC(2025, 0, 1 + i * 7, 15)).toISOString();
      const purchaseId = await capture(i % 2 === 0 ? amy : ben, createdAt);
      await markReceiptReceived(purchaseId, createdAt);
    }
    // One awaited for a year (it keeps the card frozen until it comes in), one from last week.
    const old = await capture(amy, '2025-03-02T15:00:00.000Z');
    const recent = await capture(ben, '2026-02-24T15:00:00.000Z');

    const read = await gsi3Read(teamId);
    expect(read.ids.sort()).toEqual([old, recent].sort());
    expect(read.scanned).toBe(2);
    // The old filtered query (pattern 17) read every purchase the team made to find the same two.
    const history = await stack.doc.send(
      new QueryCommand({
        TableName: stack.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
        FilterExpression: 'receiptStatus = :awaiting',
        ExpressionAttributeValues: {
          ':pk': `TEAM#${teamId}`,
          ':prefix': 'PURCHASE#',
          ':awaiting': 'awaiting',
        },
      }),
    );
    expect(history.ScannedCount).toBe(52);
    expect((history.Items ?? []).map((i) => i.purchaseId).sort()).toEqual([old, recent].sort());

    expect((await teamPurchasesAwaitingReceipt(teamId)).map((p) => p.purchaseId).sort()).toEqual(
      [old, recent].sort(),
    );
    expect((await userPurchasesAwaitingReceipt(teamId, amy.userId)).map((p) => p.purchaseId)).toEqual([old]);
    expect((await userPurchasesAwaitingReceipt(teamId, ben.userId)).map((p) => p.purchaseId)).toEqual([
      recent,
    ]);
    expect(await receiptsOutstanding(teamId)).toEqual(
      new Map([
        [amy.userId, 1],
        [ben.userId, 1],
      ]),
    );

    // The job sees both: the year-old one is overdue (Amy's card frozen), last week's is not yet (Ben's stays).
    const summary = await runReceiptDeadlines(new Date('2026-02-25T14:00:00.000Z'), log);
    expect(summary.teamsFailed).toBe(0);
    expect((await stack.getItem(keys.card(amy.cardId)))?.freeze).toEqual({ missingReceipt: true });
    expect((await stack.getItem(keys.card(ben.cardId)))?.freeze ?? {}).toEqual({});

    // The backfill finds nothing to do on a table whose purchases were all written by this code.
    expect(await indexAwaitingReceipts()).toMatchObject({ indexed: 0, unlisted: 0 });
  });
});
