/**
 * The monthly funding job with several teams renewed at once and card limits
 * set a few at a time (jobs/monthlyFunding.ts, services/billing/renewals.ts), and its
 * time budget: a run that is running out of time leaves whole teams, and the
 * next day's run renews them once, for the month of their cycle day. Real
 * handlers, DynamoDB Local and the Stripe emulator through the real SDK.
 *
 * Every team here is set up today, so all renew on the same cycle day; each
 * test takes its own month, and the summary counts cover every team of the file.
 * A month missed altogether (no run in its retry window) is renewed late.
 */

import { cardAccount } from '@shared/domain/ledger';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTeamFields } from '../../lambdas/src/data/accounts';
import { keys } from '../../lambdas/src/data/keys';
import { balanceOf, teamJournal } from '../../lambdas/src/data/ledger';
import {
  handler as monthlyFunding,
  RETRY_DAYS,
  TEAM_CONCURRENCY,
} from '../../lambdas/src/jobs/monthlyFunding';
import { CARD_CALL_CONCURRENCY, monthOfDate } from '../../lambdas/src/services/billing';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { emulatorClient, joinTeam, setUpTeam } from '../support/teams';

const DAY_MS = 86_400_000;
// More teams than renew at once, and more employees in one team than card calls at once.
const TEAMS = TEAM_CONCURRENCY + 2;
const BIG_TEAM_EMPLOYEES = CARD_CALL_CONCURRENCY + 1;

interface Member {
  userId: string;
  cardId: string;
  cents: number;
}
interface Team {
  teamId: string;
  customerId: string;
  cycleDay: number;
  members: Member[];
}

let stack: IntegrationStack;
let stripe: Stripe;
let teams: Team[];

beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
  stripe = emulatorClient(stack);
  teams = await Promise.all(
    Array.from({ length: TEAMS }, async (_, t): Promise<Team> => {
      const { manager, teamId, customerId, cycleDay } = await setUpTeam(stack);
      const members: Member[] = [];
      // Joined one after another, as a manager's invitations are accepted.
      for (let e = 0; e < (t === 0 ? BIG_TEAM_EMPLOYEES : 2); e++) {
        const dollars = 10 + t + e;
        const joined = await joinTeam(stack, manager, dollars);
        members.push({ userId: joined.userId, cardId: joined.cardId, cents: dollars * 100 });
      }
      return { teamId, customerId, cycleDay, members };
    }),
  );
}, 180_000);
afterAll(async () => {
  await stack?.stop();
});

/** 06:00 UTC on the teams' cycle day, `monthsAhead` months from now (29-31 clamp to short months). */
function cycleDate(monthsAhead: number): Date {
  const cycleDay = teams[0]?.cycleDay as number;
  const now = new Date();
  const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + monthsAhead, 1, 6));
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(cycleDay, lastDay));
  return date;
}

/** Lambda's context as the runtime hands it over: `startsAllowed` checks see plenty of time, then too little. */
function runningOutAfter(startsAllowed: number) {
  let checks = 0;
  return { getRemainingTimeInMillis: () => (checks++ < startsAllowed ? 240_000 : 50_000) };
}

async function runJob(at: Date, context?: { getRemainingTimeInMillis(): number }) {
  const run = await monthlyFunding({ time: at.toISOString() }, context);
  expect(run.status).toBe('done');
  return (run as { summary: Record<string, number> }).summary;
}

const totalOf = (team: Team) => team.members.reduce((s, m) => s + m.cents, 0);

/** Each team's renewal charges for `month`: exactly one, for all its employees. */
async function expectOneChargeEach(month: string) {
  for (const team of teams) {
    const { data } = await stripe.charges.list({ customer: team.customerId, limit: 100 });
    const cycle = data.filter((c) => c.metadata.purpose === `CYCLE#${team.teamId}#${month}`);
    expect(
      cycle.map((c) => [c.amount, c.status]),
      team.teamId,
    ).toEqual([[totalOf(team), 'succeeded']]);
  }
}

/** Each employee's credits for `month`: exactly one, their budget, against their team's charge. */
async function expectOneCreditEach(month: string) {
  for (const team of teams) {
    const credits = (await teamJournal(team.teamId)).filter((e) => e.entryId.endsWith(`#${month}`));
    expect(credits.map((e) => e.entryId).sort()).toEqual(
      team.members.map((m) => `FUNDING#${team.teamId}#${m.userId}#${month}`).sort(),
    );
    for (const entry of credits) {
      const member = team.members.find((m) => entry.entryId.includes(`#${m.userId}#`)) as Member;
      expect(entry.legs.find((l) => l.account === cardAccount(member.userId))?.amountCents).toBe(
        member.cents,
      );
    }
    expect(await stack.getItem(keys.team(team.teamId))).toMatchObject({
      status: 'active',
      lastRenewedMonth: month,
      cycleAttempt: { month, status: 'funded', totalCents: totalOf(team) },
    });
  }
}

/** Every card holds its joining credit and `renewals` monthly ones, and the issuer's limit says the same. */
async function expectCardsFunded(renewals: number) {
  for (const team of teams) {
    for (const member of team.members) {
      const credited = member.cents * (1 + renewals);
      expect(await balanceOf(cardAccount(member.userId))).toBe(credited);
      const card = await stripe.issuing.cards.retrieve(member.cardId);
      expect(card.spending_controls.spending_limits).toEqual([
        expect.objectContaining({ amount: credited, interval: 'all_time' }),
      ]);
    }
  }
}

describe('monthly funding with teams renewed at once', () => {
  it('funds every team once: one charge per team, one credit and one card limit per employee', async () => {
    const day = cycleDate(1);
    const month = monthOfDate(day);
    const summary = await runJob(day);
    expect(summary).toMatchObject({ teamsFunded: TEAMS, teamsFailed: 0, teamsDeclined: 0, teamsLeft: 0 });
    expect(summary.joinRetriesLeft).toBe(0);
    await expectOneChargeEach(month);
    await expectOneCreditEach(month);
    await expectCardsFunded(1);
  });

  it('one team’s failure among the others stops none of them; the next day renews it once', async () => {
    const day = cycleDate(2);
    const month = monthOfDate(day);
    const [broken] = teams as [Team];
    // Its Stripe customer cannot be found: the charge fails (an error, not a decline).
    await setTeamFields(broken.teamId, { stripeCustomerId: 'cus_gone' });
    const summary = await runJob(day);
    expect(summary).toMatchObject({ teamsFunded: TEAMS - 1, teamsFailed: 1, teamsLeft: 0 });
    expect(await stack.getItem(keys.team(broken.teamId))).toMatchObject({
      lastRenewedMonth: monthOfDate(cycleDate(1)),
      cycleAttempt: { month, status: 'pending', totalCents: totalOf(broken) },
    });

    await setTeamFields(broken.teamId, { stripeCustomerId: broken.customerId });
    const nextDay = await runJob(new Date(day.getTime() + DAY_MS));
    expect(nextDay).toMatchObject({ teamsFunded: 1, teamsFailed: 0, teamsLeft: 0 });
    await expectOneChargeEach(month);
    await expectOneCreditEach(month);
    await expectCardsFunded(2);
  });

  it('near its timeout a run starts no more teams; the next day renews those left, once, for their cycle day’s month', async () => {
    const day = cycleDate(3);
    const month = monthOfDate(day);
    const summary = await runJob(day, runningOutAfter(2));
    // Two teams started; the others, and every team's pending-join check, wait for the next run.
    expect(summary).toMatchObject({
      teamsFunded: 2,
      teamsFailed: 0,
      teamsLeft: TEAMS - 2,
      joinRetriesLeft: TEAMS,
    });
    const renewed = [];
    for (const team of teams) {
      const record = await stack.getItem(keys.team(team.teamId));
      if (record?.lastRenewedMonth === month) renewed.push(team.teamId);
      // A team left was not started at all: no plan stored for the month.
      else expect((record?.cycleAttempt as { month?: string } | undefined)?.month).not.toBe(month);
    }
    expect(renewed).toHaveLength(2);

    // The next day is another month when the cycle day is a month's last: the credits keep the cycle day's.
    const nextDay = await runJob(new Date(day.getTime() + DAY_MS));
    expect(nextDay).toMatchObject({
      teamsFunded: TEAMS - 2,
      teamsFailed: 0,
      teamsLeft: 0,
      joinRetriesLeft: 0,
    });
    await expectOneChargeEach(month);
    await expectOneCreditEach(month);
    await expectCardsFunded(3);
  });

  it('a month whose every retry day passed without a run is renewed late, once, for its cycle day’s month', async () => {
    const day = cycleDate(4);
    const month = monthOfDate(day);
    // No run on the cycle day nor on any of its retry days (an outage, say): the first run after is 9 days late.
    const late = new Date(day.getTime() + (RETRY_DAYS + 2) * DAY_MS);
    const summary = await runJob(late);
    expect(summary).toMatchObject({
      teamsFunded: TEAMS,
      teamsRenewedLate: TEAMS,
      teamsFailed: 0,
      teamsLeft: 0,
    });
    await expectOneChargeEach(month);
    await expectOneCreditEach(month);
    await expectCardsFunded(4);

    const nextDay = await runJob(new Date(late.getTime() + DAY_MS));
    expect(nextDay).toMatchObject({ teamsFunded: 0, teamsRenewedLate: 0 });
    await expectOneChargeEach(month);
  });
});
