/**
 * A data folder from before the awaiting-receipt index: `npm start` runs
 * ensureTable (which adds gsi3 to the old table) and then upgradeData (whose
 * backfill lists the old purchases still awaiting a receipt). Here the file's
 * table is replaced by one made with the old spec (gsi1 and gsi2 only), with
 * purchases written as the old settlement wrote them, and the same two steps run.
 */
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../../infra/local/dynamodb';
import { teamCycleIndex } from '../../lambdas/src/data/accounts';
import { keys } from '../../lambdas/src/data/keys';
import { teamPurchasesAwaitingReceipt } from '../../lambdas/src/data/purchaseReceipts';
import { indexAwaitingReceipts } from '../../lambdas/src/data/receiptIndexMigration';
import { createTableInput } from '../../lambdas/src/data/tableSpec';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';

let stack: IntegrationStack;
let raw: DynamoDBClient;
beforeAll(async () => {
  stack = await startIntegrationStack();
  raw = new DynamoDBClient({
    endpoint: inject('dynamodbEndpoint'),
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
});
afterAll(async () => {
  raw?.destroy();
  await stack?.stop();
});

/** The CreateTable request of the version before gsi3. */
function tableBeforeGsi3(tableName: string) {
  const input = createTableInput(tableName);
  return {
    ...input,
    AttributeDefinitions: input.AttributeDefinitions.filter((a) => !a.AttributeName.startsWith('gsi3')),
    GlobalSecondaryIndexes: input.GlobalSecondaryIndexes.filter((i) => i.IndexName !== 'gsi3'),
  };
}

const TEAM = 'team-before-gsi3';

/** A purchase as the settlement wrote it before gsi3 (no gsi3 keys), optionally received since. */
function oldPurchase(purchaseId: string, userId: string, createdAt: string, received: boolean) {
  return {
    ...keys.purchase(purchaseId),
    ...keys.purchaseByTeam(TEAM, createdAt, purchaseId),
    ...keys.purchaseByUser(userId, createdAt, purchaseId),
    entity: 'Purchase',
    purchaseId,
    userId,
    teamId: TEAM,
    cardId: `ic_${userId}`,
    amountCents: 1299,
    merchant: 'Old Books',
    category: 'book_stores',
    createdAt,
    receiptStatus: received ? 'received' : 'awaiting',
  };
}

describe('upgrading a table made before gsi3', () => {
  it('ensureTable adds gsi3 to the old table and the backfill lists the old purchases still awaiting a receipt, once', async () => {
    await raw.send(new DeleteTableCommand({ TableName: stack.tableName }));
    await raw.send(new CreateTableCommand(tableBeforeGsi3(stack.tableName)));
    const before = await raw.send(new DescribeTableCommand({ TableName: stack.tableName }));
    expect(before.Table?.GlobalSecondaryIndexes?.map((i) => i.IndexName).sort()).toEqual(['gsi1', 'gsi2']);

    const items = [
      // A team with billing, listed under its cycle day (as billing setup lists it).
      {
        ...keys.team(TEAM),
        ...teamCycleIndex(2, TEAM),
        entity: 'Team',
        teamId: TEAM,
        status: 'active',
        cycleDay: 2,
      },
      oldPurchase('ipi_old_awaiting', 'u1', '2025-01-02T15:00:00.000Z', false),
      oldPurchase('ipi_old_received', 'u1', '2025-01-03T15:00:00.000Z', true),
      oldPurchase('ipi_recent_awaiting', 'u2', '2026-02-02T15:00:00.000Z', false),
      // Listed by the new settlement, then received by an old Lambda that did not know gsi3.
      {
        ...oldPurchase('ipi_stale_listing', 'u2', '2026-02-03T15:00:00.000Z', true),
        ...keys.purchaseAwaitingReceipt(TEAM, 'u2', '2026-02-03T15:00:00.000Z', 'ipi_stale_listing'),
      },
    ];
    await stack.doc.send(
      new BatchWriteCommand({
        RequestItems: { [stack.tableName]: items.map((Item) => ({ PutRequest: { Item } })) },
      }),
    );

    await ensureTable(inject('dynamodbEndpoint'), stack.tableName);
    const after = await raw.send(new DescribeTableCommand({ TableName: stack.tableName }));
    const gsi3 = after.Table?.GlobalSecondaryIndexes?.find((i) => i.IndexName === 'gsi3');
    expect(gsi3).toMatchObject({
      IndexStatus: 'ACTIVE',
      KeySchema: [
        { AttributeName: 'gsi3pk', KeyType: 'HASH' },
        { AttributeName: 'gsi3sk', KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    });
    // Run again (the next start): the table is left as it is.
    await ensureTable(inject('dynamodbEndpoint'), stack.tableName);

    expect(await indexAwaitingReceipts()).toEqual({ indexed: 2, unlisted: 1, teams: 1 });
    expect((await teamPurchasesAwaitingReceipt(TEAM)).map((p) => p.purchaseId)).toEqual([
      'ipi_old_awaiting',
      'ipi_recent_awaiting',
    ]);
    expect(await stack.getItem(keys.purchase('ipi_old_awaiting'))).toMatchObject(
      keys.purchaseAwaitingReceipt(TEAM, 'u1', '2025-01-02T15:00:00.000Z', 'ipi_old_awaiting'),
    );
    expect(await stack.getItem(keys.purchase('ipi_old_received'))).not.toHaveProperty('gsi3pk');
    expect(await stack.getItem(keys.purchase('ipi_stale_listing'))).not.toHaveProperty('gsi3pk');

    // Idempotent: a second run (every local start runs it) changes nothing.
    expect(await indexAwaitingReceipts()).toEqual({ indexed: 0, unlisted: 0, teams: 1 });
  });
});
