/**
 * `npm run bench -- --jobs`: the four daily jobs on one data set per size,
 * 1,000 employees in 20 teams and 10,000 in 200 (teams of 50 both times, so
 * only the number of teams grows; `--quick`: 200 in 4 and 2,000 in 40), each
 * job run through its own scheduled handler (lambdas/src/jobs) and timed.
 *
 * Each team of 50 gives every job real work:
 *   employees 0-15   no purchase for 11, 12, 12.5 and 13+ months (4 each): the
 *                    dormancy job warns, notifies, and deactivates 4 cards;
 *   employees 16-29  a purchase awaiting its receipt, 2 business days before
 *                    its due day, on it, and overdue (4 each; reminders and
 *                    freezes), and 2 cards frozen for a receipt that is now in;
 *   employees 30-49  a settled purchase with its receipt in;
 *   and everyone a card in the Stripe emulator and last month's budget.
 * Monthly funding then charges each team and credits its 50 employees (and
 * raises each card's limit at the issuer); reconciliation checks both months'
 * charges against their 50 credits each and finishes one deposit per team
 * whose credit was cut off. Purchases are authorized and captured through the
 * card services, so every cent moves through the ledger. Setup is not timed.
 *
 * Each size starts from an empty table and an empty emulator, so a job reads
 * only that size's data; a warm-up size of 2 teams runs first (JIT,
 * connections) and is not reported.
 */
import { BatchWriteCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { prefixedLog } from '../infra/local/processes';
import { startSes } from '../infra/local/ses';
import type { StripeEmulator } from '../infra/local/stripe';
import { freePort } from '../test/support/ports';
import type { BenchTable } from './benchTable';
import { runConcurrent } from './benchTable';
import { seedBenchTeams } from './benchTeams';
import type { LatencyProxy } from './stripeLatency';

const TEAM_SIZE = 50;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Who does what in each team, by employee number (see the header). */
const ROLES = {
  dormancy: { warning11: [0, 4], notice12: [4, 8], notice12half: [8, 12], deactivate: [12, 16] },
  receipts: { reminder: [16, 20], dueToday: [20, 24], overdue: [24, 28], receivedWhileFrozen: [28, 30] },
  settled: [30, 50],
  depositCutOff: 30,
} as const;

export type JobName =
  | 'monthly funding'
  | 'dormancy'
  | 'dormancy, next day'
  | 'receipt deadlines'
  | 'reconciliation';

export interface JobTiming {
  seconds: number;
  /** What the job did, from its own summary. */
  items: string;
}

export interface JobsRun {
  employees: number;
  teams: number;
  jobs: Record<JobName, JobTiming>;
}

type Summary = Record<string, number>;

/** Deletes every item: each size (and this section after the others) starts from an empty table. */
async function emptyTable(table: BenchTable) {
  const SEGMENTS = 4;
  await Promise.all(
    Array.from({ length: SEGMENTS }, async (_, segment) => {
      let start: Record<string, unknown> | undefined;
      do {
        const page = await table.doc.send(
          new ScanCommand({
            TableName: table.tableName,
            ProjectionExpression: 'pk, sk',
            Segment: segment,
            TotalSegments: SEGMENTS,
            ExclusiveStartKey: start,
          }),
        );
        const keys = page.Items ?? [];
        for (let i = 0; i < keys.length; i += 25) {
          let batch: Record<string, unknown>[] = keys
            .slice(i, i + 25)
            .map((Key) => ({ DeleteRequest: { Key } }));
          while (batch.length > 0) {
            const result = await table.doc.send(
              new BatchWriteCommand({ RequestItems: { [table.tableName]: batch as never } }),
            );
            batch =
              (result.UnprocessedItems?.[table.tableName] as Record<string, unknown>[] | undefined) ?? [];
          }
        }
        start = page.LastEvaluatedKey;
      } while (start);
    }),
  );
}

function inRange(u: number, [from, to]: readonly [number, number]) {
  return u >= from && u < to;
}

/** The days each job runs: the 1st of next month (the teams' cycle day), at each job's scheduled hour. */
function jobTimes() {
  const now = new Date();
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const at = (hour: number) => new Date(day.getTime() + hour * 60 * 60 * 1000);
  return { funding: at(6), receipts: at(14), dormancy: at(15), month: day.toISOString().slice(0, 7) };
}

async function seedSize(
  table: BenchTable,
  emulator: StripeEmulator,
  prefix: string,
  teams: number,
  times: ReturnType<typeof jobTimes>,
) {
  const { keys } = await import('../lambdas/src/data/keys');
  const { setTeamFields, setUserFields } = await import('../lambdas/src/data/accounts');
  const { putCard, updateCard } = await import('../lambdas/src/data/cards');
  const { markReceiptReceived } = await import('../lambdas/src/data/purchaseReceipts');
  const { stripe, charge, setCardStatus } = await import('../lambdas/src/adapters/stripe');
  const { renewTeam } = await import('../lambdas/src/services/billing/renewals');
  const { decideAuthorization } = await import('../lambdas/src/services/cards/cardAuthorization');
  const { applyCapture } = await import('../lambdas/src/services/cards/cardSettlement');
  const { receiptStage } = await import('@shared/domain/businessDays');
  const { DEFAULT_TIME_ZONE } = await import('@shared/domain/calendar');
  const { addMonths, nextDormancyDay, noticeDueAt, DORMANCY_NOTICES } = await import(
    '@shared/domain/dormancy'
  );
  const { createLogger } = await import('../lambdas/src/platform/log');
  const log = createLogger({ bench: 'jobs' });
  emulator.admin.reset();
  await emptyTable(table);

  const teamIds = Array.from({ length: teams }, (_, t) => `${prefix}-t${t}`);
  const customers = await seedBenchTeams(table, teamIds, TEAM_SIZE);
  const s = await stripe();
  const cards = new Map<string, string>();

  // A manager per team (the e-mails' other reader), a cardholder per team, a card per employee.
  await runConcurrent(teams, 4, async (t) => {
    const teamId = teamIds[t] as string;
    const managerId = `${teamId}-m`;
    await table.doc.send(
      new BatchWriteCommand({
        RequestItems: {
          [table.tableName]: [
            {
              PutRequest: {
                Item: {
                  ...keys.user(managerId),
                  ...keys.userByTeam(teamId, managerId),
                  entity: 'User',
                  userId: managerId,
                  teamId,
                  role: 'manager',
                  status: 'active',
                  email: `manager-${teamId}@bench.test`,
                  firstName: 'Manager',
                  lastName: teamId,
                },
              },
            },
          ],
        },
      }),
    );
    await setTeamFields(teamId, { managerId, name: `Team ${teamId}` });
    const holder = await s.issuing.cardholders.create({
      type: 'individual',
      name: `Team ${t}`,
      email: 'holder@bench.test',
      status: 'active',
      billing: {
        address: { line1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
      },
    });
    for (let u = 0; u < TEAM_SIZE; u++) {
      const userId = `${teamId}-u${u}`;
      const card = await s.issuing.cards.create({
        cardholder: holder.id,
        currency: 'usd',
        type: 'virtual',
        status: 'active',
        metadata: { userId, teamId },
      });
      cards.set(userId, card.id);
      await putCard({
        cardId: card.id,
        cardholderId: holder.id,
        userId,
        teamId,
        last4: card.last4,
        expMonth: card.exp_month,
        expYear: card.exp_year,
        status: 'active',
        lifetimeLimitCents: 0,
        createdAt: new Date().toISOString(),
      });
      await setUserFields(userId, { cardId: card.id, firstName: 'Employee', lastName: userId });
    }
  });

  // Last month's budgets, as last month's run left them (charged and credited now).
  const previous = new Date(Date.UTC(Number(times.month.slice(0, 4)), Number(times.month.slice(5, 7)) - 2, 1))
    .toISOString()
    .slice(0, 7);
  await runConcurrent(teams, 4, async (t) => {
    const teamId = teamIds[t] as string;
    const team = { teamId, stripeCustomerId: customers.get(teamId), setupMonth: '2026-01' };
    const outcome = await renewTeam(team as Parameters<typeof renewTeam>[0], previous, new Date(), log);
    if (outcome !== 'funded') throw new Error(`${teamId}: ${outcome} for ${previous}`);
  });

  // Purchase days for each receipt stage on the receipt job's day (weekends and holidays counted as it counts them).
  const stageDay = new Map<string, string>();
  for (let back = 1; back < 30 && stageDay.size < 3; back++) {
    const day = new Date(times.receipts.getTime() - back * DAY_MS);
    day.setUTCHours(15, 0, 0, 0);
    const stage = receiptStage(day.toISOString(), times.receipts, DEFAULT_TIME_ZONE);
    if (stage !== 'early' && !stageDay.has(stage)) stageDay.set(stage, day.toISOString());
  }
  const overdueAt = stageDay.get('overdue') as string;

  // Purchases: authorized, then captured, through the card services (hold, capture, purchase, clock).
  type Purchase = { userId: string; teamId: string; createdAt: string; received: boolean; frozen: boolean };
  const purchases: Purchase[] = [];
  for (const teamId of teamIds) {
    for (let u = ROLES.receipts.reminder[0]; u < ROLES.settled[1]; u++) {
      const stage = inRange(u, ROLES.receipts.reminder)
        ? 'reminder'
        : inRange(u, ROLES.receipts.dueToday)
          ? 'dueToday'
          : 'overdue';
      const settled = inRange(u, ROLES.settled);
      purchases.push({
        userId: `${teamId}-u${u}`,
        teamId,
        createdAt: settled
          ? new Date(Date.parse(overdueAt) - 7 * DAY_MS).toISOString()
          : (stageDay.get(stage) as string),
        received: settled || inRange(u, ROLES.receipts.receivedWhileFrozen),
        frozen: inRange(u, ROLES.receipts.receivedWhileFrozen),
      });
    }
  }
  await runConcurrent(purchases.length, 8, async (i) => {
    const p = purchases[i] as Purchase;
    const cardId = cards.get(p.userId) as string;
    const authorizationId = `iauth_${p.userId}`;
    const decision = await decideAuthorization(
      {
        authorizationId,
        cardId,
        userId: p.userId,
        amountCents: 1200,
        currency: 'usd',
        merchantName: 'Bench Books',
        merchantCategory: 'book_stores',
      },
      new Date(p.createdAt),
    );
    if (!decision.approved) throw new Error(`${p.userId}: declined (${decision.reason})`);
    const captured = await applyCapture(
      {
        transactionId: `ipi_${p.userId}`,
        authorizationId,
        cardId,
        amountCents: 1200,
        merchant: 'Bench Books',
        category: 'book_stores',
        createdAt: p.createdAt,
      },
      log,
    );
    if (captured.status !== 'posted') throw new Error(`${p.userId}: capture ${captured.status}`);
    if (p.received) await markReceiptReceived(`ipi_${p.userId}`, p.createdAt);
    if (p.frozen) {
      // Frozen for this receipt by an earlier run; the upload's own unfreeze never happened.
      await setCardStatus(cardId, 'inactive');
      await updateCard(cardId, { status: 'inactive', freeze: { missingReceipt: true } });
    }
  });

  // Dormancy: clocks started long ago, each stage's earlier notices already sent.
  const base = new Date(times.dormancy);
  base.setUTCHours(9, 0, 0, 0);
  const clocks = {
    warning11: addMonths(base.toISOString(), -11),
    notice12: addMonths(base.toISOString(), -12),
    notice12half: addMonths(new Date(base.getTime() - 15 * DAY_MS).toISOString(), -12),
    deactivate: addMonths(new Date(base.getTime() - 2 * DAY_MS).toISOString(), -13),
  };
  const sleepers: { userId: string; quietSince: string }[] = [];
  for (const teamId of teamIds)
    for (const [stage, range] of Object.entries(ROLES.dormancy))
      for (let u = range[0]; u < range[1]; u++)
        sleepers.push({
          userId: `${teamId}-u${u}`,
          quietSince: clocks[stage as keyof typeof clocks].toISOString(),
        });
  await runConcurrent(sleepers.length, 8, async (i) => {
    const { userId, quietSince } = sleepers[i] as (typeof sleepers)[number];
    const record: Record<string, string> = {};
    // Everything due before the run's day was sent on its day.
    for (const notice of DORMANCY_NOTICES) {
      const due = noticeDueAt(quietSince, notice);
      if (due.getTime() < base.getTime() - DAY_MS) record[notice] = due.toISOString();
    }
    const day = nextDormancyDay(quietSince, record) as string;
    await table.doc.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: keys.user(userId),
        UpdateExpression: 'SET quietSince = :q, dormancy = :d, gsi2pk = :pk, gsi2sk = :sk',
        ExpressionAttributeValues: {
          ':q': quietSince,
          ':d': record,
          ':pk': keys.userByDormancyDay(day, userId).gsi2pk,
          ':sk': keys.userByDormancyDay(day, userId).gsi2sk,
        },
      }),
    );
  });

  // A deposit per team charged with its credit cut off: reconciliation posts it.
  await runConcurrent(teams, 4, async (t) => {
    const teamId = teamIds[t] as string;
    const userId = `${teamId}-u${ROLES.depositCutOff}`;
    const purpose = `DEPOSIT#BENCH-${teamId}#${userId}`;
    const result = await charge(
      {
        customerId: customers.get(teamId) as string,
        amountCents: 1000,
        description: 'Extra deposit',
        purpose,
        metadata: { teamId, userId },
      },
      purpose,
    );
    if (result.status !== 'succeeded') throw new Error(`${teamId}: deposit ${result.status}`);
  });
}

function checkSummary(job: string, summary: Summary, expected: Summary) {
  for (const [key, value] of Object.entries(expected))
    if (summary[key] !== value)
      throw new Error(`${job}: expected ${key} ${value}, got ${JSON.stringify(summary)}`);
}

async function timed(run: () => Promise<Summary>): Promise<{ seconds: number; summary: Summary }> {
  const started = performance.now();
  const summary = await run();
  return { seconds: (performance.now() - started) / 1000, summary };
}

async function runJobs(
  teams: number,
  times: ReturnType<typeof jobTimes>,
): Promise<Record<JobName, JobTiming>> {
  type Handler = (event?: {
    time?: string;
  }) => Promise<{ status: 'done'; summary: Summary } | { status: 'skipped'; reason: string }>;
  const handlerOf = async (module: Promise<{ handler: Handler }>) => {
    const { handler } = await module;
    return async (time: Date) => {
      const result = await handler({ time: time.toISOString() });
      if (result.status !== 'done') throw new Error(`job skipped: ${result.reason}`);
      return result.summary;
    };
  };
  const funding = await handlerOf(import('../lambdas/src/jobs/monthlyFunding'));
  const receipts = await handlerOf(import('../lambdas/src/jobs/receiptDeadlines'));
  const dormancy = await handlerOf(import('../lambdas/src/jobs/dormancyNotices'));
  const reconciliation = await handlerOf(import('../lambdas/src/jobs/reconciliation'));
  const per = (n: number) => (n * teams).toLocaleString('en-US');
  const count = (n: number) => n * teams;

  const f = await timed(() => funding(times.funding));
  checkSummary('monthly funding', f.summary, { teamsFunded: teams, teamsFailed: 0, joinsFailed: 0 });
  const r = await timed(() => receipts(times.receipts));
  checkSummary('receipt deadlines', r.summary, {
    remindersSent: count(8),
    cardsFrozen: count(4),
    cardsUnfrozen: count(2),
    teamsFailed: 0,
  });
  const d = await timed(() => dormancy(times.dormancy));
  checkSummary('dormancy', d.summary, {
    warnings: count(4),
    notices: count(8),
    deactivated: count(4),
    failed: 0,
  });
  const quiet = await timed(() => dormancy(new Date(times.dormancy.getTime() + DAY_MS)));
  checkSummary('dormancy, next day', quiet.summary, { warnings: 0, notices: 0, deactivated: 0, failed: 0 });
  // Stripe's clock is the real one: the run an hour from now reads everything made so far.
  const c = await timed(() => reconciliation(new Date(Date.now() + 60 * 60 * 1000)));
  checkSummary('reconciliation', c.summary, {
    examined: count(3),
    matched: count(2),
    posted: count(1),
    differences: 0,
    failed: 0,
  });
  return {
    'monthly funding': {
      seconds: f.seconds,
      items: `${per(TEAM_SIZE)} credits and card limits, ${teams} charges`,
    },
    'receipt deadlines': {
      seconds: r.seconds,
      items: `${per(TEAM_SIZE)} employees read; ${per(8)} reminders, ${per(4)} frozen, ${per(2)} unfrozen`,
    },
    dormancy: {
      seconds: d.seconds,
      items: `${per(4)} warnings, ${per(8)} notices, ${per(4)} cards deactivated`,
    },
    'dormancy, next day': { seconds: quiet.seconds, items: 'nobody due' },
    reconciliation: {
      seconds: c.seconds,
      items: `${per(3)} charges vs ${per(2 * TEAM_SIZE)} credits; ${per(1)} deposits posted`,
    },
  };
}

export async function benchJobs(
  table: BenchTable,
  emulator: StripeEmulator,
  options: { quick: boolean; latency?: { proxy: LatencyProxy; ms: number } },
): Promise<JobsRun[]> {
  const ses = await startSes({ port: await freePort(), log: prefixedLog('mail', true) });
  Object.assign(process.env, {
    SES_ENDPOINT: ses.endpoint,
    MAIL_FROM: 'Learning Budget <no-reply@learningbudget.test>',
    SUPPORT_INBOX: 'support@learningbudget.test',
    WEB_ORIGIN: 'http://127.0.0.1:3000',
  });
  const small = options.quick ? 200 : 1000;
  const sizes = [2 * TEAM_SIZE, small, 10 * small];
  const runs: JobsRun[] = [];
  try {
    for (const [round, employees] of sizes.entries()) {
      const teams = employees / TEAM_SIZE;
      const times = jobTimes();
      await seedSize(table, emulator, `jobs${round}`, teams, times);
      // Stripe as slow as the real one for the jobs only: seeding stays quick.
      options.latency?.proxy.setLatency(options.latency.ms);
      const jobs = await runJobs(teams, times).finally(() => options.latency?.proxy.setLatency(0));
      if (round > 0) runs.push({ employees, teams, jobs });
    }
  } finally {
    await ses.stop();
  }
  return runs;
}

export function printJobs(runs: JobsRun[]) {
  const [small, large] = runs;
  if (!small || !large) return;
  console.log(
    `\nDaily jobs on one data set per size (teams of ${TEAM_SIZE}; DynamoDB Local, Stripe emulator, SES stand-in)`,
  );
  const head = (n: JobsRun) => `${n.employees.toLocaleString('en-US')} (${n.teams} teams)`;
  const rows = (Object.keys(small.jobs) as JobName[]).map((job) => {
    const a = small.jobs[job];
    const b = large.jobs[job];
    return [
      job,
      `${a.seconds.toFixed(2)} s`,
      `${b.seconds.toFixed(2)} s`,
      `x${(b.seconds / a.seconds).toFixed(1)}`,
      b.items,
    ];
  });
  const table = [['job', head(small), head(large), 'growth', `items at ${head(large)}`], ...rows];
  const widths = [0, 1, 2, 3].map((c) => Math.max(...table.map((r) => (r[c] as string).length)));
  for (const row of table)
    console.log(
      `  ${row
        .slice(0, 4)
        .map((cell, c) => (c === 0 ? cell.padEnd(widths[c] as number) : cell.padStart(widths[c] as number)))
        .join('   ')}   ${row[4]}`,
    );
  console.log(`  growth: time at ${head(large)} / time at ${head(small)}; x10.0 is linear`);
}
