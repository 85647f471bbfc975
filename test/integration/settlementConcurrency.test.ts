/**
 * Issue 12: settlement has no shared hot spot. Captures of many teams at once
 * all succeed and write no item in common; the shared accounts of before are
 * moved to per-team accounts by an idempotent migration.
 */
import { randomUUID } from 'node:crypto';
import {
  type AccountId,
  cardAccount,
  funding,
  holdAccount,
  LEGACY_NETWORK_ACCOUNT,
  LEGACY_REVENUE_ACCOUNT,
  networkAccount,
  type Posting,
  revenueAccount,
} from '@shared/domain/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, post, statement, teamJournal } from '../../lambdas/src/data/ledger';
import { splitSharedAccounts } from '../../lambdas/src/data/ledgerMigrations';
import { onTransactionConflict, type TransactionConflict } from '../../lambdas/src/data/transactions';
import { fundedCard } from '../support/fundedCard';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { authorizationObject, deliver, event, transactionObject } from '../support/stripeEvents';

let stack: IntegrationStack;
beforeAll(async () => {
  stack = await startIntegrationStack();
});
afterAll(async () => {
  await stack?.stop();
});

/** A team of one active employee whose card is funded through the ledger. */
const teamWithFundedCard = (cents: number) => fundedCard(stack, cents);

describe('settlement across teams', () => {
  it('32 captures of 32 teams at once: every delivery succeeds, no conflict, no item written by two teams', async () => {
    const conflicts: TransactionConflict[] = [];
    const stop = onTransactionConflict((c) => conflicts.push(c));
    try {
      const cards = await Promise.all(Array.from({ length: 32 }, () => teamWithFundedCard(5000)));
      const auths: ReturnType<typeof authorizationObject>[] = [];
      for (const card of cards) {
        const auth = authorizationObject({ ...card, amountCents: 1200 });
        const answer = await deliver(stack.apiUrl, event('issuing_authorization.request', auth));
        expect(answer.body.approved).toBe(true);
        auths.push(auth);
      }

      const answers = await Promise.all(
        cards.map((card, i) =>
          deliver(
            stack.apiUrl,
            event(
              'issuing_transaction.created',
              transactionObject({ cardId: card.cardId, authorizationId: auths[i]?.id, amountCents: 1200 }),
            ),
          ),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(cards.map(() => 200));
      expect(conflicts).toEqual([]);

      // Each team's own network account took its capture; the retired shared one was never written.
      for (const card of cards) {
        expect(await balanceOf(networkAccount(card.teamId))).toBe(1200);
        expect(await balanceOf(holdAccount(card.userId))).toBe(0);
        expect(await balanceOf(cardAccount(card.userId))).toBe(3800);
      }
      expect(await statement(LEGACY_NETWORK_ACCOUNT)).toEqual([]);

      // Every posting of every team, legs inspected: no account appears in two teams' journals.
      const writers = new Map<AccountId, Set<string>>();
      for (const card of cards) {
        const journal = await teamJournal(card.teamId);
        expect(journal.map((e) => e.kind).sort()).toEqual(['authorization', 'capture', 'funding']);
        for (const entry of journal)
          for (const leg of entry.legs)
            writers.set(leg.account, (writers.get(leg.account) ?? new Set()).add(entry.teamId));
      }
      const sharedAccounts = [...writers].filter(([, teams]) => teams.size > 1).map(([account]) => account);
      expect(sharedAccounts).toEqual([]);
    } finally {
      stop();
    }
  }, 120_000);
});

describe('moving the retired shared accounts to per-team accounts', () => {
  /** A posting as the ledger wrote it before issue 12: one shared account for every team. */
  function legacy(entryId: string, teamId: string, kind: Posting['kind'], legs: Posting['legs']): Posting {
    return { entryId, teamId, kind, legs, description: 'before issue 12' };
  }

  it('moves each team’s part once, keeps every old entry, and leaves the shared accounts at 0', async () => {
    const teams = [`t-${randomUUID()}`, `t-${randomUUID()}`, `t-${randomUUID()}`];
    const user = (t: number) => `u-${t}-${teams[t]}`;
    for (const [t, teamId] of teams.entries()) {
      await post(
        funding({
          entryId: `F${t}`,
          teamId,
          userId: user(t),
          amountCents: 10_000,
          description: 'f',
          chargeId: 'ch',
        }),
      );
      await post(
        legacy(`CAPTURE#a${t}`, teamId, 'capture', [
          { account: LEGACY_NETWORK_ACCOUNT, amountCents: 3000 + t },
          { account: cardAccount(user(t)), amountCents: -(3000 + t) },
        ]),
      );
    }
    await post(
      legacy('REFUND#r0', teams[0] as string, 'refund', [
        { account: LEGACY_NETWORK_ACCOUNT, amountCents: -500 },
        { account: cardAccount(user(0)), amountCents: 500 },
      ]),
    );
    await post(
      legacy('REDEEM#x1', teams[1] as string, 'redemption', [
        { account: cardAccount(user(1)), amountCents: -2000 },
        { account: LEGACY_REVENUE_ACCOUNT, amountCents: 500 },
        { account: `external:${teams[1]}`, amountCents: 1500 },
      ]),
    );
    // A team whose captures and refunds cancel out has nothing to move.
    await post(
      legacy('REFUND#r2', teams[2] as string, 'refund', [
        { account: LEGACY_NETWORK_ACCOUNT, amountCents: -3002 },
        { account: cardAccount(user(2)), amountCents: 3002 },
      ]),
    );
    const oldLines = (await statement(LEGACY_NETWORK_ACCOUNT)).length;

    // Two runs at once, then a third: the moves are made once.
    const [first, second] = await Promise.all([splitSharedAccounts(), splitSharedAccounts()]);
    expect(first.posted + second.posted).toBe(3);
    expect(await splitSharedAccounts()).toEqual({ posted: 0, teams: 3 });

    expect(await balanceOf(LEGACY_NETWORK_ACCOUNT)).toBe(0);
    expect(await balanceOf(LEGACY_REVENUE_ACCOUNT)).toBe(0);
    expect(await balanceOf(networkAccount(teams[0] as string))).toBe(2500);
    expect(await balanceOf(networkAccount(teams[1] as string))).toBe(3001);
    expect(await balanceOf(networkAccount(teams[2] as string))).toBe(0);
    expect(await balanceOf(revenueAccount(teams[1] as string))).toBe(500);
    // Old entries stay: the shared statement still lists them, with the moves after them.
    expect((await statement(LEGACY_NETWORK_ACCOUNT)).length).toBe(oldLines + 2);
    for (const teamId of teams) {
      const own = await statement(networkAccount(teamId));
      expect(own.at(-1)?.balanceCents ?? 0).toBe(await balanceOf(networkAccount(teamId)));
      const journal = await teamJournal(teamId);
      expect(journal.some((e) => e.entryId.startsWith('CAPTURE#'))).toBe(true);
    }

    // A line an old Lambda writes after the run is moved by the next one.
    await post(
      legacy('CAPTURE#late', teams[2] as string, 'capture', [
        { account: LEGACY_NETWORK_ACCOUNT, amountCents: 700 },
        { account: cardAccount(user(2)), amountCents: -700 },
      ]),
    );
    expect((await splitSharedAccounts()).posted).toBe(1);
    expect(await balanceOf(networkAccount(teams[2] as string))).toBe(700);
    expect(await balanceOf(LEGACY_NETWORK_ACCOUNT)).toBe(0);
  });
});
