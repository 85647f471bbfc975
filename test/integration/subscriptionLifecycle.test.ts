/**
 * The subscription's lifecycle (spec §4; docs/decisions.md "Subscription
 * lifecycle"): who is charged and funded in each state across the monthly
 * job, the retry policy that suspends an unpaid team with an e-mail at each
 * step, resuming without catching up, and closing (cards cancelled in the
 * issuer, money redeemed with the fee, records read-only). Real handlers,
 * DynamoDB Local and the Stripe emulator.
 */
import { randomUUID } from 'node:crypto';
import { cardAccount, poolAccount } from '@shared/domain/ledger';
import { PAST_DUE_RETRY_DAYS } from '@shared/domain/subscription';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTeam, setTeamFields, type TeamRecord, teamCycleIndex } from '../../lambdas/src/data/accounts';
import { keys } from '../../lambdas/src/data/keys';
import { balanceOf } from '../../lambdas/src/data/ledger';
import { suspendIfStillUnpaid } from '../../lambdas/src/services/billing';
import { inviteAndRegisterEmployee, type SignedIn } from '../support/accountFlows';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { emulatorClient, joinTeam, sender, setUpTeam } from '../support/teams';

let stack: IntegrationStack;
let stripe: Stripe;
let send: ReturnType<typeof sender>;

beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
  stripe = emulatorClient(stack);
  send = sender(stack);
});
afterAll(async () => {
  await stack?.stop();
});

const DAY = 86_400_000;

/** 06:00 UTC on the team's cycle day next month (the job's hour), clamped to the month's last day. */
function nextCycleDate(cycleDay: number): Date {
  const now = new Date();
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 6));
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(cycleDay, lastDay));
  return next;
}

async function runJob(at: Date) {
  const { handler } = await import('../../lambdas/src/jobs/monthlyFunding');
  const result = await handler({ time: at.toISOString() });
  expect(result.status).toBe('done');
  return result;
}

/** Succeeded and failed charges on the team's Stripe customer. */
async function chargesOf(customerId: string) {
  const list = await stripe.charges.list({ customer: customerId, limit: 100 });
  return {
    succeeded: list.data.filter((c) => c.status === 'succeeded').map((c) => c.amount),
    failed: list.data.filter((c) => c.status === 'failed').length,
  };
}

/** The team's card on file from now on declines every charge (Stripe's 4000 0000 0000 0341). */
async function cardStartsDeclining(customerId: string) {
  const card = await stripe.customers.createSource(customerId, { source: 'tok_chargeCustomerFail' });
  await stripe.customers.update(customerId, { default_source: card.id });
}

type State = 'active' | 'pastDue' | 'suspended' | 'closed';

interface Team {
  state: State;
  manager: SignedIn;
  teamId: string;
  customerId: string;
  cycleDay: number;
  employee: SignedIn & { cardId: string };
}

/** A team with one employee funded $30 at joining, then put in `state` the way a manager or a bank would. */
async function teamIn(state: State): Promise<Team> {
  const { manager, teamId, customerId, cycleDay } = await setUpTeam(stack);
  const employee = await joinTeam(stack, manager, 30);
  if (state === 'pastDue') await cardStartsDeclining(customerId);
  if (state === 'suspended') {
    const res = await send('POST', '/subscription/suspend', manager.accessToken);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  if (state === 'closed') {
    const res = await send(
      'POST',
      '/subscription/close',
      manager.accessToken,
      { remaining: 'keep' },
      `close-${randomUUID()}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  return { state, manager, teamId, customerId, cycleDay, employee };
}

describe('who is charged and funded in each state, across the monthly job', () => {
  // One row per state: the renewal's charge and credit, an extra deposit, and /me's teamStatus after.
  const table: {
    state: State;
    renewalCharged: boolean;
    renewalDeclined: boolean;
    fundedCents: number;
    deposit: number | 'declined';
    teamStatus: string;
  }[] = [
    {
      state: 'active',
      renewalCharged: true,
      renewalDeclined: false,
      fundedCents: 6000,
      deposit: 200,
      teamStatus: 'active',
    },
    {
      state: 'pastDue',
      renewalCharged: false,
      renewalDeclined: true,
      fundedCents: 3000,
      deposit: 'declined',
      teamStatus: 'pastDue',
    },
    {
      state: 'suspended',
      renewalCharged: false,
      renewalDeclined: false,
      fundedCents: 3000,
      deposit: 409,
      teamStatus: 'suspended',
    },
    // Closing kept the money in the pool: the cancelled card holds nothing.
    {
      state: 'closed',
      renewalCharged: false,
      renewalDeclined: false,
      fundedCents: 0,
      deposit: 409,
      teamStatus: 'closed',
    },
  ];
  const teams = new Map<State, Team>();

  beforeAll(async () => {
    for (const row of table) teams.set(row.state, await teamIn(row.state));
    // Every team was set up today, so they all renew on the same day: one run of the job decides them all.
    await runJob(nextCycleDate((teams.get('active') as Team).cycleDay));
  });

  it.each(table)('$state: renewal charged $renewalCharged, employee holds $fundedCents', async (row) => {
    const team = teams.get(row.state) as Team;
    const charges = await chargesOf(team.customerId);
    // The joining charge is always there; the renewal adds a second $30 only for a running, paying team.
    expect(charges.succeeded.sort((a, b) => a - b)).toEqual(row.renewalCharged ? [3000, 3000] : [3000]);
    expect(charges.failed > 0).toBe(row.renewalDeclined);
    expect(await balanceOf(cardAccount(team.employee.userId))).toBe(row.fundedCents);
    const me = await send('GET', '/me', team.manager.accessToken);
    expect(me.body.teamStatus).toBe(row.teamStatus);
  });

  it.each(table)('$state: an extra deposit answers $deposit', async (row) => {
    const team = teams.get(row.state) as Team;
    const res = await send(
      'POST',
      '/funds/deposit',
      team.manager.accessToken,
      { userIds: [team.employee.userId], amount: 5 },
      `dep-${randomUUID()}`,
    );
    if (row.deposit === 'declined') {
      expect(res.status).toBe(200);
      expect(res.body.results[0].status).toBe('declined');
    } else expect(res.status, JSON.stringify(res.body)).toBe(row.deposit);
  });

  it('suspended: a member who joins is not charged or funded until the resume', async () => {
    const team = teams.get('suspended') as Team;
    const before = (await chargesOf(team.customerId)).succeeded.length;
    const member = await inviteAndRegisterEmployee(stack.apiUrl, team.manager, 20, {
      mailbox: stack.mailbox,
    });
    expect(await stack.getItem(keys.user(member.userId))).toMatchObject({ fundingPending: true });
    expect((await chargesOf(team.customerId)).succeeded).toHaveLength(before);

    const resumed = await send('POST', '/subscription/resume', team.manager.accessToken);
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect(resumed.body.state).toBe('running');
    expect(await balanceOf(cardAccount(member.userId))).toBe(2000);
    const mails = await stack.mailbox.to(team.manager.email);
    expect(mails.map((m) => m.subject)).toEqual(
      expect.arrayContaining(['Your subscription is suspended', 'Your subscription is active again']),
    );
  });
});

describe('a past-due team that stays unpaid', () => {
  it(`is retried daily for ${PAST_DUE_RETRY_DAYS} days, e-mailed at each step, then suspended and charged no more`, async () => {
    const team = await teamIn('active');
    await cardStartsDeclining(team.customerId);
    const cycle = nextCycleDate(team.cycleDay);
    // A day after the other describe's run, so the job's once-a-day claim is this test's.
    const first = new Date(cycle.getTime() + 20 * DAY);
    // Renewals are looked for in the 7 days back from each run: move this team's cycle day onto `first`.
    await setTeamFields(team.teamId, {
      cycleDay: first.getUTCDate(),
      ...teamCycleIndex(first.getUTCDate(), team.teamId),
    });

    for (let day = 0; day <= PAST_DUE_RETRY_DAYS + 1; day++) {
      await runJob(new Date(first.getTime() + day * DAY));
    }
    const { failed, succeeded } = await chargesOf(team.customerId);
    // The first try and 6 retries, then nothing on the day after.
    expect(failed).toBe(PAST_DUE_RETRY_DAYS + 1);
    expect(succeeded).toEqual([3000]);
    expect(await stack.getItem(keys.team(team.teamId))).toMatchObject({
      status: 'pastDue',
      subscription: 'suspended',
      suspendedBy: 'unpaid',
    });
    const subjects = (await stack.mailbox.to(team.manager.email)).map((m) => m.subject);
    expect(subjects).toEqual(
      expect.arrayContaining([
        'Your card was declined: learning budgets are not funded',
        ...Array.from(
          { length: PAST_DUE_RETRY_DAYS - 1 },
          (_, i) => `Payment retry ${i + 1} of ${PAST_DUE_RETRY_DAYS} declined`,
        ),
        'Your subscription is suspended: the payment stayed unpaid',
      ]),
    );
    expect(subjects.filter((s) => s.startsWith('Payment retry'))).toHaveLength(PAST_DUE_RETRY_DAYS - 1);
    expect((await send('GET', '/subscription', team.manager.accessToken)).body).toMatchObject({
      state: 'suspended',
      suspendedBy: 'unpaid',
    });
  });
});

describe('a past-due team whose renewal failed half-way on its last retry day', () => {
  it('is not suspended while the renewal is in flight (our failure, maybe after the charge); a declined one is', async () => {
    const team = await teamIn('active');
    const at = new Date(Date.now() + 40 * DAY);
    const pastDueSince = new Date(at.getTime() - (PAST_DUE_RETRY_DAYS + 1) * DAY).toISOString();
    const month = at.toISOString().slice(0, 7);
    const attempt = {
      month,
      key: `CYCLE#${team.teamId}#${month}#2`,
      n: 2,
      purpose: `CYCLE#${team.teamId}#${month}`,
    };
    for (const status of ['pending', 'charged'] as const) {
      await setTeamFields(team.teamId, {
        status: 'pastDue',
        pastDueSince,
        cycleAttempt: { ...attempt, status },
      });
      const stored = (await getTeam(team.teamId)) as TeamRecord;
      expect(await suspendIfStillUnpaid(stored, at), status).toBe(false);
      expect(await stack.getItem(keys.team(team.teamId))).not.toHaveProperty('subscription');
    }
    await setTeamFields(team.teamId, { cycleAttempt: { ...attempt, status: 'declined' } });
    const declined = (await getTeam(team.teamId)) as TeamRecord;
    expect(await suspendIfStillUnpaid(declined, at)).toBe(true);
    expect(await stack.getItem(keys.team(team.teamId))).toMatchObject({ subscription: 'suspended' });
  });
});

describe('the next charge', () => {
  it('shows the billing day, the next charge date and the expected total, which the funding job then charges', async () => {
    const team = await teamIn('active');
    await joinTeam(stack, team.manager, 20);
    const paused = await joinTeam(stack, team.manager, 10);
    const pause = await send('POST', '/employees/pause', team.manager.accessToken, {
      userIds: [paused.userId],
      action: 'pause',
    });
    expect(pause.status, JSON.stringify(pause.body)).toBe(200);
    // Next cycle's budget counts, not this one's.
    const raise = await send('PUT', `/users/${team.employee.userId}`, team.manager.accessToken, {
      userId: team.employee.userId,
      firstName: 'Eddie',
      lastName: 'Employee',
      budget: 45,
    });
    expect(raise.status, JSON.stringify(raise.body)).toBe(200);

    // Invited, not joined: not in the charge, said apart.
    const invite = await send('POST', '/invitations', team.manager.accessToken, {
      emails: `later-${crypto.randomUUID().slice(0, 8)}@example.com`,
      budget: 40,
    });
    expect(invite.status, JSON.stringify(invite.body)).toBe(200);

    const cycle = nextCycleDate(team.cycleDay);
    const before = await send('GET', '/subscription', team.manager.accessToken);
    expect(before.body.billing).toEqual({
      cycleDay: team.cycleDay,
      nextChargeDate: cycle.toISOString().slice(0, 10),
      employees: 2,
      expectedTotalCents: 4500 + 2000,
      invited: 1,
      invitedMonthlyCents: 4000,
    });

    // That day's renewal (the job's, called directly: other tests here have claimed the day's run) charges exactly that.
    const { renewTeam, monthOfDate } = await import('../../lambdas/src/services/billing/renewals');
    const { createLogger } = await import('../../lambdas/src/platform/log');
    const fresh = (await stack.getItem(keys.team(team.teamId))) as never;
    expect(await renewTeam(fresh, monthOfDate(cycle), cycle, createLogger(), cycle)).toBe('funded');
    expect((await chargesOf(team.customerId)).succeeded).toContain(6500);
    const after = await send('GET', '/subscription', team.manager.accessToken);
    const following = nextCycleDate(team.cycleDay);
    following.setUTCDate(1);
    following.setUTCMonth(following.getUTCMonth() + 1);
    const lastDay = new Date(
      Date.UTC(following.getUTCFullYear(), following.getUTCMonth() + 1, 0),
    ).getUTCDate();
    following.setUTCDate(Math.min(team.cycleDay, lastDay));
    expect(after.body.billing.nextChargeDate).toBe(following.toISOString().slice(0, 10));

    // Suspended: no charge is coming.
    await send('POST', '/subscription/suspend', team.manager.accessToken);
    expect((await send('GET', '/subscription', team.manager.accessToken)).body.billing).toBeUndefined();
  });
});

describe('resuming', () => {
  it('does not charge the month whose cycle day fell while suspended; the next one is charged', async () => {
    const team = await teamIn('suspended');
    const { resumeSubscription } = await import('../../lambdas/src/services/billing/subscription');
    const { createLogger } = await import('../../lambdas/src/platform/log');
    const { renewTeam, monthOfDate } = await import('../../lambdas/src/services/billing/renewals');
    const cycle = nextCycleDate(team.cycleDay);
    const fresh = async () => (await stack.getItem(keys.team(team.teamId))) as never;
    expect(await renewTeam(await fresh(), monthOfDate(cycle), cycle, createLogger(), cycle)).toBe('nothing');
    // Resumed two days after that cycle day: its retries skip it.
    const actor = {
      userId: team.manager.userId,
      email: team.manager.email,
      role: 'manager' as const,
      teamId: team.teamId,
      status: 'active' as const,
      emailVerified: true,
    };
    await resumeSubscription(actor, new Date(cycle.getTime() + 2 * DAY), createLogger());
    const retry = new Date(cycle.getTime() + 3 * DAY);
    expect(await renewTeam(await fresh(), monthOfDate(cycle), retry, createLogger(), cycle)).toBe('nothing');
    expect((await chargesOf(team.customerId)).succeeded).toEqual([3000]);
    // The month after: charged and funded as usual.
    const following = new Date(
      Date.UTC(cycle.getUTCFullYear(), cycle.getUTCMonth() + 1, cycle.getUTCDate(), 6),
    );
    expect(await renewTeam(await fresh(), monthOfDate(following), following, createLogger(), following)).toBe(
      'funded',
    );
    expect(await balanceOf(cardAccount(team.employee.userId))).toBe(6000);
  });
});

describe('closing', () => {
  it('cancels every card in the issuer and our records, redeems what is left with the fee, and keeps the records readable', async () => {
    const { manager, teamId, customerId } = await setUpTeam(stack);
    const one = await joinTeam(stack, manager, 30);
    const two = await joinTeam(stack, manager, 20);
    const invited = `pending-${randomUUID()}@example.com`;
    expect(
      (await send('POST', '/invitations', manager.accessToken, { emails: invited, budget: '25' })).status,
    ).toBe(200);

    const preview = await send('GET', '/subscription', manager.accessToken);
    expect(preview.body).toMatchObject({
      state: 'running',
      remainingCents: 5000,
      redeemFeeCents: 750,
      redeemNetCents: 4250,
      cardsToCancel: 2,
    });

    const key = `close-${randomUUID()}`;
    const closed = await send(
      'POST',
      '/subscription/close',
      manager.accessToken,
      { remaining: 'redeem' },
      key,
    );
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body).toMatchObject({
      state: 'closed',
      closing: { choice: 'redeem', amountCents: 5000, feeCents: 750, netCents: 4250 },
    });
    // The same request again replays; a new one finds the close done and answers the same.
    const again = await send(
      'POST',
      '/subscription/close',
      manager.accessToken,
      { remaining: 'redeem' },
      `c-${randomUUID()}`,
    );
    expect(again.body.closing).toEqual(closed.body.closing);

    for (const employee of [one, two]) {
      expect((await stripe.issuing.cards.retrieve(employee.cardId)).status).toBe('canceled');
      expect(await stack.getItem(keys.card(employee.cardId))).toMatchObject({ status: 'canceled' });
      expect(await balanceOf(cardAccount(employee.userId))).toBe(0);
    }
    expect(await balanceOf(poolAccount(teamId))).toBe(0);
    const refunds = await stripe.refunds.list({ limit: 100 });
    const ours = refunds.data.filter((r) => String(r.metadata?.purpose).startsWith(`CLOSE#${teamId}`));
    expect(ours.reduce((s, r) => s + r.amount, 0)).toBe(4250);
    // Refunds return money; no new charge was made.
    expect((await chargesOf(customerId)).succeeded.sort((a, b) => a - b)).toEqual([2000, 3000]);

    // Nobody new joins: the pending invitation is withdrawn.
    expect(await stack.getItem(keys.invitation(invited))).toBeUndefined();

    // Read-only: every write refused with the reason; reads go on.
    const invite = await send('POST', '/invitations', manager.accessToken, {
      emails: 'x@example.com',
      budget: '25',
    });
    expect(invite.status).toBe(409);
    expect(invite.body.error.message).toMatch(/subscription is closed/);
    expect((await send('POST', '/subscription/suspend', manager.accessToken)).status).toBe(409);
    expect(
      (
        await send('POST', '/employees/pause', manager.accessToken, {
          userIds: [one.userId],
          action: 'pause',
        })
      ).status,
    ).toBe(409);
    for (const path of ['/purchases', '/team/audit', '/team/ledger', '/employees', '/subscription']) {
      expect((await send('GET', path, manager.accessToken)).status, path).toBe(200);
    }
    const statement = await send('GET', '/me/statement', one.accessToken);
    expect(statement.status).toBe(200);
    // The card's money left for the pool because the team closed: not "removed", not "dormant".
    const words = JSON.stringify(statement.body);
    expect(words).toContain('Balance moved to the team pool when the subscription closed');
    expect(words).not.toMatch(/removed employee|dormant employee/);
    expect((await send('GET', '/me', one.accessToken)).body.teamStatus).toBe('closed');

    const mails = await stack.mailbox.to(manager.email);
    const mail = mails.find((m) => m.subject === 'Your subscription is closed');
    expect(mail?.body.text).toContain('2 cards were cancelled');
    expect(mail?.body.text).toContain('$42.50 is refunded');
  });

  it('refuses to redeem under $5 before anything changes, and closes with nothing left whichever the choice', async () => {
    const small = await setUpTeam(stack);
    await joinTeam(stack, small.manager, 4);
    const refused = await send(
      'POST',
      '/subscription/close',
      small.manager.accessToken,
      { remaining: 'redeem' },
      `c-${randomUUID()}`,
    );
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toMatch(/under \$5/);
    expect(await stack.getItem(keys.team(small.teamId))).not.toHaveProperty('subscription');

    const empty = await setUpTeam(stack);
    const res = await send(
      'POST',
      '/subscription/close',
      empty.manager.accessToken,
      { remaining: 'redeem' },
      `c-${randomUUID()}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.closing).toMatchObject({ amountCents: 0, feeCents: 0 });
  });
});
