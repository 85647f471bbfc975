/**
 * A data folder from before the awaiting-receipt index: `npm start` runs
 * ensureTable (which adds gsi3 to the old table) and then upgradeData (whose
 * backfill lists the old purchases still awaiting a receipt). Here the file's
 * table is replaced by one made with the old spec (gsi1 and gsi2 only), with
 * purchases written as the old settlement wrote them, and the same two steps run.
 *
 * On a DynamoDB Local of its own, as `npm start` has: adding an index to a
 * table of the suite's shared instance could wait on the other files' traffic.
 */
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTable, startDynamoDb } from '../../infra/local/dynamodb';
import { prefixedLog } from '../../infra/local/processes';
import { teamCycleIndex } from '../../lambdas/src/data/accounts';
import { keys } from '../../lambdas/src/data/keys';
import { teamPurchasesAwaitingReceipt } from '../../lambdas/src/data/purchaseReceipts';
import { indexAwaitingReceipts } from '../../lambdas/src/data/receiptIndexMigration';
import { createTableInput } from '../../lambdas/src/data/tableSpec';
import { freePort } from '../support/ports';

const TABLE = 'learning-budget-before-gsi3';
let dynamodb: Awaited<ReturnType<typeof startDynamoDb>>;
let raw: DynamoDBClient;
let doc: DynamoDBDocumentClient;
beforeAll(async () => {
  dynamodb = await startDynamoDb({ port: await freePort(), log: prefixedLog('dynamodb', true) });
  // The data layer (the backfill, the query) reads these on first use, as a Lambda would.
  Object.assign(process.env, {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    TABLE_NAME: TABLE,
    DYNAMODB_ENDPOINT: dynamodb.endpoint,
  });
  raw = new DynamoDBClient({
    endpoint: dynamodb.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  doc = DynamoDBDocumentClient.from(raw);
}, 120_000);
afterAll(async () => {
  raw?.destroy();
  await dynamodb?.stop();
});

const getItem = async (key: { pk: string; sk: string }) =>
  (await doc.send(new GetCommand({ TableName: TABLE, Key: key }))).Item;

/** The CreateTable request of the version before gsi3 (gsi1 and gsi2 only; gsi4 came later still). */
function tableBeforeGsi3(tableName: string) {
  const input = createTableInput(tableName);
  const old = (name: string) => name.startsWith('gsi1') || name.startsWith('gsi2');
  return {
    ...input,
    AttributeDefinitions: input.AttributeDefinitions.filter(
      (a) => !a.AttributeName.startsWith('gsi') || old(a.AttributeName),
    ),
    GlobalSecondaryIndexes: input.GlobalSecondaryIndexes.filter((i) => old(i.IndexName)),
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
    await raw.send(new CreateTableCommand(tableBeforeGsi3(TABLE)));
    const before = await raw.send(new DescribeTableCommand({ TableName: TABLE }));
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
    await doc.send(
      new BatchWriteCommand({
        RequestItems: { [TABLE]: items.map((Item) => ({ PutRequest: { Item } })) },
      }),
    );

    await ensureTable(dynamodb.endpoint, TABLE);
    const after = await raw.send(new DescribeTableCommand({ TableName: TABLE }));
    const gsi3 = after.Table?.GlobalSecondaryIndexes?.find((i) => i.IndexName === 'gsi3');
    expect(gsi3).toMatchObject({
      IndexStatus: 'ACTIVE',
      KeySchema: [
        { AttributeName: 'gsi3pk', KeyType: 'HASH' },
        { AttributeName: 'gsi3sk', KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    });
    // Every later index too, one after the other (DynamoDB adds one index per update).
    expect(after.Table?.GlobalSecondaryIndexes?.map((i) => i.IndexName).sort()).toEqual([
      'gsi1',
      'gsi2',
      'gsi3',
      'gsi4',
    ]);
    // Run again (the next start): the table is left as it is.
    await ensureTable(dynamodb.endpoint, TABLE);

    expect(await indexAwaitingReceipts()).toEqual({ indexed: 2, unlisted: 1, teams: 1 });
    expect((await teamPurchasesAwaitingReceipt(TEAM)).map((p) => p.purchaseId)).toEqual([
      'ipi_old_awaiting',
      'ipi_recent_awaiting',
    ]);
    expect(await getItem(keys.purchase('ipi_old_awaiting'))).toMatchObject(
      keys.purchaseAwaitingReceipt(TEAM, 'u1', '2025-01-02T15:00:00.000Z', 'ipi_old_awaiting'),
    );
    expect(await getItem(keys.purchase('ipi_old_received'))).not.toHaveProperty('gsi3pk');
    expect(await getItem(keys.purchase('ipi_stale_listing'))).not.toHaveProperty('gsi3pk');

    // Idempotent: a second run (every local start runs it) changes nothing.
    expect(await indexAwaitingReceipts()).toEqual({ indexed: 0, unlisted: 0, teams: 1 });
    // A budget, not an assertion: adding an index waits for DynamoDB Local's backfill.
  }, 120_000);
});
