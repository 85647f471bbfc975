/**
 * Holds nobody captures (docs/stripe-emulator.md, "The card network"; Stripe:
 * an approval not captured within 7 days for most merchants is expired, its
 * hold released with `issuing_authorization.updated`, status `expired`, and
 * it may still be captured later). Time passes as `npm run time` moves it:
 * the product's and the emulator's clocks together, each day's jobs run, and
 * the emulator's expiry runs at each step (`travel`'s catch-up). The product
 * releases the hold through the ledger, once, and a late capture is settled
 * as a capture with no hold: what the employee owes.
 */

import type { JobId } from '@shared/api/schedules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadJobHandlers } from '../../infra/local/scheduler';
import { createLocalClock, type LocalClock, travel } from '../../infra/local/timeTravel';
import { teamJournal } from '../../lambdas/src/data/ledger';
import type { SignedIn } from '../support/accountFlows';
import { payWithCard } from '../support/cardNetwork';
import {
  type IntegrationStack,
  startIntegrationStack,
  TEST_WEBHOOK_SECRET,
} from '../support/integrationStack';
import { LedgerInvariants } from '../support/ledgerInvariants';
import { emulatorClient, joinTeam, sender, setUpTeam } from '../support/teams';

const DAY_MS = 24 * 60 * 60 * 1000;
const UDEMY = { name: 'Udemy', category: 'digital_goods_media' };

let clock: LocalClock;
let stack: IntegrationStack;
let send: ReturnType<typeof sender>;
let handlers: Map<JobId, (event?: { time?: string }) => Promise<unknown>>;

beforeAll(async () => {
  clock = createLocalClock();
  stack = await startIntegrationStack({
    stripe: true,
    authorizationTimeoutMs: 15_000,
    stripeClock: () => clock.nowMs(),
  });
  send = sender(stack);
  handlers = await loadJobHandlers();
});
afterAll(async () => {
  await stack?.stop();
});

const admin = () => {
  const emulator = stack.stripe?.admin;
  if (!emulator) throw new Error('this stack runs without the Stripe emulator');
  return emulator;
};

/** As `npm run time` does: every job for each day passed, the emulator's expiry at each step. */
const passDays = (days: number) =>
  travel(clock, handlers, new Date(clock.nowMs() + days * DAY_MS), undefined, () => admin().expireDue());

/** A purchase the merchant authorizes and never captures. */
async function holdOnly(employee: SignedIn & { cardId: string }, cents: number) {
  admin().setAutoCapture(false);
  try {
    const outcome = await payWithCard(stack, employee.cardId, cents, UDEMY);
    expect(outcome.approved).toBe(true);
    return outcome.authorization?.id as string;
  } finally {
    admin().setAutoCapture(50);
  }
}

const balance = async (employee: SignedIn) =>
  (await send('GET', '/me/balance', employee.accessToken)).body as {
    availableCents: number;
    onHoldCents: number;
    owedCents: number;
  };

const pendingRows = async (who: SignedIn) =>
  (
    (await send('GET', '/purchases?limit=10', who.accessToken)).body.purchases as {
      purchaseId: string;
      status: string;
      amountCents: number;
    }[]
  ).filter((p) => p.status === 'pending');

async function releases(teamId: string, authorizationId: string) {
  return (await teamJournal(teamId)).filter(
    (e) => e.kind === 'release' && e.entryId.startsWith(`RELEASE#${authorizationId}`),
  );
}

describe('an authorization nobody captures', () => {
  it('holds for 7 days, then Stripe expires it and the product releases the hold through the ledger, once', async () => {
    const { manager, teamId } = await setUpTeam(stack);
    const employee = await joinTeam(stack, manager, 30);
    const ledger = new LedgerInvariants(stack, teamId);
    const authorizationId = await holdOnly(employee, 250);
    expect(await balance(employee)).toMatchObject({ availableCents: 2750, onHoldCents: 250 });

    // Six days on, still held and still listed, for the employee and the manager.
    await passDays(6);
    expect((await emulatorClient(stack).issuing.authorizations.retrieve(authorizationId)).status).toBe(
      'pending',
    );
    expect(await balance(employee)).toMatchObject({ availableCents: 2750, onHoldCents: 250 });
    expect(await pendingRows(employee)).toEqual([
      expect.objectContaining({ purchaseId: authorizationId, amountCents: 250 }),
    ]);
    expect((await pendingRows(manager)).map((r) => r.purchaseId)).toEqual([authorizationId]);

    // Day 7 passes: expired at the issuer, the webhook heard, the hold back on the card.
    await passDays(2);
    const expired = await emulatorClient(stack).issuing.authorizations.retrieve(authorizationId);
    expect(expired.status).toBe('expired');
    const updates = admin()
      .events('issuing_authorization.updated')
      .filter((e) => e.data.object.id === authorizationId);
    expect(updates.map((e) => [e.data.object.status, e.data.previous_attributes?.status])).toEqual([
      ['expired', 'pending'],
    ]);
    expect(await balance(employee)).toMatchObject({ availableCents: 3000, onHoldCents: 0, owedCents: 0 });
    expect(await pendingRows(employee)).toEqual([]);
    const statement = (await send('GET', '/me/statement', employee.accessToken)).body.lines as {
      description: string;
      amountCents: number;
    }[];
    expect(statement).toContainEqual(
      expect.objectContaining({
        description: 'Hold for Udemy expired',
        amountCents: 250,
      }),
    );
    expect(await releases(teamId, authorizationId)).toHaveLength(1);

    // Nothing is released twice: the same event again, and Stripe's expiry running again.
    await admin().redeliver(updates[0]?.id as string);
    expect(await admin().expireDue()).toEqual([]);
    await passDays(1);
    expect(await releases(teamId, authorizationId)).toHaveLength(1);
    expect(await balance(employee)).toMatchObject({ availableCents: 3000, onHoldCents: 0 });
    // The card's balance and the ledger agree: every invariant of docs/ledger.md holds.
    const totals = await ledger.check('after expiry', [employee.userId], { everyStatement: true });
    expect(totals.balances.get(`card:${employee.userId}`)).toBe(3000);
    expect(totals.balances.get(`hold:${employee.userId}`) ?? 0).toBe(0);
  }, 300_000);

  it('a capture arriving after the expiry is settled, as Stripe allows: with no hold left it is what the employee owes, repaid by the next credit', async () => {
    const { manager, teamId } = await setUpTeam(stack);
    const employee = await joinTeam(stack, manager, 30);
    const ledger = new LedgerInvariants(stack, teamId);
    const authorizationId = await holdOnly(employee, 400);
    await passDays(8);
    expect(await balance(employee)).toMatchObject({ availableCents: 3000, onHoldCents: 0 });

    // Stripe: "Authorizations that have been expired by Stripe can be captured later".
    const capture = admin().capture(authorizationId);
    await admin().idle();
    expect(capture.amount).toBe(-400);
    expect((await emulatorClient(stack).issuing.authorizations.retrieve(authorizationId)).status).toBe(
      'closed',
    );
    expect(await balance(employee)).toMatchObject({ availableCents: 3000, onHoldCents: 0, owedCents: 400 });
    expect(await releases(teamId, authorizationId)).toHaveLength(1);
    // It is a purchase like any other: listed as settled, its receipt asked for.
    const rows = (await send('GET', '/purchases?limit=10', employee.accessToken)).body.purchases as {
      purchaseId: string;
      status: string;
      amountCents: number;
    }[];
    expect(rows).toEqual([expect.objectContaining({ purchaseId: capture.id, amountCents: 400 })]);
    await ledger.check('late capture', [employee.userId], { everyStatement: true });

    // The capture delivered again changes nothing.
    const created = admin()
      .events('issuing_transaction.created')
      .find((e) => e.data.object.id === capture.id);
    await admin().redeliver(created?.id as string);
    expect(await balance(employee)).toMatchObject({ availableCents: 3000, owedCents: 400 });

    // The next credit repays the debt first (as after any capture above its hold).
    const deposit = await send(
      'POST',
      '/funds/deposit',
      manager.accessToken,
      { userIds: [employee.userId], amount: 10 },
      `late-capture-${authorizationId}`,
    );
    expect(deposit.status, JSON.stringify(deposit.body)).toBe(200);
    expect(await balance(employee)).toMatchObject({ availableCents: 3600, onHoldCents: 0, owedCents: 0 });
    await ledger.check('debt repaid', [employee.userId], { everyStatement: true });
  }, 300_000);

  it('a hold older than the usual window stays listed while the issuer still holds it, and its release is explained', async () => {
    const { manager } = await setUpTeam(stack);
    const employee = await joinTeam(stack, manager, 30);
    const authorizationId = await holdOnly(employee, 120);
    // The issuer keeps some holds longer (lodging: up to 31 days); here its expiry has not run.
    await travel(clock, handlers, new Date(clock.nowMs() + 11 * DAY_MS));
    expect(await balance(employee)).toMatchObject({ onHoldCents: 120 });
    expect(await pendingRows(employee)).toEqual([
      expect.objectContaining({ purchaseId: authorizationId, amountCents: 120 }),
    ]);
    expect((await pendingRows(manager)).map((r) => r.purchaseId)).toEqual([authorizationId]);

    expect((await admin().expireDue()).map((a) => a.id)).toEqual([authorizationId]);
    expect(await pendingRows(employee)).toEqual([]);
    expect(await balance(employee)).toMatchObject({ availableCents: 3000, onHoldCents: 0 });
  }, 300_000);

  it('an expiry whose webhook never arrived is found by the next reconciliation, and the hold released once', async () => {
    const { manager, teamId } = await setUpTeam(stack);
    const employee = await joinTeam(stack, manager, 30);
    const authorizationId = await holdOnly(employee, 180);
    await travel(clock, handlers, new Date(clock.nowMs() + 7 * DAY_MS + 60_000));
    // Stripe expires it while our endpoint hears nothing (no retries left either).
    stack.stripe?.setWebhook(undefined, TEST_WEBHOOK_SECRET);
    try {
      expect((await admin().expireDue()).map((a) => a.id)).toEqual([authorizationId]);
    } finally {
      stack.stripe?.setWebhook(`${stack.apiUrl}/webhooks/stripe`, TEST_WEBHOOK_SECRET);
    }
    expect(await balance(employee)).toMatchObject({ onHoldCents: 180 });

    // The next day's 05:00 reconciliation reads the authorizations Stripe expired.
    const day = await travel(clock, handlers, new Date(clock.nowMs() + DAY_MS));
    const runs = day.runs.filter((r) => r.jobId === 'reconciliation');
    expect(runs).toHaveLength(1);
    expect(await balance(employee)).toMatchObject({ availableCents: 3000, onHoldCents: 0 });
    expect(await releases(teamId, authorizationId)).toHaveLength(1);
    // Read again every run for its 32 days: nothing more.
    await travel(clock, handlers, new Date(clock.nowMs() + DAY_MS));
    expect(await releases(teamId, authorizationId)).toHaveLength(1);
  }, 300_000);
});
