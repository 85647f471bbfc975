/**
 * Closing a team while a month's charge is taken but not yet credited (the
 * renewal was cut off after Stripe took the money): closing credits the month
 * through the renewal's own plan first, so the money the employer paid is on
 * the ledger and redeemed or kept with the rest, whether the close is retried
 * or races the funding job. A joining charge cut off the same way is credited
 * alike. Real handlers, DynamoDB Local and the Stripe
 * emulator; the cut-off is a network that loses Stripe's answer
 * (test/support/stripeFaultProxy.ts).
 */
import { randomUUID } from 'node:crypto';
import { cardAccount, poolAccount } from '@shared/domain/ledger';
import type Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../lambdas/src/data/keys';
import { balanceOf, teamJournal } from '../../lambdas/src/data/ledger';
import { differencesOfMonth } from '../../lambdas/src/data/reconciliation';
import { handler as monthlyFunding } from '../../lambdas/src/jobs/monthlyFunding';
import { createLogger } from '../../lambdas/src/platform/log';
import { activateEmployee, monthOfDate, renewTeam } from '../../lambdas/src/services/billing';
import { runReconciliation } from '../../lambdas/src/services/reconciliation';
import { type SignedIn, uniqueEmail } from '../support/accountFlows';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { LedgerInvariants } from '../support/ledgerInvariants';
import { chargesFor, type FaultProxy, startFaultProxy } from '../support/stripeFaultProxy';
import { createInvitedMember, emulatorClient, joinTeam, sender, setUpTeam } from '../support/teams';

let stack: IntegrationStack;
let stripe: Stripe;
let send: ReturnType<typeof sender>;
let proxy: FaultProxy;
const log = createLogger({ test: 'closeWithTakenCharge' });
const DAY_MS = 86_400_000;

beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
  // The test's own client talks to the emulator directly, never through the faults.
  stripe = emulatorClient(stack);
  send = sender(stack);
  proxy = await startFaultProxy(stack.stripe?.url as string);
  // The product reads its Stripe configuration on first use, which is after this.
  process.env.STRIPE_API_URL = proxy.url;
});
afterEach(() => proxy?.clear());
afterAll(async () => {
  await proxy?.stop();
  await stack?.stop();
});

/** 06:00 UTC on the team's cycle day, `monthsAhead` months from now (29-31 clamp to short months). */
function cycleDate(cycleDay: number, monthsAhead: number): Date {
  const now = new Date();
  const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + monthsAhead, 1, 6));
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(cycleDay, lastDay));
  return date;
}

type Employee = SignedIn & { cardId: string };

/** A team of employees who joined (each charged and funded on joining) at these budgets. */
async function teamWith(...budgets: number[]) {
  const team = await setUpTeam(stack);
  const people: Employee[] = [];
  for (const budget of budgets) people.push(await joinTeam(stack, team.manager, budget));
  return { ...team, people, books: new LedgerInvariants(stack, team.teamId) };
}

/** A renewal whose charge Stripe takes but whose answer never arrives: the run ends there. */
async function renewalCutOffAfterCharge(teamId: string, day: Date) {
  const month = monthOfDate(day);
  const purpose = `CYCLE#${teamId}#${month}`;
  proxy.fail({ when: 'after', match: chargesFor(purpose) });
  const team = await stack.getItem(keys.team(teamId));
  await expect(renewTeam(team as never, month, day, log)).rejects.toThrow();
  proxy.clear();
  const taken = (await stripe.charges.list({ customer: team?.stripeCustomerId as string, limit: 100 })).data;
  const charge = taken.find((c) => c.metadata.purpose === purpose && c.status === 'succeeded');
  if (!charge) throw new Error('the renewal charge was not taken');
  // Taken, and nothing credited for it.
  expect(await monthCredits(teamId, month)).toEqual([]);
  return { month, purpose, chargeId: charge.id, cents: charge.amount };
}

/** A member whose activation is cut off after Stripe took their joining charge: pending, nothing credited. */
async function joinCutOffAfterCharge(manager: SignedIn, teamId: string, budget: number) {
  const email = uniqueEmail('emp');
  const invited = await send('POST', '/invitations', manager.accessToken, { emails: email, budget });
  expect(invited.status, JSON.stringify(invited.body)).toBe(200);
  // The member as sign-up creates them; their activation is what is cut off.
  const userId = await createInvitedMember(email, teamId, budget * 100, {
    firstName: 'Bea',
    lastName: 'Late',
  });
  proxy.fail({ when: 'after', match: chargesFor(`JOIN#${userId}`) });
  await expect(activateEmployee(userId, new Date(), log)).rejects.toThrow();
  proxy.clear();
  expect(await stack.getItem(keys.user(userId))).toMatchObject({ fundingPending: true });
  expect(await balanceOf(cardAccount(userId))).toBe(0);
  return userId;
}

/** The card leg of each of the month's renewal credits, with the charge it names. */
async function monthCredits(teamId: string, month: string) {
  return (await teamJournal(teamId))
    .filter((e) => e.entryId.startsWith(`FUNDING#${teamId}#`) && e.entryId.endsWith(`#${month}`))
    .map((e) => ({
      entryId: e.entryId,
      cents: e.legs.find((l) => l.account.startsWith('card:'))?.amountCents,
      charge: e.references?.charge,
    }))
    .sort((a, b) => (a.entryId < b.entryId ? -1 : 1));
}

function expectedCredits(teamId: string, month: string, chargeId: string, people: [SignedIn, number][]) {
  return people
    .map(([person, cents]) => ({
      entryId: `FUNDING#${teamId}#${person.userId}#${month}`,
      cents,
      charge: chargeId,
    }))
    .sort((a, b) => (a.entryId < b.entryId ? -1 : 1));
}

async function succeededCharges(customerId: string) {
  const { data } = await stripe.charges.list({ customer: customerId, limit: 100 });
  return data.filter((c) => c.status === 'succeeded');
}

async function closeRefundCents(teamId: string) {
  const { data } = await stripe.refunds.list({ limit: 100 });
  return data
    .filter((r) => String(r.metadata?.purpose).startsWith(`CLOSE#${teamId}#`))
    .reduce((sum, r) => sum + r.amount, 0);
}

const close = (manager: SignedIn, remaining: 'redeem' | 'keep', key = `close-${randomUUID()}`) =>
  send('POST', '/subscription/close', manager.accessToken, { remaining }, key);

/** Reconciliation an hour from now (what was just made is past its settling margin): nothing found for the team. */
async function expectReconciledWithNothingStranded(teamId: string) {
  const at = new Date(Date.now() + 3_600_000);
  const summary = await runReconciliation(at, log);
  expect(summary.failed).toBe(0);
  const found = (await differencesOfMonth(monthOfDate(at))).filter((d) => d.teamId === teamId);
  expect(found).toEqual([]);
}

describe('closing while a month is charged but not credited', () => {
  it('credits the month first, so closing redeems it with the rest; the next run charges and credits nothing more', async () => {
    const { manager, teamId, customerId, cycleDay, people, books } = await teamWith(25, 30);
    const [ada, bob] = people as [Employee, Employee];
    const day = cycleDate(cycleDay, 1);
    const taken = await renewalCutOffAfterCharge(teamId, day);
    expect(taken.cents).toBe(5500);
    // The close dialog's figures already count the month closing will credit.
    const preview = await send('GET', '/subscription', manager.accessToken);
    expect(preview.body).toMatchObject({
      remainingCents: 11_000,
      redeemFeeCents: 1650,
      redeemNetCents: 9350,
    });
    expect(preview.body.chargeBeingConfirmed).toBeUndefined();

    const closed = await close(manager, 'redeem');
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);

    // The month is credited once, from the charge it took, by the renewal's own entries.
    expect(await monthCredits(teamId, taken.month)).toEqual(
      expectedCredits(teamId, taken.month, taken.chargeId, [
        [ada, 2500],
        [bob, 3000],
      ]),
    );
    // Closing redeemed the joining money and the month's: $110.00, less the 15 % fee.
    expect(closed.body.closing).toEqual({
      choice: 'redeem',
      amountCents: 11_000,
      feeCents: 1650,
      netCents: 9350,
    });
    expect(await closeRefundCents(teamId)).toBe(9350);
    for (const person of people) expect(await balanceOf(cardAccount(person.userId))).toBe(0);
    expect(await balanceOf(poolAccount(teamId))).toBe(0);
    expect(await stack.getItem(keys.team(teamId))).toMatchObject({
      subscription: 'closed',
      lastRenewedMonth: taken.month,
      cycleAttempt: { month: taken.month, status: 'funded', chargeId: taken.chargeId },
    });

    const totals = await books.check('after close', [ada.userId, bob.userId], { everyStatement: true });
    const charged = await succeededCharges(customerId);
    expect(totals).toMatchObject({ charged: 11_000, redeemed: 9350, fees: 1650, internal: 0 });
    expect(charged.reduce((sum, c) => sum + c.amount, 0)).toBe(totals.charged);

    // The job's retry day finds the month done and the team closed.
    const run = await monthlyFunding({ time: new Date(day.getTime() + DAY_MS).toISOString() });
    expect(run.status).toBe('done');
    expect((await succeededCharges(customerId)).map((c) => c.id).sort()).toEqual(
      charged.map((c) => c.id).sort(),
    );
    expect(await monthCredits(teamId, taken.month)).toHaveLength(2);
    await books.check('after the next run', [ada.userId, bob.userId]);
    await expectReconciledWithNothingStranded(teamId);
  });

  it('a close cut off after the credits is finished by its retry under the same Idempotency-Key; kept, the month stays in the pool', async () => {
    const { manager, teamId, cycleDay, people, books } = await teamWith(25);
    const [ada] = people as [Employee];
    const taken = await renewalCutOffAfterCharge(teamId, cycleDate(cycleDay, 2));

    // The issuer is out as the first card is cancelled: the close stops there.
    proxy.fail({
      when: 'before',
      match: (r) =>
        r.method === 'POST' &&
        r.path === `/v1/issuing/cards/${ada.cardId}` &&
        r.body.includes('status=canceled'),
    });
    const key = `close-${randomUUID()}`;
    const cutOff = await close(manager, 'keep', key);
    expect(cutOff.status).toBe(500);
    proxy.clear();
    // The month was credited before any card was touched.
    expect(await balanceOf(cardAccount(ada.userId))).toBe(2 * 2500);

    const retried = await close(manager, 'keep', key);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.closing).toEqual({ choice: 'keep', amountCents: 5000, feeCents: 0, netCents: 0 });
    expect(await monthCredits(teamId, taken.month)).toEqual(
      expectedCredits(teamId, taken.month, taken.chargeId, [[ada, 2500]]),
    );
    expect(await balanceOf(cardAccount(ada.userId))).toBe(0);
    expect(await balanceOf(poolAccount(teamId))).toBe(5000);
    expect(await closeRefundCents(teamId)).toBe(0);
    expect((await stripe.issuing.cards.retrieve(ada.cardId)).status).toBe('canceled');

    const totals = await books.check('after the retried close', [ada.userId], { everyStatement: true });
    expect(totals).toMatchObject({ charged: 5000, redeemed: 0, fees: 0, internal: 5000 });
    await expectReconciledWithNothingStranded(teamId);
  });

  it('a close racing the funding job’s retry of the month credits it once and redeems it', async () => {
    const { manager, teamId, customerId, cycleDay, people, books } = await teamWith(25, 25);
    const [ada, bob] = people as [Employee, Employee];
    const day = cycleDate(cycleDay, 3);
    const taken = await renewalCutOffAfterCharge(teamId, day);

    const [closed, run] = await Promise.all([
      close(manager, 'redeem'),
      monthlyFunding({ time: new Date(day.getTime() + DAY_MS).toISOString() }),
    ]);
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(run.status).toBe('done');

    // Whichever posted a credit first, each person's is there once, and the month was charged once.
    expect(await monthCredits(teamId, taken.month)).toEqual(
      expectedCredits(teamId, taken.month, taken.chargeId, [
        [ada, 2500],
        [bob, 2500],
      ]),
    );
    const monthCharges = (await succeededCharges(customerId)).filter(
      (c) => c.metadata.purpose === taken.purpose,
    );
    expect(monthCharges.map((c) => c.id)).toEqual([taken.chargeId]);
    expect(closed.body.closing).toEqual({
      choice: 'redeem',
      amountCents: 10_000,
      feeCents: 1500,
      netCents: 8500,
    });
    expect(await closeRefundCents(teamId)).toBe(8500);
    for (const person of people) expect(await balanceOf(cardAccount(person.userId))).toBe(0);
    expect(await balanceOf(poolAccount(teamId))).toBe(0);

    const totals = await books.check('after the race', [ada.userId, bob.userId], { everyStatement: true });
    expect(totals).toMatchObject({ charged: 10_000, redeemed: 8500, fees: 1500, internal: 0 });
    await expectReconciledWithNothingStranded(teamId);
  });

  it('a joining charge taken but not credited is credited by closing too, and redeemed with the rest', async () => {
    const { manager, teamId, customerId, people, books } = await teamWith(25);
    const [ada] = people as [Employee];
    const bea = await joinCutOffAfterCharge(manager, teamId, 30);
    const preview = await send('GET', '/subscription', manager.accessToken);
    expect(preview.body).toMatchObject({ remainingCents: 5500, redeemFeeCents: 825, redeemNetCents: 4675 });

    const closed = await close(manager, 'redeem');
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);

    const joinCharges = (await succeededCharges(customerId)).filter(
      (c) => c.metadata.purpose === `JOIN#${bea}`,
    );
    expect(joinCharges.map((c) => c.amount)).toEqual([3000]);
    const credit = (await teamJournal(teamId)).find((e) => e.entryId === `JOIN#${bea}`);
    expect(credit?.references?.charge).toBe(joinCharges[0]?.id);
    expect(await stack.getItem(keys.user(bea))).toMatchObject({ fundingPending: false });
    expect(closed.body.closing).toEqual({
      choice: 'redeem',
      amountCents: 5500,
      feeCents: 825,
      netCents: 4675,
    });
    expect(await closeRefundCents(teamId)).toBe(4675);
    expect(await balanceOf(cardAccount(bea))).toBe(0);
    expect(await balanceOf(poolAccount(teamId))).toBe(0);

    const totals = await books.check('after close', [ada.userId, bea], { everyStatement: true });
    expect(totals).toMatchObject({ charged: 5500, redeemed: 4675, fees: 825, internal: 0 });
    await expectReconciledWithNothingStranded(teamId);
  });

  it('while Stripe cannot say whether the month was taken, the screen still opens and says so; once Stripe answers, closing credits it', async () => {
    const { manager, teamId, cycleDay, people, books } = await teamWith(25, 30);
    const [ada, bob] = people as [Employee, Employee];
    const taken = await renewalCutOffAfterCharge(teamId, cycleDate(cycleDay, 1));
    // An outage: Stripe cannot be asked which charges it took.
    proxy.fail({ when: 'before', match: (r) => r.method === 'GET' && r.path.startsWith('/v1/charges') });
    const during = await send('GET', '/subscription', manager.accessToken);
    expect(during.status, JSON.stringify(during.body)).toBe(200);
    // The joining money the ledger holds; the month's $55.00 is not counted, and the screen says why.
    expect(during.body).toMatchObject({ state: 'running', remainingCents: 5500, chargeBeingConfirmed: true });
    proxy.clear();

    const after = await send('GET', '/subscription', manager.accessToken);
    expect(after.body).toMatchObject({ remainingCents: 11_000 });
    expect(after.body.chargeBeingConfirmed).toBeUndefined();
    const closed = await close(manager, 'keep');
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(await monthCredits(teamId, taken.month)).toEqual(
      expectedCredits(teamId, taken.month, taken.chargeId, [
        [ada, 2500],
        [bob, 3000],
      ]),
    );
    expect(await balanceOf(poolAccount(teamId))).toBe(11_000);
    await books.check('after close', [ada.userId, bob.userId], { everyStatement: true });
  });
});
