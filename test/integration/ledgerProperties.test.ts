/**
 * The ledger under random operation sequences, against DynamoDB Local (no
 * mocks). A simple in-memory model says what every balance must be; after every
 * step the stored balances must equal the model, no internal balance may be
 * negative, and the books must balance. At the end of each run every account's
 * entries must sum to its balance and every journal entry must balance.
 * Runs: LEDGER_PROPERTY_RUNS (default 1000).
 */
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import {
  type AccountId,
  authorizationHold,
  capture,
  debtRepayment,
  funding,
  mayGoNegative,
  mayNotGoPositive,
  merchantRefund,
  type Posting,
  reallocation,
  redemption,
  redemptionFee,
  release,
  toPool,
  validatePosting,
} from '@shared/domain/ledger';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../lambdas/src/data/keys';
import { InsufficientFunds, post, statement, teamJournal } from '../../lambdas/src/data/ledger';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';

const RUNS = Number(process.env.LEDGER_PROPERTY_RUNS ?? 1000);
const USERS = ['u0', 'u1', 'u2'];

let stack: IntegrationStack;
beforeAll(async () => {
  stack = await startIntegrationStack();
});
afterAll(async () => {
  await stack?.stop();
});

type Op =
  | { op: 'fund'; user: number; cents: number }
  | { op: 'authorize'; user: number; cents: number }
  | { op: 'capture'; auth: number; factor: number }
  | { op: 'release'; auth: number }
  | { op: 'refund'; user: number; cents: number }
  | { op: 'toPool'; user: number; cents: number }
  | { op: 'reallocate'; cents: number; receivers: number[] }
  | { op: 'redeem'; cents: number }
  | { op: 'repayDebt'; user: number; cents: number }
  | { op: 'repeat'; index: number };

const user = fc.integer({ min: 0, max: USERS.length - 1 });
const cents = fc.integer({ min: 1, max: 6000 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('fund' as const), user, cents }),
  fc.record({ op: fc.constant('authorize' as const), user, cents }),
  fc.record({
    op: fc.constant('capture' as const),
    auth: fc.nat(20),
    factor: fc.double({ min: 0.1, max: 1.5, noNaN: true }),
  }),
  fc.record({ op: fc.constant('release' as const), auth: fc.nat(20) }),
  fc.record({ op: fc.constant('refund' as const), user, cents }),
  fc.record({ op: fc.constant('toPool' as const), user, cents }),
  fc.record({
    op: fc.constant('reallocate' as const),
    cents,
    receivers: fc.uniqueArray(user, { minLength: 1, maxLength: USERS.length }),
  }),
  fc.record({ op: fc.constant('redeem' as const), cents: fc.integer({ min: 501, max: 8000 }) }),
  fc.record({ op: fc.constant('repayDebt' as const), user, cents }),
  fc.record({ op: fc.constant('repeat' as const), index: fc.nat(30) }),
);

class Model {
  balances = new Map<AccountId, number>();
  auths: { id: string; user: string; held: number }[] = [];
  captured = new Map<string, number>();
  charged = 0;
  merchantRefunds = 0;
  capturedFromHold = 0;
  redeemedNet = 0;

  get(account: AccountId) {
    return this.balances.get(account) ?? 0;
  }

  apply(p: Posting) {
    for (const leg of p.legs) this.balances.set(leg.account, this.get(leg.account) + leg.amountCents);
  }

  /** Would the posting take an internal account below zero, or a debt above it? */
  refuses(p: Posting): AccountId | undefined {
    return p.legs.find(
      (l) =>
        (l.amountCents < 0 && !mayGoNegative(l.account) && this.get(l.account) < -l.amountCents) ||
        (l.amountCents > 0 && mayNotGoPositive(l.account) && this.get(l.account) > -l.amountCents),
    )?.account;
  }
}

async function storedBalances(accounts: AccountId[]): Promise<Map<AccountId, number>> {
  const result = await stack.doc.send(
    new BatchGetCommand({
      RequestItems: {
        [stack.tableName]: { Keys: accounts.map((a) => keys.account(a)), ConsistentRead: true },
      },
    }),
  );
  const map = new Map<AccountId, number>();
  for (const item of result.Responses?.[stack.tableName] ?? [])
    map.set(item.accountId, Number(item.balanceCents));
  return map;
}

let runCounter = 0;

describe('ledger invariants under random operations', () => {
  it(`hold for ${RUNS} random sequences`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 10 }), async (ops) => {
        const run = `r${runCounter++}-${Date.now().toString(36)}`;
        const team = `team-${run}`;
        const uid = (i: number) => `${run}-${USERS[i]}`;
        const model = new Model();
        const posted: Posting[] = [];
        let step = 0;
        const accounts: AccountId[] = [
          ...USERS.flatMap((_, i) => [`card:${uid(i)}`, `hold:${uid(i)}`, `debt:${uid(i)}`] as AccountId[]),
          `pool:${team}`,
          `external:${team}`,
          // Per team since issue 12, so this team's books close on their own.
          `network:${team}`,
          `revenue:${team}`,
        ];

        for (const op of ops) {
          const id = `${run}-${step++}`;
          let p: Posting | undefined;
          /** The authorization a capture or release acts on. */
          let target: Model['auths'][number] | undefined;
          switch (op.op) {
            case 'fund':
              p = funding({
                entryId: id,
                teamId: team,
                userId: uid(op.user),
                amountCents: op.cents,
                description: 'f',
                chargeId: `ch_${id}`,
              });
              break;
            case 'authorize':
              p = authorizationHold({
                authorizationId: id,
                teamId: team,
                userId: uid(op.user),
                amountCents: op.cents,
                merchant: 'M',
              });
              break;
            case 'capture': {
              target = model.auths[op.auth % Math.max(1, model.auths.length)];
              if (!target || target.held === 0) continue;
              const capturedCents = Math.max(1, Math.round(target.held * op.factor));
              p = capture({
                entryId: id,
                teamId: team,
                userId: target.user,
                capturedCents,
                heldCents: target.held,
                merchant: 'M',
                transactionId: id,
              });
              break;
            }
            case 'release': {
              target = model.auths[op.auth % Math.max(1, model.auths.length)];
              if (!target || target.held === 0) continue;
              p = release({
                entryId: id,
                teamId: team,
                userId: target.user,
                amountCents: target.held,
                reason: 'expired',
              });
              break;
            }
            case 'refund': {
              const spent = model.captured.get(uid(op.user)) ?? 0;
              if (spent === 0) continue;
              p = merchantRefund({
                entryId: id,
                teamId: team,
                userId: uid(op.user),
                amountCents: Math.min(op.cents, spent),
                merchant: 'M',
                transactionId: id,
              });
              break;
            }
            case 'toPool':
              p = toPool({
                entryId: id,
                teamId: team,
                userId: uid(op.user),
                amountCents: op.cents,
                reason: 'removed',
              });
              break;
            case 'reallocate':
              p = reallocation({
                entryId: id,
                teamId: team,
                amountCents: op.cents,
                receiverIds: op.receivers.map(uid),
              });
              break;
            case 'redeem': {
              // Odd amounts are refunded in two parts, to two charges, as when no single charge can take it.
              const net = op.cents - redemptionFee(op.cents);
              const half = op.cents % 2 === 1 ? Math.floor(net / 2) : 0;
              const refunds = [
                { chargeId: 'ch_new', refundId: `re_${id}_1`, amountCents: net - half },
                { chargeId: 'ch_old', refundId: `re_${id}_2`, amountCents: half },
              ].filter((r) => r.amountCents > 0);
              p = redemption({ entryId: id, teamId: team, amountCents: op.cents, refunds });
              break;
            }
            case 'repayDebt':
              // Often more than is owed (or owed at all): the ledger must refuse those.
              p = debtRepayment({ entryId: id, teamId: team, userId: uid(op.user), amountCents: op.cents });
              break;
            case 'repeat': {
              const again = posted[op.index % Math.max(1, posted.length)];
              if (!again) continue;
              // The same entry id again: recorded once, whatever else happened since.
              expect(await post(again)).toEqual({ status: 'duplicate' });
              break;
            }
          }

          if (p) {
            const refusedBy = model.refuses(p);
            if (refusedBy) {
              await expect(post(p)).rejects.toBeInstanceOf(InsufficientFunds);
            } else {
              expect(await post(p)).toEqual({ status: 'posted' });
              model.apply(p);
              posted.push(p);
              if (p.kind === 'funding') model.charged += p.legs[1]?.amountCents ?? 0;
              if (p.kind === 'authorization')
                model.auths.push({
                  id,
                  user: p.legs[0]?.account.slice(5) as string,
                  held: -(p.legs[0]?.amountCents ?? 0),
                });
              if (target) {
                const fromHold = -(p.legs.find((l) => l.account.startsWith('hold:'))?.amountCents ?? 0);
                target.held -= fromHold;
                if (p.kind === 'capture') {
                  model.captured.set(
                    target.user,
                    (model.captured.get(target.user) ?? 0) + (p.legs[0]?.amountCents ?? 0),
                  );
                  model.capturedFromHold += fromHold;
                }
              }
              if (p.kind === 'refund') {
                const who = p.legs[1]?.account.slice(5) as string;
                model.captured.set(who, (model.captured.get(who) ?? 0) - (p.legs[1]?.amountCents ?? 0));
                model.merchantRefunds += p.legs[1]?.amountCents ?? 0;
              }
              if (p.kind === 'redemption')
                model.redeemedNet += p.legs.find((l) => l.account.startsWith('external:'))?.amountCents ?? 0;
            }
          }

          // After every step: the stored balances are the model's, none negative where that is forbidden.
          const stored = await storedBalances(accounts);
          for (const account of accounts) {
            expect(stored.get(account) ?? 0, account).toBe(model.get(account));
            if (!mayGoNegative(account)) expect(stored.get(account) ?? 0).toBeGreaterThanOrEqual(0);
            if (mayNotGoPositive(account)) expect(stored.get(account) ?? 0).toBeLessThanOrEqual(0);
          }
          // Money in the team's internal accounts is what was charged, plus merchant refunds, minus what
          // purchases took from holds and what was redeemed (fees stay with us, as revenue).
          const internal = accounts
            .filter((a) => !mayGoNegative(a) && !a.startsWith('revenue:'))
            .reduce((sum, a) => sum + model.get(a), 0);
          const feesTaken = posted
            .filter((x) => x.kind === 'redemption')
            .reduce((s, x) => s + (x.legs[1]?.amountCents ?? 0), 0);
          expect(internal).toBe(
            model.charged + model.merchantRefunds - model.capturedFromHold - model.redeemedNet - feesTaken,
          );
          expect(stored.get(`revenue:${team}`) ?? 0).toBe(feesTaken);
          // Every account this team's postings touch is in the list, so its balances sum to 0.
          expect(accounts.reduce((sum, a) => sum + (stored.get(a) ?? 0), 0)).toBe(0);
          for (const x of posted) for (const leg of x.legs) expect(accounts).toContain(leg.account);
        }

        // End of run: every account's entries add up to its balance; every journal entry balances.
        for (const account of accounts) {
          const lines = await statement(account);
          expect(lines.at(-1)?.balanceCents ?? 0, account).toBe(model.get(account));
        }
        const journal = await teamJournal(team);
        expect(journal).toHaveLength(posted.length);
        for (const entry of journal) expect(() => validatePosting(entry)).not.toThrow();
      }),
      { numRuns: RUNS },
    );
  }, 900_000);
});
