/**
 * Funding that went wrong half-way, and how it is finished: a renewal cut off
 * after its charge, one team's failure among many, a joining charge cut off
 * before its credit, and joins declined until the card is fixed. Real handlers,
 * DynamoDB Local and the Stripe emulator. Failures are made by a small network
 * proxy between the product and the emulator, as a flaky network would: it
 * refuses a request (an outage) or lets Stripe do it and loses the answer (a
 * timeout). Nothing in the product is replaced.
 */
import { randomUUID } from 'node:crypto';
import { cardAccount } from '@shared/domain/ledger';
import type Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../lambdas/src/data/keys';
import { balanceOf, teamJournal } from '../../lambdas/src/data/ledger';
import { handler as monthlyFunding } from '../../lambdas/src/jobs/monthlyFunding';
import { createLogger } from '../../lambdas/src/platform/log';
import {
  activateEmployee,
  fundPendingMembers,
  monthOfDate,
  renewTeam,
} from '../../lambdas/src/services/billing';
import { type SignedIn, uniqueEmail } from '../support/accountFlows';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { chargesFor, type FaultProxy, startFaultProxy } from '../support/stripeFaultProxy';
import {
  createInvitedMember,
  emulatorClient,
  joinTeam,
  sender,
  setUpTeam as setUpTeamOn,
} from '../support/teams';

// --- The stack ---------------------------------------------------------------------

let stack: IntegrationStack;
let stripe: Stripe;
let send: ReturnType<typeof sender>;
let proxy: FaultProxy;
const log = createLogger({ test: 'fundingRecovery' });

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

const DAY_MS = 86_400_000;

const setUpTeam = (token?: string) => setUpTeamOn(stack, token);
const join = (manager: SignedIn, budget = 25) => joinTeam(stack, manager, budget);

async function invite(manager: SignedIn, budget: number): Promise<string> {
  const email = uniqueEmail('emp');
  const res = await send('POST', '/invitations', manager.accessToken, { emails: email, budget });
  expect(res.status).toBe(200);
  return email;
}

/** 06:00 UTC on the team's cycle day, `monthsAhead` months from now (29-31 clamp to short months). */
function cycleDate(cycleDay: number, monthsAhead: number): Date {
  const now = new Date();
  const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + monthsAhead, 1, 6));
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(cycleDay, lastDay));
  return date;
}

/** The daily job for a day this file has not run yet (a day's run happens once). */
async function runJob(at: Date) {
  const run = await monthlyFunding({ time: at.toISOString() });
  expect(run.status).toBe('done');
  return (run as { summary: Record<string, number> }).summary;
}

async function chargesWithPurpose(customerId: string, purpose: string) {
  const { data } = await stripe.charges.list({ customer: customerId, limit: 100 });
  return data.filter((c) => c.metadata.purpose === purpose).reverse(); // oldest first
}

async function user(userId: string) {
  return stack.getItem(keys.user(userId));
}

/** The card leg of each of the team's journal entries whose id starts with `prefix`. */
async function credits(teamId: string, prefix: string) {
  return (await teamJournal(teamId))
    .filter((e) => e.entryId.startsWith(prefix))
    .map((e) => ({
      entryId: e.entryId,
      cents: e.legs.find((l) => l.account.startsWith('card:'))?.amountCents,
      charge: e.references?.charge,
    }));
}

/** A renewal whose charge Stripe takes but whose answer never arrives: the run ends there. */
async function renewalCutOffAfterCharge(teamId: string, month: string, day: Date) {
  const purpose = `CYCLE#${teamId}#${month}`;
  proxy.fail({ when: 'after', match: chargesFor(purpose) });
  const team = await stack.getItem(keys.team(teamId));
  await expect(renewTeam(team as never, month, day, log)).rejects.toThrow();
  proxy.clear();
  expect(proxy.seen().some(chargesFor(purpose))).toBe(true);
}

// --- Monthly renewal -----------------------------------------------------------------

describe('monthly renewal', () => {
  it('finishes a renewal cut off after its charge with the plan it charged, though people and budgets changed meanwhile', async () => {
    const { manager, teamId, customerId, cycleDay } = await setUpTeam();
    const ada = await join(manager, 25);
    const bob = await join(manager, 25);
    const day = cycleDate(cycleDay, 1);
    const month = monthOfDate(day);
    const purpose = `CYCLE#${teamId}#${month}`;

    // Stripe takes the $50.00 but the answer never arrives.
    await renewalCutOffAfterCharge(teamId, month, day);

    // Before the next day's retry: someone joins (charged on joining), Ada's budget goes up.
    const cy = await join(manager, 25);
    const raised = await send('PUT', `/users/${ada.userId}`, manager.accessToken, {
      firstName: 'Ada',
      lastName: 'Byron',
      budget: 40,
    });
    expect(raised.status).toBe(200);

    const summary = await runJob(new Date(day.getTime() + DAY_MS));

    const charged = await chargesWithPurpose(customerId, purpose);
    expect(charged.map((c) => [c.amount, c.status])).toEqual([[5000, 'succeeded']]);
    // The credits are the plan that was charged: Ada and Bob at $25.00, nobody else.
    const funded = await credits(teamId, `FUNDING#${teamId}#`);
    expect(funded.filter((c) => c.entryId.endsWith(`#${month}`))).toEqual(
      expect.arrayContaining([
        { entryId: `FUNDING#${teamId}#${ada.userId}#${month}`, cents: 2500, charge: charged[0]?.id },
        { entryId: `FUNDING#${teamId}#${bob.userId}#${month}`, cents: 2500, charge: charged[0]?.id },
      ]),
    );
    expect(funded).toHaveLength(2);
    expect(await balanceOf(cardAccount(ada.userId))).toBe(2500 + 2500);
    expect(await balanceOf(cardAccount(cy.userId))).toBe(2500); // their joining charge only
    // Ada's raise is for the next cycle, not the one that was charged.
    expect(await user(ada.userId)).toMatchObject({ budgetCents: 2500, nextBudgetCents: 4000 });
    expect(await stack.getItem(keys.team(teamId))).toMatchObject({
      status: 'active',
      lastRenewedMonth: month,
      cycleAttempt: { month, purpose, status: 'funded', totalCents: 5000 },
    });
    expect(summary.teamsFailed).toBe(0);
  });

  it('a cycle day with nobody to fund renews the month with nothing: who joins later is charged once, on joining', async () => {
    const { manager, teamId, customerId, cycleDay } = await setUpTeam();
    const day = cycleDate(cycleDay, 1);
    const month = monthOfDate(day);
    // Nobody active on the cycle day (an empty team): nothing is charged, and the month is done.
    await runJob(day);
    expect(await stack.getItem(keys.team(teamId))).toMatchObject({ lastRenewedMonth: month });

    // Two days later someone joins: charged and funded on joining, as the spec says.
    const dee = await join(manager, 25);
    // The retry days that follow, and the run after the window, charge the month no more.
    await runJob(new Date(day.getTime() + 3 * DAY_MS));
    await runJob(new Date(day.getTime() + 9 * DAY_MS));
    expect(await chargesWithPurpose(customerId, `CYCLE#${teamId}#${month}`)).toEqual([]);
    expect(await balanceOf(cardAccount(dee.userId))).toBe(2500);
    expect(
      (await credits(teamId, `FUNDING#${teamId}#`)).filter((c) => c.entryId.endsWith(`#${month}`)),
    ).toEqual([]);
  });

  it('a renewal planned after its cycle day leaves out who joined since: they paid on joining and start with the next cycle', async () => {
    const { manager, teamId, customerId, cycleDay } = await setUpTeam();
    const ada = await join(manager, 25);
    const day = cycleDate(cycleDay, 1);
    const month = monthOfDate(day);
    // No run on the cycle day or its retry days (an outage). Two days after it, Bea joins.
    const email = await invite(manager, 30);
    const bea = await createInvitedMember(email, teamId, 3000, {
      firstName: 'Bea',
      lastName: 'Late',
      createdAt: new Date(day.getTime() + 2 * DAY_MS),
    });
    expect(await activateEmployee(bea, new Date(day.getTime() + 2 * DAY_MS), log)).toBe('funded');

    const summary = await runJob(new Date(day.getTime() + 10 * DAY_MS));
    expect(summary.teamsRenewedLate).toBeGreaterThanOrEqual(1);
    // The month's charge is Ada's budget alone; Bea was charged once, on joining.
    const cycle = await chargesWithPurpose(customerId, `CYCLE#${teamId}#${month}`);
    expect(cycle.map((c) => [c.amount, c.status])).toEqual([[2500, 'succeeded']]);
    expect((await chargesWithPurpose(customerId, `JOIN#${bea}`)).map((c) => c.amount)).toEqual([3000]);
    const monthCredits = (await credits(teamId, `FUNDING#${teamId}#`)).filter((c) =>
      c.entryId.endsWith(`#${month}`),
    );
    expect(monthCredits.map((c) => c.entryId)).toEqual([`FUNDING#${teamId}#${ada.userId}#${month}`]);
    expect(await balanceOf(cardAccount(bea))).toBe(3000);
  });

  it('a renewal that took the money before it stopped is credited even after the manager suspends the subscription', async () => {
    const { manager, teamId, customerId, cycleDay } = await setUpTeam();
    const ada = await join(manager, 25);
    const day = cycleDate(cycleDay, 3);
    const month = monthOfDate(day);
    const purpose = `CYCLE#${teamId}#${month}`;
    // Stripe takes the $25.00 but the answer never arrives.
    await renewalCutOffAfterCharge(teamId, month, day);
    // Before the next day's retry the manager suspends: nothing new is charged from now on.
    const suspended = await send('POST', '/subscription/suspend', manager.accessToken);
    expect(suspended.status, JSON.stringify(suspended.body)).toBe(200);

    await runJob(new Date(day.getTime() + DAY_MS));
    // The money taken is credited, once, and nothing more is charged.
    const charged = await chargesWithPurpose(customerId, purpose);
    expect(charged.map((c) => [c.amount, c.status])).toEqual([[2500, 'succeeded']]);
    expect(await credits(teamId, `FUNDING#${teamId}#`)).toEqual([
      { entryId: `FUNDING#${teamId}#${ada.userId}#${month}`, cents: 2500, charge: charged[0]?.id },
    ]);
    expect(await stack.getItem(keys.team(teamId))).toMatchObject({
      subscription: 'suspended',
      lastRenewedMonth: month,
      cycleAttempt: { month, status: 'funded' },
    });
  });

  it('a month left unfinished after its charge is credited before the next month is planned over it', async () => {
    const { manager, teamId, customerId, cycleDay } = await setUpTeam();
    const ada = await join(manager, 25);
    const firstDay = cycleDate(cycleDay, 4);
    const first = monthOfDate(firstDay);
    // Stripe takes the $25.00 but the answer never arrives, and no run finishes it that month.
    await renewalCutOffAfterCharge(teamId, first, firstDay);

    const nextDay = cycleDate(cycleDay, 5);
    const next = monthOfDate(nextDay);
    await runJob(nextDay);

    // Each month charged once and credited once, with its own charge.
    const firstCharges = await chargesWithPurpose(customerId, `CYCLE#${teamId}#${first}`);
    const nextCharges = await chargesWithPurpose(customerId, `CYCLE#${teamId}#${next}`);
    expect(firstCharges.map((c) => [c.amount, c.status])).toEqual([[2500, 'succeeded']]);
    expect(nextCharges.map((c) => [c.amount, c.status])).toEqual([[2500, 'succeeded']]);
    expect(await credits(teamId, `FUNDING#${teamId}#`)).toEqual(
      expect.arrayContaining([
        { entryId: `FUNDING#${teamId}#${ada.userId}#${first}`, cents: 2500, charge: firstCharges[0]?.id },
        { entryId: `FUNDING#${teamId}#${ada.userId}#${next}`, cents: 2500, charge: nextCharges[0]?.id },
      ]),
    );
    expect(await credits(teamId, `FUNDING#${teamId}#`)).toHaveLength(2);
    expect(await balanceOf(cardAccount(ada.userId))).toBe(3 * 2500); // joining and two months
    expect(await stack.getItem(keys.team(teamId))).toMatchObject({
      lastRenewedMonth: next,
      cycleAttempt: { month: next, status: 'funded' },
    });
  });

  it('one team’s failed renewal does not stop the others; the run counts it and the next day finishes it', async () => {
    const first = await setUpTeam();
    const second = await setUpTeam();
    const firstMember = await join(first.manager, 25);
    const secondMember = await join(second.manager, 30);
    // Teams renew in id order: the failing one comes before the other.
    const [failing, healthy] = [
      { ...first, member: firstMember },
      { ...second, member: secondMember },
    ].sort((a, b) => (a.teamId < b.teamId ? -1 : 1)) as [
      typeof first & { member: typeof firstMember },
      typeof first & { member: typeof firstMember },
    ];
    const joinCents = (t: { teamId: string }) => (t.teamId === first.teamId ? 2500 : 3000);
    const day = cycleDate(first.cycleDay, 2);
    const month = monthOfDate(day);

    proxy.fail({ when: 'before', match: chargesFor(`CYCLE#${failing.teamId}#${month}`) });
    const summary = await runJob(day);
    proxy.clear();
    expect(summary.teamsFailed).toBe(1);
    expect(await stack.getItem(keys.team(healthy.teamId))).toMatchObject({ lastRenewedMonth: month });
    const stalled = await stack.getItem(keys.team(failing.teamId));
    expect(stalled?.lastRenewedMonth).toBeUndefined();
    // The plan is stored before the charge, for the retry.
    expect(stalled?.cycleAttempt).toMatchObject({ month, status: 'pending', totalCents: joinCents(failing) });

    const nextDay = await runJob(new Date(day.getTime() + DAY_MS));
    expect(nextDay.teamsFailed).toBe(0);
    expect(await stack.getItem(keys.team(failing.teamId))).toMatchObject({ lastRenewedMonth: month });
    for (const team of [failing, healthy]) {
      expect(await balanceOf(cardAccount(team.member.userId))).toBe(2 * joinCents(team));
      const cycle = await chargesWithPurpose(team.customerId, `CYCLE#${team.teamId}#${month}`);
      expect(cycle.map((c) => [c.amount, c.status])).toEqual([[joinCents(team), 'succeeded']]);
    }
  });
});

// --- Joining ---------------------------------------------------------------------------

describe('joining', () => {
  it('marks the member pending before the charge, so an activation cut off after the charge is funded once by the daily job', async () => {
    const { manager, teamId, customerId } = await setUpTeam();
    const email = await invite(manager, 25);
    // The member as sign-up creates them; their activation is what is cut off here.
    const userId = await createInvitedMember(email, teamId, 2500);

    proxy.fail({ when: 'after', match: chargesFor(`JOIN#${userId}`) });
    await expect(activateEmployee(userId, new Date(), log)).rejects.toThrow();
    proxy.clear();
    // Whatever ran after the charge never ran; the record already says what to retry.
    expect(await user(userId)).toMatchObject({ fundingPending: true });
    expect(await balanceOf(cardAccount(userId))).toBe(0);
    expect((await chargesWithPurpose(customerId, `JOIN#${userId}`)).map((c) => c.status)).toEqual([
      'succeeded',
    ]);

    const summary = await runJob(new Date(Date.now() + DAY_MS));
    expect(summary.joinsFunded).toBeGreaterThanOrEqual(1);
    const charged = await chargesWithPurpose(customerId, `JOIN#${userId}`);
    expect(charged.map((c) => [c.amount, c.status])).toEqual([[2500, 'succeeded']]);
    expect(await credits(teamId, `JOIN#${userId}`)).toEqual([
      { entryId: `JOIN#${userId}`, cents: 2500, charge: charged[0]?.id },
    ]);
    expect(await balanceOf(cardAccount(userId))).toBe(2500);
    expect(await user(userId)).toMatchObject({ fundingPending: false });
  });

  it('retries a declined join under a new Stripe key: the card now on file is charged, not the stored decline replayed', async () => {
    const { manager, teamId, customerId } = await setUpTeam('tok_chargeCustomerFail');
    const member = await join(manager, 25);
    expect(await user(member.userId)).toMatchObject({ fundingPending: true });

    // The card on file is replaced at Stripe itself, well within the 24 h Stripe keeps the decline.
    const working = await stripe.customers.createSource(customerId, { source: 'tok_visa' });
    await stripe.customers.update(customerId, { default_source: working.id });
    await fundPendingMembers(teamId, new Date(), log);

    expect(await balanceOf(cardAccount(member.userId))).toBe(2500);
    const charged = await chargesWithPurpose(customerId, `JOIN#${member.userId}`);
    expect(charged.map((c) => [c.status, (c.source as Stripe.Card).id])).toEqual([
      ['failed', expect.not.stringMatching(working.id)],
      ['succeeded', working.id],
    ]);
    expect(await credits(teamId, `JOIN#${member.userId}`)).toEqual([
      { entryId: `JOIN#${member.userId}`, cents: 2500, charge: charged[1]?.id },
    ]);
  });
});

// --- Declined members are retried ------------------------------------------------------

describe('members whose joining charge was declined', () => {
  it('a card added to a past-due team becomes primary and funds them at once', async () => {
    const { manager, teamId, customerId } = await setUpTeam('tok_chargeCustomerFail');
    const member = await join(manager, 25);
    expect(await stack.getItem(keys.team(teamId))).toMatchObject({ status: 'pastDue' });

    const added = await send(
      'POST',
      '/billing/cards',
      manager.accessToken,
      { token: 'tok_visa' },
      `card-${randomUUID()}`,
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const visa = added.body.cards.find((c: { last4: string }) => c.last4 === '4242');
    expect(added.body.defaultCardId).toBe(visa.id);

    expect(await balanceOf(cardAccount(member.userId))).toBe(2500);
    expect(await user(member.userId)).toMatchObject({ fundingPending: false });
    const charged = await chargesWithPurpose(customerId, `JOIN#${member.userId}`);
    expect(charged.map((c) => [c.status, (c.source as Stripe.Card).id])).toEqual([
      ['failed', expect.anything()],
      ['succeeded', visa.id],
    ]);
    // Nothing is owed any more.
    expect(await stack.getItem(keys.team(teamId))).toMatchObject({ status: 'active' });
  });

  it('making a working card primary funds them; adding a card to a team in good standing keeps its primary', async () => {
    const { manager, customerId } = await setUpTeam('tok_chargeCustomerFail');
    const added = await send(
      'POST',
      '/billing/cards',
      manager.accessToken,
      { token: 'tok_visa' },
      `card-${randomUUID()}`,
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const visa = added.body.cards.find((c: { last4: string }) => c.last4 === '4242');
    expect(added.body.defaultCardId).not.toBe(visa.id);

    const member = await join(manager, 25); // declined on the primary
    expect(await user(member.userId)).toMatchObject({ fundingPending: true });

    const primary = await send('PUT', '/billing/customer', manager.accessToken, { defaultCardId: visa.id });
    expect(primary.status, JSON.stringify(primary.body)).toBe(200);
    expect(primary.body.defaultCardId).toBe(visa.id);
    expect(await balanceOf(cardAccount(member.userId))).toBe(2500);
    const charged = await chargesWithPurpose(customerId, `JOIN#${member.userId}`);
    expect(charged.map((c) => c.status)).toEqual(['failed', 'succeeded']);
  });

  it('the daily job retries them, one team’s failure not stopping the next', async () => {
    const teams = await Promise.all([
      setUpTeam('tok_chargeCustomerFail'),
      setUpTeam('tok_chargeCustomerFail'),
    ]);
    const members = [await join(teams[0].manager, 25), await join(teams[1].manager, 25)];
    // The manager adds a working card during a Stripe outage: it becomes primary, the retry fails.
    for (const team of teams) {
      proxy.fail({ when: 'before', match: chargesFor('JOIN#') });
      const added = await send(
        'POST',
        '/billing/cards',
        team.manager.accessToken,
        { token: 'tok_visa' },
        `card-${randomUUID()}`,
      );
      expect(added.status, JSON.stringify(added.body)).toBe(200);
    }
    proxy.clear();
    for (const member of members) expect(await user(member.userId)).toMatchObject({ fundingPending: true });

    // Teams are retried in id order: the first one's charges still fail, the next one is funded.
    const order = [0, 1].sort((a, b) => ((teams[a]?.teamId ?? '') < (teams[b]?.teamId ?? '') ? -1 : 1));
    const [failingIndex, healthyIndex] = order as [number, number];
    const failing = members[failingIndex] as SignedIn;
    const healthy = members[healthyIndex] as SignedIn;
    proxy.fail({ when: 'before', match: chargesFor(`JOIN#${failing.userId}`) });
    const summary = await runJob(new Date(Date.now() + 2 * DAY_MS));
    proxy.clear();
    expect(summary.joinsFailed).toBe(1);
    expect(await balanceOf(cardAccount(healthy.userId))).toBe(2500);
    expect(await balanceOf(cardAccount(failing.userId))).toBe(0);

    const nextDay = await runJob(new Date(Date.now() + 3 * DAY_MS));
    expect(nextDay.joinsFailed).toBe(0);
    expect(await balanceOf(cardAccount(failing.userId))).toBe(2500);
    for (const [i, member] of members.entries()) {
      const charged = await chargesWithPurpose(teams[i]?.customerId as string, `JOIN#${member.userId}`);
      expect(charged.map((c) => c.status)).toEqual(['failed', 'succeeded']);
    }
  });
});
