/**
 * Money velocity limits (docs/decisions.md "Money velocity limits"): a team's
 * extra deposits and redemptions per UTC day are capped; operations set a
 * team's caps with `npm run ops -- set-limits` (run here as an operator runs
 * it); a request over the cap is refused with the cap named and nothing is
 * charged or refunded; two concurrent deposits cannot both pass; the deposit
 * dialog's preview shows the total the card will be charged.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { cardAccount, poolAccount } from '@shared/domain/ledger';
import type Stripe from 'stripe';
import StripeSdk from 'stripe';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { balanceOf, teamJournal } from '../../lambdas/src/data/ledger';
import { forgetStepUps } from '../support/authenticator';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { holdClock, releaseClock } from '../support/productClock';
import { emulatorClient, joinTeam, sender, setUpTeam } from '../support/teams';

const run = promisify(execFile);

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

/** The operator's command, as typed (the table from TABLE_NAME in the environment). */
async function ops(...args: string[]) {
  try {
    const { stdout, stderr } = await run(resolve('node_modules/.bin/tsx'), ['scripts/ops.ts', ...args], {
      env: process.env,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function chargeCount(customerId: string): Promise<number> {
  return (await stripe.charges.list({ customer: customerId, limit: 100 })).data.length;
}

describe('daily deposit limit', () => {
  it('refuses a deposit above the limit with the limit named, and charges nothing', async () => {
    const team = await setUpTeam(stack);
    const a = await joinTeam(stack, team.manager, 25);
    const b = await joinTeam(stack, team.manager, 25);
    const token = team.manager.accessToken;

    // The default, until operations change it.
    const body = { userIds: [a.userId, b.userId], amount: 60 };
    const before = await send('POST', '/funds/deposit/preview', token, body);
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    expect(before.body).toMatchObject({ totalCents: 12000, dailyLimitCents: 2_000_000 });

    // $150.00, of which the two invitations' $50.00 a month counted today (issue 24, attack 2).
    const set = await ops('set-limits', '--team', team.teamId, '--deposit-daily', '150');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('daily deposit limit: $150.00');

    const charges = await chargeCount(team.customerId);
    const journal = (await teamJournal(team.teamId)).length;
    const preview = await send('POST', '/funds/deposit/preview', token, body);
    expect(preview.status).toBe(422);
    expect(preview.body.error).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      message: "This would exceed your team's daily deposit limit of $150.00. $100.00 of it is left today.",
    });
    const refused = await send('POST', '/funds/deposit', token, body, `d-${randomUUID()}`);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      message: "This would exceed your team's daily deposit limit of $150.00. $100.00 of it is left today.",
    });
    // Nothing charged, nothing credited.
    expect(await chargeCount(team.customerId)).toBe(charges);
    expect((await teamJournal(team.teamId)).length).toBe(journal);
    expect(await balanceOf(cardAccount(a.userId))).toBe(2500);

    // Within the limit: the preview's total is what is charged, and today's room shrinks by it.
    const one = { userIds: [a.userId], amount: 60 };
    const shown = await send('POST', '/funds/deposit/preview', token, one);
    expect(shown.body).toMatchObject({
      totalCents: 6000,
      dailyLimitCents: 15000,
      remainingTodayCents: 10000,
    });
    const made = await send('POST', '/funds/deposit', token, one, `d-${randomUUID()}`);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(await chargeCount(team.customerId)).toBe(charges + 1);
    expect(await balanceOf(cardAccount(a.userId))).toBe(8500);
    const after = await send('POST', '/funds/deposit/preview', token, { userIds: [b.userId], amount: 40 });
    expect(after.body).toMatchObject({ totalCents: 4000, remainingTodayCents: 4000 });
    const over = await send(
      'POST',
      '/funds/deposit',
      token,
      { userIds: [b.userId], amount: 41 },
      `d-${randomUUID()}`,
    );
    expect(over.status).toBe(422);
    // What would still go through today is said with the refusal.
    expect(over.body.error.message).toBe(
      "This would exceed your team's daily deposit limit of $150.00. $40.00 of it is left today.",
    );
    expect(await chargeCount(team.customerId)).toBe(charges + 1);

    const shows = await ops('show-limits', '--team', team.teamId);
    expect(shows.stdout).toContain('daily redemption limit: $10,000.00 (default)');
  });

  it('holds under concurrency: of concurrent deposits that each fit but not together, one passes', async () => {
    const team = await setUpTeam(stack);
    const a = await joinTeam(stack, team.manager, 25);
    expect((await ops('set-limits', '--team', team.teamId, '--deposit-daily', '100')).code).toBe(0);
    const charges = await chargeCount(team.customerId);
    const body = { userIds: [a.userId], amount: 60 };
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        send('POST', '/funds/deposit', team.manager.accessToken, body, `c-${randomUUID()}`),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 422, 422]);
    expect(await chargeCount(team.customerId)).toBe(charges + 1);
    expect(await balanceOf(cardAccount(a.userId))).toBe(2500 + 6000);
  });

  it('a retried deposit (same Idempotency-Key) is counted once', async () => {
    const team = await setUpTeam(stack);
    const a = await joinTeam(stack, team.manager, 25);
    // $125.00, of which the invitation's $25.00 counted today.
    expect((await ops('set-limits', '--team', team.teamId, '--deposit-daily', '125')).code).toBe(0);
    const key = `r-${randomUUID()}`;
    const body = { userIds: [a.userId], amount: 60 };
    expect((await send('POST', '/funds/deposit', team.manager.accessToken, body, key)).status).toBe(200);
    expect((await send('POST', '/funds/deposit', team.manager.accessToken, body, key)).status).toBe(200);
    const room = await send('POST', '/funds/deposit/preview', team.manager.accessToken, {
      userIds: [a.userId],
      amount: 1,
    });
    expect(room.body.remainingTodayCents).toBe(4000);
  });

  it('attack 4: an Idempotency-Key used again a day later is counted again against the limit', async () => {
    const team = await setUpTeam(stack);
    const [a, b, c] = [
      await joinTeam(stack, team.manager, 25),
      await joinTeam(stack, team.manager, 25),
      await joinTeam(stack, team.manager, 25),
    ];
    expect((await ops('set-limits', '--team', team.teamId, '--deposit-daily', '100')).code).toBe(0);
    const key = `reused-${randomUUID()}`;
    expect(
      (
        await send(
          'POST',
          '/funds/deposit',
          team.manager.accessToken,
          { userIds: [a.userId], amount: 1 },
          key,
        )
      ).status,
    ).toBe(200);

    // A day and an hour on: the key's record has expired, and it is another limit day.
    holdClock(new Date(Date.now() + 25 * 3600 * 1000));
    onTestFinished(releaseClock);
    const charges = await chargeCount(team.customerId);
    const reused = await send(
      'POST',
      '/funds/deposit',
      team.manager.accessToken,
      { userIds: [b.userId, c.userId], amount: 60 },
      key,
    );
    expect(reused.status, JSON.stringify(reused.body)).toBe(422);
    expect(reused.body.error.code).toBe('LIMIT_EXCEEDED');
    expect(await chargeCount(team.customerId)).toBe(charges);
  });

  it('attack 6: deposits under the step-up threshold ask for a factor once the day passes it', async () => {
    const team = await setUpTeam(stack);
    const a = await joinTeam(stack, team.manager, 25);
    await forgetStepUps(team.manager.userId);
    const part = { userIds: [a.userId], amount: 300 };
    const first = await send(
      'POST',
      '/funds/deposit',
      team.manager.accessToken,
      part,
      `part-${randomUUID()}`,
    );
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const charges = await chargeCount(team.customerId);
    // $300 today already: another $300 takes the day past the $500 threshold.
    const second = await send(
      'POST',
      '/funds/deposit',
      team.manager.accessToken,
      part,
      `part-${randomUUID()}`,
    );
    expect(second.status).toBe(403);
    expect(second.body.error.code).toBe('STEP_UP_REQUIRED');
    expect(await chargeCount(team.customerId)).toBe(charges);
  });

  it('gives a declined charge back to the day', async () => {
    const team = await setUpTeam(stack);
    const a = await joinTeam(stack, team.manager, 25);
    const token = team.manager.accessToken;
    // $125.00, of which the invitation's $25.00 counted today.
    expect((await ops('set-limits', '--team', team.teamId, '--deposit-daily', '125')).code).toBe(0);
    // A card that attaches but declines every charge becomes the primary.
    const url = new URL(stack.stripe?.url as string);
    const browser = new StripeSdk('pk_test_limits', { host: url.hostname, port: url.port, protocol: 'http' });
    const card = await browser.tokens.create({
      card: { number: '4000000000000341', exp_month: '12', exp_year: '2031', cvc: '123' },
    } as Stripe.TokenCreateParams);
    const added = await send('POST', '/billing/cards', token, { token: card.id }, `card-${card.id}`);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const declining = added.body.cards.find((c: { id: string }) => c.id !== added.body.defaultCardId);
    const primary = await send('PUT', '/billing/customer', token, { defaultCardId: declining.id });
    expect(primary.status, JSON.stringify(primary.body)).toBe(200);

    const body = { userIds: [a.userId], amount: 60 };
    const declined = await send('POST', '/funds/deposit', token, body, `d-${randomUUID()}`);
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    expect(declined.body.results).toEqual([
      expect.objectContaining({ userId: a.userId, status: 'declined' }),
    ]);
    const room = await send('POST', '/funds/deposit/preview', token, body);
    expect(room.body.remainingTodayCents).toBe(10000);
  });

  it('operations refuse a wrong command and an unknown team, and --default restores the defaults', async () => {
    const team = await setUpTeam(stack);
    expect((await ops('set-limits', '--team', team.teamId)).code).toBe(2);
    expect((await ops('set-limits', '--team', team.teamId, '--deposit-daily', '12.50')).code).toBe(2);
    expect((await ops('set-limits', '--team', 'no-such-team', '--deposit-daily', '5')).code).toBe(2);
    expect((await ops('set-limits', '--team', team.teamId, '--redemption-daily', '7')).code).toBe(0);
    const reset = await ops('set-limits', '--team', team.teamId, '--default');
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toContain('daily redemption limit: $10,000.00 (default)');
  });
});

describe('daily redemption limit', () => {
  it('refuses a redemption above the limit with the limit named, and refunds nothing', async () => {
    const team = await setUpTeam(stack);
    const leaving = await joinTeam(stack, team.manager, 40);
    const token = team.manager.accessToken;
    const del = await send('POST', '/employees/delete', token, { userIds: [leaving.userId] });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect((await ops('set-limits', '--team', team.teamId, '--redemption-daily', '30')).code).toBe(0);

    const body = { deletedUserIds: [leaving.userId] };
    const message =
      "This would exceed your team's daily redemption limit of $30.00. $30.00 of it is left today.";
    // $40.00 less the $6.00 fee: $34.00 back to the card, above $30.00.
    const preview = await send('POST', '/funds/redeem/preview', token, body);
    expect(preview.status).toBe(422);
    expect(preview.body.error).toMatchObject({ code: 'LIMIT_EXCEEDED', message });
    const refused = await send('POST', '/funds/redeem', token, body, `x-${randomUUID()}`);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'LIMIT_EXCEEDED', message });
    expect(await balanceOf(poolAccount(team.teamId))).toBe(4000);
    expect(
      (await stripe.refunds.list({ limit: 100 })).data.filter((r) => r.metadata?.teamId === team.teamId),
    ).toEqual([]);

    expect((await ops('set-limits', '--team', team.teamId, '--redemption-daily', '34')).code).toBe(0);
    const redeemed = await send('POST', '/funds/redeem', token, body, `x-${randomUUID()}`);
    expect(redeemed.status, JSON.stringify(redeemed.body)).toBe(200);
    expect(await balanceOf(poolAccount(team.teamId))).toBe(0);
  });
});
