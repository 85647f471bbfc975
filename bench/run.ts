/**
 * `npm run bench`: the card-authorization path, measured (not asserted).
 *   - decisions per second and p50/p99 latency through the webhook handler
 *     (signed events, in-process as Lambda runs it) against DynamoDB Local, at
 *     1, 8 and 32 concurrent requests;
 *   - beside it, the raw throughput of a bare two-item DynamoDB transaction in
 *     the same run: the local ceiling;
 *   - the authorization Lambda's bundle size and its cold import time.
 * Everything runs on 127.0.0.1 and stops by itself.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { build } from 'esbuild';
import Stripe from 'stripe';
import { LAMBDA_ESBUILD_TARGET } from '../infra/lib/nodeRuntime';
import { startDynamoDb } from '../infra/local/dynamodb';
import { prefixedLog } from '../infra/local/processes';
import { createTableInput } from '../lambdas/src/data/tableSpec';
import { freePort } from '../test/support/ports';

const WEBHOOK_SECRET = 'whsec_bench';
const REQUESTS_PER_LEVEL = 600;
const LEVELS = [1, 8, 32];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function runConcurrent(total: number, concurrency: number, one: (i: number) => Promise<void>) {
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
  return { perSecond: total / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function main() {
  const dynamo = await startDynamoDb({ port: await freePort(), log: prefixedLog('dynamodb', true) });
  const tableName = 'bench';
  const raw = new DynamoDBClient({
    endpoint: dynamo.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await raw.send(new CreateTableCommand(createTableInput(tableName)));
  const doc = DynamoDBDocumentClient.from(raw);
  Object.assign(process.env, {
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    STRIPE_SECRET_KEY: 'sk_test_bench',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    LOG_LEVEL: 'error',
  });

  const { post } = await import('../lambdas/src/data/ledger');
  const { funding } = await import('../shared/src/domain/ledger');
  const { putCard } = await import('../lambdas/src/data/cards');
  const { keys } = await import('../lambdas/src/data/keys');
  const { handler } = await import('../lambdas/src/webhooks/stripeWebhook');
  const stripe = new Stripe('sk_test_bench');

  // One funded card per level, big enough never to run out: every request is a full approval.
  async function fundedCard(level: number) {
    const userId = `bench-user-${level}`;
    const teamId = `bench-team-${level}`;
    const cardId = `ic_bench${level}`;
    await doc.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keys.user(userId),
          userId,
          teamId,
          role: 'employee',
          status: 'active',
          email: 'b@example.com',
        },
      }),
    );
    await putCard({
      cardId,
      cardholderId: 'ich_b',
      userId,
      teamId,
      last4: '0000',
      expMonth: 1,
      expYear: 2030,
      status: 'active',
      lifetimeLimitCents: 0,
      createdAt: new Date().toISOString(),
    });
    await post(
      funding({
        entryId: `BENCH#${level}`,
        teamId,
        userId,
        amountCents: 100_000_000,
        description: 'bench',
        chargeId: 'ch_b',
      }),
    );
    return { userId, cardId };
  }

  function authEvent(card: { userId: string; cardId: string }, id: string): APIGatewayProxyEventV2 {
    const body = JSON.stringify({
      id: `evt_${id}`,
      object: 'event',
      type: 'issuing_authorization.request',
      data: {
        object: {
          id: `iauth_${id}`,
          object: 'issuing.authorization',
          amount: 0,
          currency: 'usd',
          status: 'pending',
          approved: false,
          card: { id: card.cardId, metadata: { userId: card.userId } },
          merchant_data: { name: 'Bench Books', category: 'book_stores' },
          pending_request: { amount: 100, currency: 'usd' },
          transactions: [],
        },
      },
    });
    return {
      body,
      isBase64Encoded: false,
      headers: {
        'stripe-signature': stripe.webhooks.generateTestHeaderString({
          payload: body,
          secret: WEBHOOK_SECRET,
        }),
      },
      requestContext: { requestId: id },
    } as unknown as APIGatewayProxyEventV2;
  }

  console.log('\nCard authorization through the webhook handler, DynamoDB Local, 2 cores');
  console.log('concurrency  decisions/s   p50 ms   p99 ms   | bare 2-item transactions/s');
  for (const level of LEVELS) {
    const card = await fundedCard(level);
    // Warm-up: first calls pay for connection set-up and JIT.
    for (let i = 0; i < 20; i++) await handler(authEvent(card, `warm${level}-${i}`));
    const auth = await runConcurrent(REQUESTS_PER_LEVEL, level, async (i) => {
      const res = await handler(authEvent(card, `l${level}-${i}`));
      if (
        typeof res === 'string' ||
        res.statusCode !== 200 ||
        !String(res.body).includes('"approved":true')
      ) {
        throw new Error(`unexpected answer: ${JSON.stringify(res)}`);
      }
    });
    const bare = await runConcurrent(REQUESTS_PER_LEVEL, level, async (i) => {
      await doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: tableName, Item: { pk: `BARE#${level}#${i}`, sk: 'A' } } },
            { Put: { TableName: tableName, Item: { pk: `BARE#${level}#${i}`, sk: 'B' } } },
          ],
        }),
      );
    });
    console.log(
      `${String(level).padStart(11)}  ${auth.perSecond.toFixed(0).padStart(11)}  ${auth.p50.toFixed(1).padStart(7)}  ${auth.p99.toFixed(1).padStart(7)}   | ${bare.perSecond.toFixed(0).padStart(10)}`,
    );
  }
  raw.destroy();
  await dynamo.stop();

  // The Lambda bundle, built as CDK builds it (infra/lib/constructs/appFunction.ts).
  const dir = mkdtempSync(join(tmpdir(), 'bench-bundle-'));
  const outfile = join(dir, 'index.mjs');
  await build({
    entryPoints: ['lambdas/src/webhooks/stripeWebhook.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: LAMBDA_ESBUILD_TARGET,
    minify: true,
    outfile,
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
    logLevel: 'error',
  });
  const bytes = readFileSync(outfile);
  const importTimes: number[] = [];
  const probe = join(dir, 'probe.mjs');
  writeFileSync(
    probe,
    `const t = performance.now(); await import(${JSON.stringify(outfile)}); console.log(performance.now() - t);`,
  );
  for (let i = 0; i < 7; i++) {
    importTimes.push(Number(execFileSync(process.execPath, [probe], { encoding: 'utf8' }).trim()));
  }
  importTimes.sort((a, b) => a - b);
  rmSync(dir, { recursive: true, force: true });
  console.log('\nAuthorization Lambda (stripeWebhook) bundle');
  console.log(
    `  size:               ${(bytes.length / 1024).toFixed(0)} KB minified, ${(gzipSync(bytes).length / 1024).toFixed(0)} KB gzip`,
  );
  console.log(
    `  cold import (node): median ${percentile(importTimes, 50).toFixed(0)} ms of 7 fresh processes`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
