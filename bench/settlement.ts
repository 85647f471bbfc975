/**
 * Settlement throughput (issue 12): captures, then merchant refunds, of 1,000
 * different cards in 50 teams, 32 webhook deliveries at a time, through the
 * webhook handler as Lambda runs it, against DynamoDB Local. Besides speed it
 * counts what Stripe would see (failed deliveries, which Stripe retries later)
 * and the transaction conflicts the ledger met and retried.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import {
  type BenchCard,
  type BenchTable,
  cardWithHold,
  runConcurrent,
  signedWebhook,
  type Throughput,
} from './benchTable';

const TEAMS = 50;
const CARDS_PER_TEAM = 20;
const CONCURRENCY = 32;
const HELD_CENTS = 1000;
const REFUND_CENTS = 400;

export interface SettlementFigures {
  captures: Throughput;
  refunds: Throughput;
  failedDeliveries: number;
  /** Transactions cancelled by a conflict on an item another transaction held. */
  conflicts: number;
  retries: number;
  /** Bare 2-item transactions adding to one shared item, and to one item per team, side by side. */
  bareShared: Throughput;
  barePerTeam: Throughput;
}

type Card = BenchCard;

/** The data layer's transaction conflict counters (older commits had none: then undefined). */
type ConflictCounts = { conflicts: number; retries: number };
async function readConflictCounts(): Promise<ConflictCounts | undefined> {
  const transactions = (await import('../lambdas/src/data/transactions').catch(() => ({}))) as Record<
    string,
    unknown
  >;
  const read = transactions.transactionConflictCounts as (() => ConflictCounts) | undefined;
  return read?.();
}

export async function benchSettlement(table: BenchTable): Promise<SettlementFigures> {
  const { handler } = await import('../lambdas/src/webhooks/stripeWebhook');
  type Answer = Exclude<Awaited<ReturnType<typeof handler>>, string>;

  // 1,000 cards, each funded and with one approved authorization to capture.
  const cards: Card[] = [];
  for (let t = 0; t < TEAMS; t++)
    for (let c = 0; c < CARDS_PER_TEAM; c++)
      cards.push({
        userId: `set-u-${t}-${c}`,
        teamId: `set-t-${t}`,
        cardId: `ic_set${t}x${c}`,
        authorizationId: `iauth_set${t}x${c}`,
      });
  await runConcurrent(cards.length, 16, (i) =>
    cardWithHold(table, cards[i] as Card, { tag: 'SET', merchant: 'Bench Books', heldCents: HELD_CENTS }),
  );

  // Failed deliveries log an error each; count the conflicts among them instead of printing them.
  let failedDeliveries = 0;
  let conflictLines = 0;
  const printError = console.error;
  console.error = (...args: unknown[]) => {
    if (args.some((a) => String(a).includes('TransactionConflict'))) conflictLines++;
  };
  const before = await readConflictCounts();
  const deliver = async (id: string, object: Record<string, unknown>) => {
    const answer = (await handler(signedWebhook(id, 'issuing_transaction.created', object))) as Answer;
    if (answer.statusCode !== 200) failedDeliveries++;
  };
  const transaction = (card: Card, id: string, type: 'capture' | 'refund', cents: number) => ({
    id,
    object: 'issuing.transaction',
    type,
    amount: type === 'capture' ? -cents : cents,
    currency: 'usd',
    card: card.cardId,
    authorization: card.authorizationId,
    created: Math.floor(Date.now() / 1000),
    merchant_data: { name: 'Bench Books', category: 'book_stores' },
  });
  try {
    const captures = await runConcurrent(cards.length, CONCURRENCY, (i) =>
      deliver(`setcap${i}`, transaction(cards[i] as Card, `ipi_setcap${i}`, 'capture', HELD_CENTS)),
    );
    const refunds = await runConcurrent(cards.length, CONCURRENCY, (i) =>
      deliver(`setref${i}`, transaction(cards[i] as Card, `ipi_setref${i}`, 'refund', REFUND_CENTS)),
    );
    const after = await readConflictCounts();
    // The same shape without the handler: does DynamoDB Local make one hot item slower?
    const bare = (item: (i: number) => string) =>
      runConcurrent(cards.length, CONCURRENCY, async (i) => {
        await table.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: table.tableName,
                  Key: { pk: item(i), sk: 'BALANCE' },
                  UpdateExpression: 'ADD balanceCents :one',
                  ExpressionAttributeValues: { ':one': 1 },
                },
              },
              { Put: { TableName: table.tableName, Item: { pk: `HOTLINE#${item(i)}`, sk: String(i) } } },
            ],
          }),
        );
      });
    const bareShared = await bare(() => 'HOT#shared');
    const barePerTeam = await bare((i) => `HOT#${(cards[i] as Card).teamId}`);
    return {
      bareShared,
      barePerTeam,
      captures,
      refunds,
      failedDeliveries,
      conflicts: after && before ? after.conflicts - before.conflicts : conflictLines,
      retries: after && before ? after.retries - before.retries : 0,
    };
  } finally {
    console.error = printError;
  }
}

export function printSettlement(figures: SettlementFigures) {
  const row = (name: string, t: Throughput) =>
    `  ${name.padEnd(24)} ${t.perSecond.toFixed(0).padStart(8)}/s   p50 ${t.p50.toFixed(1).padStart(6)} ms   p99 ${t.p99.toFixed(1).padStart(6)} ms`;
  console.log(
    `\nSettlement: ${TEAMS * CARDS_PER_TEAM} cards in ${TEAMS} teams, ${CONCURRENCY} webhook deliveries at a time`,
  );
  console.log(row('captures', figures.captures));
  console.log(row('refunds', figures.refunds));
  console.log(row('bare, one shared item', figures.bareShared));
  console.log(row('bare, one item per team', figures.barePerTeam));
  console.log(
    `  failed deliveries (Stripe retries them later): ${figures.failedDeliveries}; transaction conflicts: ${figures.conflicts}; retries: ${figures.retries}`,
  );
}
