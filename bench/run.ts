/**
 * `npm run bench`: the money path, measured (not asserted). Sections (all by
 * default; name some to run only those, e.g. `npm run bench -- --settlement`):
 *   --auth        card authorizations through the webhook handler (signed
 *                 events, in-process as Lambda runs it) against DynamoDB Local,
 *                 decisions/s and p50/p99 at 1, 8 and 32 concurrent requests;
 *                 beside them, in the same run, a bare transaction of as many
 *                 items as an approval writes, the leaner write of docs/ledger.md
 *                 (decision, journal, two balances), and a bare 2-item one;
 *   --settlement  captures and refunds of 1,000 cards in 50 teams, 32 at a time,
 *                 with failed deliveries, transaction conflicts and retries;
 *   --funding     the monthly funding job: 10,000 employees in 200 teams, one
 *                 team of 5,000, and the growth from 1,000 to 10,000;
 *   --reconcile   the reconciliation job: 10,000 employees in 200 teams (200
 *                 charges, 10,000 credits; 10 renewals cut off and finished),
 *                 run twice.
 *   --jobs        the four daily jobs (monthly funding, receipt deadlines,
 *                 dormancy, reconciliation) on one data set per size, 1,000
 *                 employees in 20 teams and 10,000 in 200, and each one's growth.
 *   --bundle      the authorization Lambda's bundle size and cold import time.
 *   --scim        1,000 people created through SCIM, 10 at a time (issue 28):
 *                 the time for the 1,000, and each invited and e-mailed once.
 *   --insights    issue 26: GET /insights and /insights/people server time for a
 *                 team of 10,000 with 1,000,000 purchases over 2 years (its
 *                 aggregates written in bulk), and what the aggregates add to
 *                 one capture's settlement (bench/insights.ts).
 * `--quick` runs fewer requests per level and smaller funding and job runs.
 * `BENCH_STRIPE_LATENCY_MS=300` makes Stripe answer the jobs (not the seeding)
 * that much later, as real Stripe does (bench/stripeLatency.ts).
 * Everything runs on 127.0.0.1 and stops by itself.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { handlerFile } from '@shared/api/routes';
import { build, type Metafile } from 'esbuild';
import { esbuildOptionsFor, LAMBDA_NODE_OPTIONS } from '../infra/lib/lambdaBundling';
import { prefixedLog } from '../infra/local/processes';
import { startStripeEmulator } from '../infra/local/stripe';
import { type BenchTable, percentile, runConcurrent, signedWebhook, startBenchTable } from './benchTable';
import { benchFunding, printFunding } from './funding';
import { benchInsights, printInsights } from './insights';
import { benchJobs, printJobs } from './jobs';
import { benchReconcile, printReconcile } from './reconcile';
import { benchScim, printScim } from './scim';
import { benchSettlement, printSettlement } from './settlement';
import { type LatencyProxy, startLatencyProxy } from './stripeLatency';

const args = new Set(process.argv.slice(2));
const QUICK = args.delete('--quick');
const SECTIONS = [
  '--auth',
  '--settlement',
  '--funding',
  '--reconcile',
  '--jobs',
  '--bundle',
  '--scim',
  '--insights',
];
const wanted = (section: string) => args.size === 0 || args.has(section);
for (const arg of args)
  if (!SECTIONS.includes(arg)) throw new Error(`unknown flag ${arg}; use ${SECTIONS.join(' ')} --quick`);

const REQUESTS_PER_LEVEL = QUICK ? 200 : 600;
const LEVELS = [1, 8, 32];

async function benchAuthorization(table: BenchTable) {
  const { doc, tableName } = table;
  const { post, postingItems } = await import('../lambdas/src/data/ledger');
  const { funding, authorizationHold, cardAccount, holdAccount } = await import('@shared/domain/ledger');
  const { putCard } = await import('../lambdas/src/data/cards');
  const { keys } = await import('../lambdas/src/data/keys');
  const { handler } = await import('../lambdas/src/webhooks/stripeWebhook');
  type Answer = Exclude<Awaited<ReturnType<typeof handler>>, string>;

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
    return { userId, cardId, teamId };
  }

  const authEvent = (card: { userId: string; cardId: string }, id: string) =>
    signedWebhook(id, 'issuing_authorization.request', {
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
    });

  // What an approval writes today: the decision and the hold posting's items.
  const approvalItems =
    1 +
    postingItems(
      authorizationHold({ authorizationId: 'x', teamId: 't', userId: 'u', amountCents: 1, merchant: 'm' }),
      new Date().toISOString(),
    ).length;
  const bareItems = (level: number, i: number, n: number) =>
    Array.from({ length: n }, (_, k) => ({
      Put: { TableName: tableName, Item: { pk: `BARE#${level}#${n}#${i}`, sk: String(k) } },
    }));

  console.log('\nCard authorization through the webhook handler, DynamoDB Local, 2 cores');
  console.log(
    `concurrency  decisions/s   p50 ms   p99 ms   | bare ${approvalItems}-item/s   lean 4-item/s (p50)   bare 2-item/s`,
  );
  for (const level of LEVELS) {
    const card = await fundedCard(level);
    // Warm-up: first calls pay for connection set-up and JIT.
    for (let i = 0; i < 20; i++) await handler(authEvent(card, `warm${level}-${i}`));
    const auth = await runConcurrent(REQUESTS_PER_LEVEL, level, async (i) => {
      const res = (await handler(authEvent(card, `l${level}-${i}`))) as Answer;
      if (res.statusCode !== 200 || !String(res.body).includes('"approved":true')) {
        throw new Error(`unexpected answer: ${JSON.stringify(res)}`);
      }
    });
    const bareLikeApproval = await runConcurrent(REQUESTS_PER_LEVEL, level, async (i) => {
      await doc.send(new TransactWriteCommand({ TransactItems: bareItems(level, i, approvalItems) }));
    });
    // The leaner approval (docs/ledger.md, "A leaner authorization write"): the decision,
    // the journal and the two conditioned balances on the same card, without entry items.
    const lean = await runConcurrent(REQUESTS_PER_LEVEL, level, async (i) => {
      const id = `lean${level}-${i}`;
      const at = new Date().toISOString();
      const balance = (account: string, amount: number, floor: boolean) => ({
        Update: {
          TableName: tableName,
          Key: keys.account(account as Parameters<typeof keys.account>[0]),
          UpdateExpression: 'ADD balanceCents :amount',
          ...(floor ? { ConditionExpression: 'balanceCents >= :needed' } : {}),
          ExpressionAttributeValues: { ':amount': amount, ...(floor ? { ':needed': -amount } : {}) },
        },
      });
      await doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: tableName,
                Item: { ...keys.authorization(`iauth_${id}`), approved: true, heldCents: 100, decidedAt: at },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Put: {
                TableName: tableName,
                Item: {
                  ...keys.journal(`AUTH#iauth_${id}`),
                  ...keys.journalByTeam(card.teamId, at, id),
                  postedAt: at,
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            balance(cardAccount(card.userId), -100, true),
            balance(holdAccount(card.userId), 100, false),
          ],
        }),
      );
    });
    const bare = await runConcurrent(REQUESTS_PER_LEVEL, level, async (i) => {
      await doc.send(new TransactWriteCommand({ TransactItems: bareItems(level, i, 2) }));
    });
    console.log(
      `${String(level).padStart(11)}  ${auth.perSecond.toFixed(0).padStart(11)}  ${auth.p50.toFixed(1).padStart(7)}  ${auth.p99.toFixed(1).padStart(7)}   | ${bareLikeApproval.perSecond.toFixed(0).padStart(12)}   ${`${lean.perSecond.toFixed(0)} (${lean.p50.toFixed(1)} ms)`.padStart(19)}   ${bare.perSecond.toFixed(0).padStart(13)}`,
    );
  }
}

async function main() {
  const jobs = wanted('--funding') || wanted('--reconcile') || wanted('--jobs');
  if (wanted('--auth') || wanted('--settlement') || jobs || wanted('--scim') || wanted('--insights')) {
    const table = await startBenchTable();
    // The funding job charges each team through Stripe: the emulator, on a free port.
    const emulator = jobs
      ? await startStripeEmulator({
          port: 0,
          log: prefixedLog('stripe', true),
          webhookSecret: 'whsec_unused',
        })
      : undefined;
    const latencyMs = Number(process.env.BENCH_STRIPE_LATENCY_MS ?? 0);
    const latency: LatencyProxy | undefined =
      emulator && latencyMs > 0 ? await startLatencyProxy(emulator.url) : undefined;
    if (emulator) process.env.STRIPE_API_URL = latency?.url ?? emulator.url;
    try {
      if (wanted('--auth')) await benchAuthorization(table);
      if (wanted('--settlement')) printSettlement(await benchSettlement(table));
      if (wanted('--funding')) printFunding(await benchFunding(table, { quick: QUICK }));
      if (wanted('--reconcile')) printReconcile(await benchReconcile(table, { quick: QUICK }));
      if (wanted('--scim')) printScim(await benchScim(table));
      if (wanted('--insights')) printInsights(await benchInsights(table));
      // Last: it empties the table (and the emulator) before each of its sizes.
      if (wanted('--jobs') && emulator)
        printJobs(
          await benchJobs(table, emulator, {
            quick: QUICK,
            latency: latency && { proxy: latency, ms: latencyMs },
          }),
        );
    } finally {
      await latency?.stop();
      await emulator?.stop();
      await table.stop();
    }
  }
  if (wanted('--bundle')) await benchBundle();
}

async function benchBundle() {
  // The authorization Lambda exactly as CDK deploys it: the route table's entry
  // file and appFunction.ts's bundling options (infra/lib/lambdaBundling.ts).
  const dir = mkdtempSync(join(tmpdir(), 'bench-bundle-'));
  const outfile = join(dir, 'index.mjs');
  const { metafile } = await build({
    ...esbuildOptionsFor(handlerFile('stripeWebhook'), outfile),
    metafile: true,
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
    const env = { ...process.env, NODE_OPTIONS: LAMBDA_NODE_OPTIONS };
    importTimes.push(Number(execFileSync(process.execPath, [probe], { encoding: 'utf8', env }).trim()));
  }
  importTimes.sort((a, b) => a - b);
  rmSync(dir, { recursive: true, force: true });
  console.log('\nAuthorization Lambda (stripeWebhook) bundle');
  console.log(
    `  size:               ${(bytes.length / 1024).toFixed(0)} KB minified, ${(gzipSync(bytes).length / 1024).toFixed(0)} KB gzip`,
  );
  console.log(
    `  cold import (node): median ${percentile(importTimes, 50).toFixed(0)} ms, fastest ${importTimes[0]?.toFixed(0)} ms of 7 fresh processes`,
  );
  console.log('  largest parts (minified KB):');
  for (const [name, size] of largestInputs(metafile, 8))
    console.log(`    ${(size / 1024).toFixed(1).padStart(6)}  ${name}`);
}

/** The bundle's bytes by package (or by source folder for our own code), largest first. */
function largestInputs(metafile: Metafile, count: number): [string, number][] {
  const sizes = new Map<string, number>();
  for (const output of Object.values(metafile.outputs))
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? path.replace(/\/[^/]+$/, '/');
      sizes.set(name, (sizes.get(name) ?? 0) + bytesInOutput);
    }
  return [...sizes].sort((a, b) => b[1] - a[1]).slice(0, count);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
