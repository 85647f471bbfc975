/**
 * What the ledger benchmarks (bench/run.ts, bench/settlement.ts, bench/funding.ts,
 * bench/insights.ts) share: one DynamoDB Local with the product's table, the
 * environment the handlers read, a loop that runs N calls at a fixed
 * concurrency and reports calls per second with p50/p99 latency, bulk puts,
 * and a funded card with an approved hold to capture.
 */
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import Stripe from 'stripe';
import { startDynamoDb } from '../infra/local/dynamodb';
import { prefixedLog } from '../infra/local/processes';
import { createTableInput } from '../lambdas/src/data/tableSpec';
import { freePort } from '../test/support/ports';

export const BENCH_WEBHOOK_SECRET = 'whsec_bench';

export interface BenchTable {
  doc: DynamoDBDocumentClient;
  tableName: string;
  stop(): Promise<void>;
}

/** DynamoDB Local with the table, and the environment set before any handler module is imported. */
export async function startBenchTable(): Promise<BenchTable> {
  const dynamo = await startDynamoDb({ port: await freePort(), log: prefixedLog('dynamodb', true) });
  const tableName = 'bench';
  const raw = new DynamoDBClient({
    endpoint: dynamo.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await raw.send(new CreateTableCommand(createTableInput(tableName)));
  Object.assign(process.env, {
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    STRIPE_SECRET_KEY: 'sk_test_bench',
    FACTOR_KEY: 'bench-factor-key-not-a-secret',
    STRIPE_WEBHOOK_SECRET: BENCH_WEBHOOK_SECRET,
    LOG_LEVEL: 'error',
    // Metrics are still collected and serialized per request; only the printing is skipped.
    POWERTOOLS_METRICS_DISABLED: 'true',
  });
  return {
    doc: DynamoDBDocumentClient.from(raw),
    tableName,
    async stop() {
      raw.destroy();
      await dynamo.stop();
    },
  };
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export interface Throughput {
  perSecond: number;
  p50: number;
  p99: number;
  seconds: number;
}

/** Runs `one(0..total-1)` with `concurrency` callers at a time. */
export async function runConcurrent(
  total: number,
  concurrency: number,
  one: (i: number) => Promise<void>,
): Promise<Throughput> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        await one(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    perSecond: total / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    seconds,
  };
}

const stripe = new Stripe('sk_test_bench');

/** A Stripe event signed as Stripe signs it, wrapped as API Gateway hands it to the webhook Lambda. */
export function signedWebhook(id: string, type: string, object: unknown): APIGatewayProxyEventV2 {
  const body = JSON.stringify({ id: `evt_${id}`, object: 'event', type, data: { object } });
  return {
    body,
    isBase64Encoded: false,
    headers: {
      'stripe-signature': stripe.webhooks.generateTestHeaderString({
        payload: body,
        secret: BENCH_WEBHOOK_SECRET,
      }),
    },
    requestContext: { requestId: id },
  } as unknown as APIGatewayProxyEventV2;
}

/** Puts many items, 25 a BatchWrite, 8 at once, asking again for what DynamoDB left unprocessed. */
export async function batchPut(table: BenchTable, items: Record<string, unknown>[]): Promise<void> {
  await runConcurrent(Math.ceil(items.length / 25), 8, async (i) => {
    let batch: Record<string, unknown>[] = items
      .slice(i * 25, i * 25 + 25)
      .map((Item) => ({ PutRequest: { Item } }));
    while (batch.length > 0) {
      const result = await table.doc.send(
        new BatchWriteCommand({ RequestItems: { [table.tableName]: batch as never } }),
      );
      batch = (result.UnprocessedItems?.[table.tableName] as Record<string, unknown>[] | undefined) ?? [];
    }
  });
}

/** A bench employee's card, and the authorization to approve on it. */
export interface BenchCard {
  userId: string;
  teamId: string;
  cardId: string;
  authorizationId: string;
}

/**
 * An employee with an active card funded with $50.00 through the ledger, and
 * one authorization of `heldCents` approved by the real webhook handler: a
 * hold to capture. `tag` keeps the funding entry and the event ids apart
 * between callers.
 */
export async function cardWithHold(
  table: BenchTable,
  card: BenchCard,
  hold: { tag: string; merchant: string; heldCents: number },
): Promise<void> {
  const { post } = await import('../lambdas/src/data/ledger');
  const { funding } = await import('@shared/domain/ledger');
  const { putCard } = await import('../lambdas/src/data/cards');
  const { keys } = await import('../lambdas/src/data/keys');
  const { handler } = await import('../lambdas/src/webhooks/stripeWebhook');
  await table.doc.send(
    new PutCommand({
      TableName: table.tableName,
      Item: {
        ...keys.user(card.userId),
        userId: card.userId,
        teamId: card.teamId,
        role: 'employee',
        status: 'active',
        email: 'b@example.com',
      },
    }),
  );
  await putCard({
    cardId: card.cardId,
    cardholderId: 'ich_b',
    userId: card.userId,
    teamId: card.teamId,
    last4: '0000',
    expMonth: 1,
    expYear: 2030,
    status: 'active',
    lifetimeLimitCents: 0,
    createdAt: new Date().toISOString(),
  });
  await post(
    funding({
      entryId: `${hold.tag}FUND#${card.userId}`,
      teamId: card.teamId,
      userId: card.userId,
      amountCents: 5000,
      description: 'bench',
      chargeId: 'ch_b',
    }),
  );
  const answer = (await handler(
    signedWebhook(`${hold.tag}auth-${card.authorizationId}`, 'issuing_authorization.request', {
      id: card.authorizationId,
      object: 'issuing.authorization',
      amount: 0,
      currency: 'usd',
      status: 'pending',
      approved: false,
      card: { id: card.cardId, metadata: { userId: card.userId } },
      merchant_data: { name: hold.merchant, category: 'book_stores' },
      pending_request: { amount: hold.heldCents, currency: 'usd' },
      transactions: [],
    }),
  )) as { body?: string };
  if (!String(answer.body).includes('"approved":true')) throw new Error('setup: authorization declined');
}
