/**
 * `npm run bench -- --insights` (issue 26). Two parts, against DynamoDB Local:
 *
 * 1. Reading: a team of 10,000 people with 1,000,000 purchases over 24 months
 *    (and each person's monthly funding, some refunds). Its aggregates are
 *    computed by the ledger's own pure functions (insightDelta, aggregateRows)
 *    for each of those postings, summed in memory as the ADDs would sum them,
 *    and written with BatchWrite: no million ledger entries. Then the service
 *    the route calls (teamInsights, teamInsightsPeople: the Lambda's work after
 *    sign-in) is timed, p50/p95, for this month, 3 and 12 months, and the
 *    people list for 12 months.
 * 2. Settlement: what the aggregates add to one capture: its transaction items
 *    without and with them, and 200 captures' transaction time each way (the
 *    same items sent bare, one after another), beside 200 whole captures through
 *    the webhook handler (with the skill inference and time-zone reads).
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  type BenchTable,
  batchPut,
  cardWithHold,
  percentile,
  runConcurrent,
  signedWebhook,
} from './benchTable';

const PEOPLE = 10_000;
const PURCHASES = 1_000_000;
const MONTHS = 24;
const MERCHANTS = 300;
const RUNS = 40;
const CAPTURES = 200;

export interface InsightsBench {
  items: number;
  writeSeconds: number;
  reads: { label: string; p50: number; p95: number }[];
  capture: {
    itemsWithout: number;
    itemsWith: number;
    without: { p50: number; p95: number };
    with: { p50: number; p95: number };
    whole: { p50: number; p95: number };
  };
}

/** The month `n` months before `month`. */
function monthBefore(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) - n;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

function timed(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

export async function benchInsights(table: BenchTable): Promise<InsightsBench> {
  const { keys } = await import('../lambdas/src/data/keys');
  const { teamCycleIndex } = await import('../lambdas/src/data/accounts');
  const { aggregateRows } = await import('../lambdas/src/data/insightTotals');
  const { insightDelta, teamMonthOf } = await import('@shared/domain/insightDeltas');
  const { capture, funding, merchantRefund } = await import('@shared/domain/ledger');
  const { skillAreas, purchaseMedia } = await import('@shared/schemas/insights');
  const { teamInsights, teamInsightsPeople, teamPeopleList } = await import(
    '../lambdas/src/services/insights'
  );

  // --- 1. A team of 10,000 with 1,000,000 purchases over 24 months ------------------------------
  const teamId = 'bench-insights-team';
  const zone = 'America/New_York';
  const thisMonth = teamMonthOf(new Date(), zone);
  const months = Array.from({ length: MONTHS }, (_, i) => monthBefore(thisMonth, MONTHS - 1 - i));
  await table.doc.send(
    new PutCommand({
      TableName: table.tableName,
      Item: {
        ...keys.team(teamId),
        ...teamCycleIndex(1, teamId),
        entity: 'Team',
        teamId,
        managerId: 'bench-insights-manager',
        cycleDay: 1,
        setupMonth: months[0],
        status: 'active',
        timeZone: zone,
      },
    }),
  );
  const people = Array.from({ length: PEOPLE }, (_, i) => `bench-ins-u${i}`);
  // One person in ten has bought nothing for 3 to 14 months (their last purchase, which started
  // their dormancy clock, on the 10th of that month): the quiet lists and dormancy have people to find.
  const quietMonth = (i: number) => (i % 10 === 0 ? monthBefore(thisMonth, 3 + ((i / 10) % 12)) : undefined);
  const nowIso = new Date().toISOString();
  await batchPut(
    table,
    people.map((userId, i) => {
      const month = quietMonth(i);
      const quietSince = month ? `${month}-10T15:00:00.000Z` : nowIso;
      return {
        ...keys.user(userId),
        ...keys.userByTeam(teamId, userId),
        ...keys.userByQuietSince(teamId, quietSince, userId),
        entity: 'User',
        userId,
        teamId,
        role: 'employee',
        status: 'active',
        email: `p${i}@example.com`,
        firstName: 'Person',
        lastName: String(i),
        budgetCents: 2500,
        quietSince,
      };
    }),
  );

  // The aggregates, as the ADDs of every posting would leave them.
  const sums = new Map<
    string,
    { key: { pk: string; sk: string }; numbers: Record<string, number>; fields: Record<string, string> }
  >();
  const addPosting = (
    posting: Parameters<typeof insightDelta>[0],
    month: string,
    tags?: Parameters<typeof insightDelta>[1],
  ) => {
    for (const row of aggregateRows(teamId, month, insightDelta(posting, tags))) {
      const id = `${row.key.pk}|${row.key.sk}`;
      const sum = sums.get(id) ?? { key: row.key, numbers: {}, fields: row.fields };
      for (const [name, value] of Object.entries(row.numbers))
        sum.numbers[name] = (sum.numbers[name] ?? 0) + value;
      sums.set(id, sum);
    }
  };
  const buildStart = performance.now();
  for (const month of months)
    for (const userId of people)
      addPosting(
        funding({ entryId: 'f', teamId, userId, amountCents: 2500, description: 'b', chargeId: 'ch' }),
        month,
      );
  for (let i = 0; i < PURCHASES; i++) {
    const month = months[Math.floor((i / PURCHASES) * MONTHS)] as string;
    // A quiet person's purchases after their last one go to the next person: still a million.
    const quietFrom = quietMonth(i % PEOPLE);
    const userId = people[(i % PEOPLE) + (quietFrom && month > quietFrom ? 1 : 0)] as string;
    const merchant = `Merchant ${(i * 7919) % MERCHANTS}`;
    const tags = {
      skillArea: skillAreas[i % skillAreas.length] as string,
      media: purchaseMedia[i % purchaseMedia.length] as string,
      merchant,
    };
    const cents = 500 + (i % 40) * 25;
    addPosting(
      capture({
        entryId: 'c',
        teamId,
        userId,
        capturedCents: cents,
        heldCents: cents,
        merchant,
        transactionId: 't',
      }),
      month,
      tags,
    );
    if (i % 50 === 0)
      addPosting(
        merchantRefund({ entryId: 'r', teamId, userId, amountCents: 200, merchant, transactionId: 't' }),
        month,
        tags,
      );
  }
  const items = [...sums.values()].map((s) => ({ ...s.key, ...s.fields, ...s.numbers }));
  const buildSeconds = (performance.now() - buildStart) / 1000;
  const writeStart = performance.now();
  await batchPut(table, items);
  const writeSeconds = (performance.now() - writeStart) / 1000;
  console.log(
    `  (aggregates of ${PURCHASES.toLocaleString('en-US')} purchases summed in ${buildSeconds.toFixed(1)} s, ${items.length.toLocaleString('en-US')} items written in ${writeSeconds.toFixed(0)} s)`,
  );

  const reads: InsightsBench['reads'] = [];
  const measure = async (label: string, read: () => Promise<unknown>, runs = RUNS) => {
    for (let i = 0; i < 3; i++) await read(); // warm
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      await read();
      times.push(performance.now() - t);
    }
    reads.push({ label, ...timed(times) });
    const last = reads.at(-1) as InsightsBench['reads'][number];
    console.log(`  (${label}: p50 ${last.p50.toFixed(0)} ms, p95 ${last.p95.toFixed(0)} ms)`);
  };
  const period = (n: number) => ({ from: monthBefore(thisMonth, n - 1), to: thisMonth });
  await measure('GET /insights, this month', () => teamInsights(teamId, period(1)));
  await measure('GET /insights, 3 months', () => teamInsights(teamId, period(3)));
  await measure('GET /insights, 12 months', () => teamInsights(teamId, period(12)));
  await measure('GET /insights/people, this month', () => teamInsightsPeople(teamId, period(1)));
  await measure('GET /insights/people, 3 months', () => teamInsightsPeople(teamId, period(3)));
  await measure('GET /insights/people, 12 months', () => teamInsightsPeople(teamId, period(12)));
  // The CSVs' full lists (a download, not the page): fewer runs, they read every name.
  const listRuns = 5;
  await measure(
    'GET /insights/people/all, spenders 12 months',
    () => teamPeopleList(teamId, { ...period(12), list: 'spenders' }),
    listRuns,
  );
  await measure(
    'GET /insights/people/all, quiet',
    () => teamPeopleList(teamId, { ...period(1), list: 'quiet' }),
    listRuns,
  );

  // --- 2. What the aggregates add to one capture's settlement -----------------------------------
  const capturePart = await benchCaptures(table);
  return { items: items.length, writeSeconds, reads, capture: capturePart };
}

async function benchCaptures(table: BenchTable): Promise<InsightsBench['capture']> {
  const { keys } = await import('../lambdas/src/data/keys');
  const { post, postingItems, aggregateItems } = await import('../lambdas/src/data/ledger');
  const { purchaseItem } = await import('../lambdas/src/data/purchases');
  const { sendTransaction } = await import('../lambdas/src/data/transactions');
  const { capture, funding, authorizationHold } = await import('@shared/domain/ledger');
  const { handler } = await import('../lambdas/src/webhooks/stripeWebhook');
  const { tableName } = await import('../lambdas/src/data/client');

  const teamId = 'bench-capture-team';
  const users = Array.from({ length: CAPTURES * 2 }, (_, i) => `bench-cap-u${i}`);
  await runConcurrent(users.length, 16, async (i) => {
    const userId = users[i] as string;
    await post(
      funding({
        entryId: `CAPFUND#${userId}`,
        teamId,
        userId,
        amountCents: 5000,
        description: 'b',
        chargeId: 'ch',
      }),
    );
    await post(
      authorizationHold({
        authorizationId: `iauth_capb${i}`,
        teamId,
        userId,
        amountCents: 1000,
        merchant: 'Udemy',
      }),
    );
  });
  // The capture's transaction as the settlement builds it: hold update, purchase, posting (and the aggregates).
  const captureItems = async (i: number, withAggregates: boolean) => {
    const userId = users[i] as string;
    const at = new Date().toISOString();
    const posting = capture({
      entryId: `CAPTURE#ipi_capb${i}`,
      teamId,
      userId,
      capturedCents: 1000,
      heldCents: 1000,
      merchant: 'Udemy',
      transactionId: `ipi_capb${i}`,
    });
    return [
      {
        Update: {
          TableName: tableName(),
          Key: keys.authorization(`iauth_capb${i}`),
          UpdateExpression: 'SET heldCents = :zero',
          ExpressionAttributeValues: { ':zero': 0 },
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: purchaseItem({
            purchaseId: `ipi_capb${i}`,
            userId,
            teamId,
            cardId: 'ic_b',
            amountCents: 1000,
            merchant: 'Udemy',
            category: 'book_stores',
            createdAt: at,
            receiptStatus: 'awaiting',
          }),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      ...postingItems(posting, at),
      ...(withAggregates
        ? await aggregateItems(posting, at, { skillArea: 'Leadership', media: 'course', merchant: 'Udemy' })
        : []),
    ];
  };
  const itemsWithout = (await captureItems(0, false)).length;
  const itemsWith = (await captureItems(0, true)).length;
  const run = async (offset: number, withAggregates: boolean) => {
    const times: number[] = [];
    for (let i = 0; i < CAPTURES; i++) {
      const t = performance.now();
      await sendTransaction(await captureItems(offset + i, withAggregates));
      times.push(performance.now() - t);
    }
    return timed(times);
  };
  const without = await run(0, false);
  const withAggregates = await run(CAPTURES, true);

  // Whole captures through the webhook handler: card lookup, skill inference, time zone, the transaction.
  const wholeTeam = 'bench-capture-whole';
  const cards = Array.from({ length: CAPTURES }, (_, i) => ({
    userId: `bench-whole-u${i}`,
    teamId: wholeTeam,
    cardId: `ic_whole${i}`,
    authorizationId: `iauth_whole${i}`,
  }));
  await runConcurrent(cards.length, 16, (i) =>
    cardWithHold(table, cards[i] as (typeof cards)[number], {
      tag: 'WHOLE',
      merchant: 'Udemy',
      heldCents: 1000,
    }),
  );
  const wholeTimes: number[] = [];
  for (let i = 0; i < CAPTURES; i++) {
    const card = cards[i] as (typeof cards)[number];
    const t = performance.now();
    const answer = (await handler(
      signedWebhook(`wholecap${i}`, 'issuing_transaction.created', {
        id: `ipi_whole${i}`,
        object: 'issuing.transaction',
        type: 'capture',
        amount: -1000,
        currency: 'usd',
        card: card.cardId,
        authorization: card.authorizationId,
        created: Math.floor(Date.now() / 1000),
        merchant_data: { name: 'Udemy', category: 'book_stores' },
      }),
    )) as { statusCode?: number };
    wholeTimes.push(performance.now() - t);
    if (answer.statusCode !== 200) throw new Error(`capture ${i} answered ${answer.statusCode}`);
  }
  return { itemsWithout, itemsWith, without, with: withAggregates, whole: timed(wholeTimes) };
}

export function printInsights(result: InsightsBench) {
  console.log(
    `\nInsights (issue 26): a team of ${PEOPLE.toLocaleString('en-US')} with ${PURCHASES.toLocaleString('en-US')} purchases over ${MONTHS} months, ${result.items.toLocaleString('en-US')} aggregate items (service in-process, DynamoDB Local, ${RUNS} reads each)`,
  );
  for (const r of result.reads)
    console.log(
      `  ${r.label.padEnd(46)} p50 ${r.p50.toFixed(0).padStart(5)} ms   p95 ${r.p95.toFixed(0).padStart(5)} ms`,
    );
  const c = result.capture;
  console.log(
    `\nWhat the aggregates add to a capture's settlement (${CAPTURES} captures each, one at a time)`,
  );
  console.log(`  transaction items:            ${c.itemsWithout} without, ${c.itemsWith} with`);
  console.log(
    `  transaction without:          p50 ${c.without.p50.toFixed(1)} ms   p95 ${c.without.p95.toFixed(1)} ms`,
  );
  console.log(
    `  transaction with:             p50 ${c.with.p50.toFixed(1)} ms   p95 ${c.with.p95.toFixed(1)} ms`,
  );
  console.log(
    `  whole capture (handler):      p50 ${c.whole.p50.toFixed(1)} ms   p95 ${c.whole.p95.toFixed(1)} ms`,
  );
}
