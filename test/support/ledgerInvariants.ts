/**
 * The ledger invariants of docs/ledger.md, checked on one team's books as they
 * are stored (DynamoDB Local), for tests that run real flows and want to know
 * the books stayed right after every step (test/integration/yearInTheLife.test.ts
 * checks them after every simulated day).
 *
 * Each check reads the team's whole journal (gsi1) and every balance of the
 * team's accounts (one BatchGet per 100), and the statement (entry items) of
 * each account whose journal total moved since the previous check. A failure
 * throws with the check's label, so the day it broke is in the message.
 */
import { BatchGetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { type AccountId, mayGoNegative, mayNotGoPositive, validatePosting } from '@shared/domain/ledger';
import { keys } from '../../lambdas/src/data/keys';
import { type JournalEntry, statement, teamJournal } from '../../lambdas/src/data/ledger';
import type { IntegrationStack } from './integrationStack';

/** Money totals of a team's books, from its journal (all integer cents, all >= 0 but `debt`). */
export interface LedgerTotals {
  /** Credited from the manager's card: joining, monthly and deposit charges (the `external` legs taken). */
  charged: number;
  /** Returned to the manager's card by redemptions (the `external` legs given back): the Stripe refunds. */
  redeemed: number;
  /** Redemption fees kept (`revenue:<team>`); the provider takes no fee on subscriptions. */
  fees: number;
  /** Spent at merchants, net of their refunds (`network:<team>`). */
  spent: number;
  /** Held for the team's people: `card`, `hold` and `pool` balances. */
  internal: number;
  /** Owed by employees after over-captures (`debt` balances, <= 0). */
  debt: number;
  /** Every stored balance of the team, by account. */
  balances: Map<AccountId, number>;
}

/** The team or person an account belongs to: the part after the kind. */
function ownerOf(account: AccountId): string {
  return account.slice(account.indexOf(':') + 1);
}

function kindOf(account: AccountId): string {
  return account.slice(0, account.indexOf(':'));
}

const TEAM_KINDS = new Set(['pool', 'external', 'network', 'revenue']);
const PERSON_KINDS = new Set(['card', 'hold', 'debt']);

function fail(label: string, message: string): never {
  throw new Error(`ledger invariant broken (${label}): ${message}`);
}

export class LedgerInvariants {
  /** Each journal entry as first seen: entries are never edited or deleted (invariant 4). */
  private readonly seen = new Map<string, string>();
  /** Journal totals per account at the previous check, to know whose statements to read again. */
  private previousSums = new Map<AccountId, number>();
  private checks = 0;

  constructor(
    private readonly stack: IntegrationStack,
    private readonly teamId: string,
  ) {}

  /** How many checks have run. */
  get count(): number {
    return this.checks;
  }

  /**
   * Checks every invariant of docs/ledger.md on the team's books; `people` are
   * the team's user ids (everyone who ever had a card), for invariant 7.
   * Statements (entry items) are read for the accounts whose journal total
   * moved since the last check, or for every account with `everyStatement`.
   */
  async check(
    label: string,
    people: readonly string[],
    options: { everyStatement?: boolean } = {},
  ): Promise<LedgerTotals> {
    this.checks++;
    const journal = await teamJournal(this.teamId);
    const members = new Set(people);
    const sums = new Map<AccountId, number>();
    const ids = new Set<string>();
    const totals = {
      charged: 0,
      redeemed: 0,
      merchantRefunds: 0,
      fromHolds: 0,
      debtRepaid: 0,
      redeemedGross: 0,
    };

    for (const entry of journal) {
      // 3: one journal entry per id.
      if (ids.has(entry.entryId)) fail(label, `entry ${entry.entryId} listed twice`);
      ids.add(entry.entryId);
      // 1: balances to zero, whole cents, each account once, at least two legs.
      try {
        validatePosting(entry);
      } catch (error) {
        fail(label, `entry ${entry.entryId}: ${(error as Error).message}`);
      }
      // 4: never edited.
      const canonical = canonicalEntry(entry);
      const before = this.seen.get(entry.entryId);
      if (before === undefined) this.seen.set(entry.entryId, canonical);
      else if (before !== canonical) fail(label, `entry ${entry.entryId} changed: ${before} -> ${canonical}`);
      if (entry.teamId !== this.teamId) fail(label, `entry ${entry.entryId} is team ${entry.teamId}'s`);
      for (const leg of entry.legs) {
        // 7: every leg names an account of this team or of one of its people.
        const kind = kindOf(leg.account);
        const owner = ownerOf(leg.account);
        const ours = TEAM_KINDS.has(kind)
          ? owner === this.teamId
          : PERSON_KINDS.has(kind) && members.has(owner);
        if (!ours) fail(label, `entry ${entry.entryId} names ${leg.account}, not an account of the team`);
        sums.set(leg.account, (sums.get(leg.account) ?? 0) + leg.amountCents);
        if (kind === 'external' && leg.amountCents < 0) totals.charged -= leg.amountCents;
        if (kind === 'external' && leg.amountCents > 0) totals.redeemed += leg.amountCents;
        if (entry.kind === 'refund' && kind === 'card') totals.merchantRefunds += leg.amountCents;
        if (entry.kind === 'capture' && kind === 'hold') totals.fromHolds -= leg.amountCents;
        if (entry.kind === 'debtRepayment' && kind === 'card') totals.debtRepaid -= leg.amountCents;
        if (entry.kind === 'redemption' && kind === 'pool') totals.redeemedGross -= leg.amountCents;
      }
    }
    // 4: never deleted.
    for (const id of this.seen.keys()) if (!ids.has(id)) fail(label, `entry ${id} disappeared`);

    const accounts = new Set<AccountId>(sums.keys());
    for (const person of members)
      for (const kind of PERSON_KINDS) accounts.add(`${kind}:${person}` as AccountId);
    for (const kind of TEAM_KINDS) accounts.add(`${kind}:${this.teamId}` as AccountId);
    const balances = await this.storedBalances([...accounts]);

    let sum = 0;
    for (const account of accounts) {
      const stored = balances.get(account) ?? 0;
      sum += stored;
      // 5: each balance is the sum of its entries.
      if (stored !== (sums.get(account) ?? 0))
        fail(label, `${account} holds ${stored}, its journal legs sum to ${sums.get(account) ?? 0}`);
      // 2: no internal account below zero, no debt above it.
      if (!mayGoNegative(account) && stored < 0) fail(label, `${account} is ${stored}`);
      if (mayNotGoPositive(account) && stored > 0) fail(label, `${account} is ${stored}`);
    }
    // 5 and 7: the team's balances sum to zero on their own.
    if (sum !== 0) fail(label, `the team's balances sum to ${sum}`);

    // 5, on the statement side: each account's entry items add up to its balance, one per leg.
    for (const account of accounts) {
      const now = sums.get(account) ?? 0;
      if (!options.everyStatement && this.checks > 1 && this.previousSums.get(account) === now) continue;
      const lines = await statement(account);
      const legs = journal.reduce((n, e) => n + e.legs.filter((l) => l.account === account).length, 0);
      if (lines.length !== legs) fail(label, `${account} has ${lines.length} entry items for ${legs} legs`);
      if ((lines.at(-1)?.balanceCents ?? 0) !== now)
        fail(label, `${account}'s statement ends at ${lines.at(-1)?.balanceCents}, its balance is ${now}`);
    }
    this.previousSums = sums;

    const of = (prefix: string) =>
      [...balances].filter(([a]) => a.startsWith(prefix)).reduce((s, [, cents]) => s + cents, 0);
    const internal = of('card:') + of('hold:') + of('pool:');
    const fees = balances.get(`revenue:${this.teamId}`) ?? 0;
    // 6: internal money is what was charged, plus merchant refunds, less what purchases took from
    // holds, debts repaid and redemptions (refund and fee); the revenue account holds the fees.
    const expectedInternal =
      totals.charged + totals.merchantRefunds - totals.fromHolds - totals.debtRepaid - totals.redeemedGross;
    if (internal !== expectedInternal)
      fail(label, `internal money is ${internal}, the flows say ${expectedInternal}`);
    if (fees !== totals.redeemedGross - totals.redeemed)
      fail(label, `revenue holds ${fees}, redemptions kept ${totals.redeemedGross - totals.redeemed}`);

    return {
      charged: totals.charged,
      redeemed: totals.redeemed,
      fees,
      spent: balances.get(`network:${this.teamId}`) ?? 0,
      internal,
      debt: of('debt:'),
      balances,
    };
  }

  private async storedBalances(accounts: AccountId[]): Promise<Map<AccountId, number>> {
    const balances = new Map<AccountId, number>();
    for (let i = 0; i < accounts.length; i += 100) {
      let pending: Record<string, unknown>[] | undefined = accounts
        .slice(i, i + 100)
        .map((a) => keys.account(a));
      while (pending && pending.length > 0) {
        const result: BatchGetCommandOutput = await this.stack.doc.send(
          new BatchGetCommand({
            RequestItems: { [this.stack.tableName]: { Keys: pending, ConsistentRead: true } },
          }),
        );
        for (const item of result.Responses?.[this.stack.tableName] ?? [])
          balances.set(item.accountId as AccountId, Number(item.balanceCents));
        pending = result.UnprocessedKeys?.[this.stack.tableName]?.Keys;
      }
    }
    return balances;
  }
}

/** The parts of an entry that may never change, in a fixed order. */
function canonicalEntry(entry: JournalEntry): string {
  return JSON.stringify([
    entry.entryId,
    entry.kind,
    entry.teamId,
    entry.legs.map((l) => [l.account, l.amountCents]),
    entry.postedAt,
    entry.description,
    entry.references ?? null,
    entry.refunds ?? null,
  ]);
}
