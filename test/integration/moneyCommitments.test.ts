/**
 * New monthly commitments (issue 24, attack 2; services/money/commitments.ts):
 * inviting people and raising budgets commit the team's card every month, so a
 * day's commitments count against the team's daily deposit limit (refused in
 * the deposit's words) and, with what was moved today, against the step-up
 * threshold; and no money moves for someone who joined until they verify
 * their e-mail.
 */
import { randomUUID } from 'node:crypto';
import { cardAccount } from '@shared/domain/ledger';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getInvitation, setTeamFields } from '../../lambdas/src/data/accounts';
import { keys } from '../../lambdas/src/data/keys';
import { balanceOf, teamJournal } from '../../lambdas/src/data/ledger';
import { createLogger } from '../../lambdas/src/platform/log';
import {
  fundPendingMembers,
  monthOfDate,
  type RenewableTeam,
  renewTeam,
} from '../../lambdas/src/services/billing';
import {
  api,
  inviteAndRegisterEmployee,
  linkToken,
  PASSWORD,
  registerManager,
  uniqueEmail,
} from '../support/accountFlows';
import { forgetStepUps } from '../support/authenticator';
import { type IntegrationStack, postJson, startIntegrationStack } from '../support/integrationStack';
import { emulatorClient, joinTeam, sender, setUpTeam } from '../support/teams';

let stack: IntegrationStack;
let send: ReturnType<typeof sender>;
let stripe: Stripe;

beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
  send = sender(stack);
  stripe = emulatorClient(stack);
});
afterAll(async () => {
  await stack?.stop();
});

const log = createLogger({ test: 'moneyCommitments' });

async function chargeCount(customerId: string): Promise<number> {
  return (await stripe.charges.list({ customer: customerId, limit: 100 })).data.length;
}

const refusedWith = (limit: string, left: string) =>
  `This would exceed your team's daily deposit limit of ${limit}. ${left}`;

describe('new monthly commitments count against the daily deposit limit', () => {
  it('attack 2: 60 invitations at $10,000 a month are refused in the deposit limit’s words, and none is stored', async () => {
    const team = await setUpTeam(stack);
    const token = team.manager.accessToken;
    const emails = Array.from({ length: 60 }, () => uniqueEmail('attacker'));

    const refused = await send('POST', '/invitations', token, { emails, budget: 10_000 });
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expect(refused.body.error).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      message: refusedWith('$20,000.00', '$20,000.00 of it is left today.'),
    });
    for (const email of emails) expect(await getInvitation(email, true)).toBeUndefined();
    expect(await stack.mailbox.to(emails[0] as string)).toEqual([]);

    // What fits goes through, and fills the day for deposits too (one counter, one limit).
    const two = await send('POST', '/invitations', token, { emails: emails.slice(0, 2), budget: 10_000 });
    expect(two.status, JSON.stringify(two.body)).toBe(200);
    expect(two.body.results.map((r: { result: string }) => r.result)).toEqual(['invited', 'invited']);
    const none = refusedWith('$20,000.00', 'None of it is left today; it starts again at 00:00 UTC.');
    const third = await send('POST', '/invitations', token, { emails: emails.slice(2, 3), budget: 25 });
    expect(third.status).toBe(422);
    expect(third.body.error.message).toBe(none);
    const preview = await send('POST', '/funds/deposit/preview', token, {
      userIds: [team.manager.userId],
      amount: 1,
    });
    expect(preview.body).toMatchObject({ dailyLimitCents: 2_000_000, remainingTodayCents: 0 });

    // Inviting the same people again at the same budget commits nothing new, so it is not refused.
    const again = await send('POST', '/invitations', token, { emails: emails.slice(0, 2), budget: 10_000 });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.results.map((r: { result: string }) => r.result)).toEqual(['reinvited', 'reinvited']);
  });

  it('attack 2: a budget raise counts what it adds, a decrease frees nothing, and the setup wizard’s invitations count too', async () => {
    const team = await setUpTeam(stack);
    const token = team.manager.accessToken;
    const member = await joinTeam(stack, team.manager, 25);
    // $1,000.00 a day for this team; its $25.00 invitation already counted today.
    await setTeamFields(team.teamId, { dailyDepositLimitCents: 100_000 });

    const raise = await send('PUT', `/users/${member.userId}`, token, {
      firstName: 'Eddie',
      lastName: 'Employee',
      budget: 900,
    });
    expect(raise.status, JSON.stringify(raise.body)).toBe(200);
    expect(raise.body.nextBudgetCents).toBe(90_000);
    // $25 + $875 committed: $100 left.
    const room = await send('POST', '/funds/deposit/preview', token, { userIds: [member.userId], amount: 1 });
    expect(room.body.remainingTodayCents).toBe(10_000);

    const lower = await send('PUT', `/users/${member.userId}`, token, {
      firstName: 'Eddie',
      lastName: 'Employee',
      budget: 25,
    });
    expect(lower.status).toBe(200);
    const raisedAgain = await send('PUT', `/users/${member.userId}`, token, {
      firstName: 'Eddie',
      lastName: 'Employee',
      budget: 900,
    });
    expect(raisedAgain.status, JSON.stringify(raisedAgain.body)).toBe(422);
    expect(raisedAgain.body.error).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      message: refusedWith('$1,000.00', '$100.00 of it is left today.'),
    });
    expect(await stack.getItem(keys.user(member.userId))).toMatchObject({ nextBudgetCents: 2500 });
    // A raise within what is left goes through; a name change alone commits nothing.
    expect(
      (
        await send('PUT', `/users/${member.userId}`, token, {
          firstName: 'Eddie',
          lastName: 'Employee',
          budget: 125,
        })
      ).status,
    ).toBe(200);
    expect(
      (await send('PUT', `/users/${member.userId}`, token, { firstName: 'Ed', lastName: 'Employee' })).status,
    ).toBe(200);

    // The setup wizard refuses its invitations before it creates anything (a retry would find the
    // team set up and the invitations never sent).
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const setup = await send(
      'POST',
      '/billing/setup',
      manager.accessToken,
      {
        businessName: 'Acme Learning LLC',
        token: 'tok_visa',
        billingAddress: { address1: '500 Congress Ave', city: 'Austin', state: 'tx', zip: '78701' },
        invite: { emails: Array.from({ length: 3 }, () => uniqueEmail('wizard')), budget: 10_000 },
      },
      `setup-${randomUUID()}`,
    );
    expect(setup.status, JSON.stringify(setup.body)).toBe(422);
    expect(setup.body.error.message).toBe(refusedWith('$20,000.00', '$20,000.00 of it is left today.'));
    const me = await send('GET', '/me', manager.accessToken);
    expect(me.body.teamStatus).toBe('setup');
  });

  it('attack 2: above the step-up threshold, what is moved and committed today needs a fresh factor', async () => {
    const team = await setUpTeam(stack);
    const token = team.manager.accessToken;
    const member = await joinTeam(stack, team.manager, 25);
    // Signed in long ago, as far as step-up knows.
    await forgetStepUps(team.manager.userId);

    // $25 + $400 committed today: under $500.
    const first = await send('POST', '/invitations', token, { emails: uniqueEmail('a'), budget: 400 });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    // Another $100 takes the day past it.
    const second = uniqueEmail('b');
    const asked = await send('POST', '/invitations', token, { emails: second, budget: 100 });
    expect(asked.status, JSON.stringify(asked.body)).toBe(403);
    expect(asked.body.error.code).toBe('STEP_UP_REQUIRED');
    expect(await getInvitation(second, true)).toBeUndefined();
    // So do a budget raise and a deposit: commitments and money moved count together.
    const raise = await send('PUT', `/users/${member.userId}`, token, {
      firstName: 'Eddie',
      lastName: 'Employee',
      budget: 200,
    });
    expect(raise.status).toBe(403);
    expect(raise.body.error.code).toBe('STEP_UP_REQUIRED');
    expect(await stack.getItem(keys.user(member.userId))).toMatchObject({ nextBudgetCents: 2500 });
    const charges = await chargeCount(team.customerId);
    const deposit = await send(
      'POST',
      '/funds/deposit',
      token,
      { userIds: [member.userId], amount: 100 },
      `d-${randomUUID()}`,
    );
    expect(deposit.status).toBe(403);
    expect(await chargeCount(team.customerId)).toBe(charges);
    // What commits nothing new asks for nothing: a decrease, the same invitation sent again.
    expect(
      (
        await send('PUT', `/users/${member.userId}`, token, {
          firstName: 'Eddie',
          lastName: 'Employee',
          budget: 20,
        })
      ).status,
    ).toBe(200);

    const proved = await api(stack.apiUrl, 'POST', '/auth/stepUp', { token, body: { password: PASSWORD } });
    expect(proved.status, JSON.stringify(proved.body)).toBe(200);
    const retried = await send('POST', '/invitations', token, { emails: second, budget: 100 });
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(await getInvitation(second, true)).toMatchObject({ budgetCents: 10_000 });
  });
});

describe('joining waits for the e-mail to be verified', () => {
  it('attack 2: a joiner who has not verified gets no card, no money and no charge until they verify', async () => {
    const team = await setUpTeam(stack);
    const charges = await chargeCount(team.customerId);
    const entries = (await teamJournal(team.teamId)).length;
    const joiner = await inviteAndRegisterEmployee(stack.apiUrl, team.manager, 40);

    const record = await stack.getItem(keys.user(joiner.userId));
    expect(record).toMatchObject({ status: 'active', emailVerified: false });
    expect(record?.cardId).toBeUndefined();
    expect(record?.joinAttempt).toBeUndefined();
    expect(await chargeCount(team.customerId)).toBe(charges);
    expect(await balanceOf(cardAccount(joiner.userId))).toBe(0);

    // Nothing that funds pending members, nor the next month's renewal, moves money for them.
    await fundPendingMembers(team.teamId, new Date(), log);
    const nextMonth = new Date();
    nextMonth.setUTCMonth(nextMonth.getUTCMonth() + 1, Math.min(team.cycleDay, 28));
    const teamRecord = (await stack.getItem(keys.team(team.teamId))) as unknown as RenewableTeam;
    await renewTeam(teamRecord, monthOfDate(nextMonth), nextMonth, log);
    expect(await chargeCount(team.customerId)).toBe(charges);
    expect(await balanceOf(cardAccount(joiner.userId))).toBe(0);
    expect((await teamJournal(team.teamId)).length).toBe(entries);
    const listed = await send('GET', '/employees', team.manager.accessToken);
    expect(listed.body.employees.find((e: { userId: string }) => e.userId === joiner.userId)).toMatchObject({
      cardStatus: 'pending',
      remainingBudgetCents: 0,
    });

    // Verifying is when they join: charged, issued a card, funded.
    const link = await linkToken(stack.mailbox, joiner.email, '/verify');
    expect((await postJson(`${stack.apiUrl}/auth/verifyEmail`, { token: link })).status).toBe(200);
    expect(await chargeCount(team.customerId)).toBe(charges + 1);
    expect(await balanceOf(cardAccount(joiner.userId))).toBe(4000);
    expect((await stack.getItem(keys.user(joiner.userId)))?.cardId).toMatch(/^ic_/);
  });
});
