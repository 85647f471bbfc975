/**
 * Daily reconciliation against the Stripe emulator and DynamoDB Local: money
 * Stripe moved that the ledger never heard of is found and posted once,
 * through the original flows' own entry ids; a second run posts nothing; what
 * no flow explains is recorded and e-mailed, and the ledger is left alone.
 * Faults are made as they happen: a charge made by the adapter whose ledger
 * write never follows, webhooks not delivered, a refund from the emulator's
 * dashboard.
 */
import { randomUUID } from 'node:crypto';
import { cardAccount, externalAccount, holdAccount, networkAccount } from '@shared/domain/ledger';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { charge } from '../../lambdas/src/adapters/stripe';
import { setTeamFields, setUserFields } from '../../lambdas/src/data/accounts';
import { keys } from '../../lambdas/src/data/keys';
import { balanceOf, getJournal } from '../../lambdas/src/data/ledger';
import { createLogger } from '../../lambdas/src/platform/log';
import { monthOfDate } from '../../lambdas/src/services/billing';
import { runReconciliation } from '../../lambdas/src/services/reconciliation';
import { type SignedIn, uniqueEmail } from '../support/accountFlows';
import {
  type IntegrationStack,
  startIntegrationStack,
  TEST_SUPPORT_INBOX,
  TEST_WEBHOOK_SECRET,
} from '../support/integrationStack';
import { createInvitedMember, emulatorClient, joinTeam, sender, setUpTeam } from '../support/teams';

let stack: IntegrationStack;
let stripe: Stripe;
let send: ReturnType<typeof sender>;
const log = createLogger({ test: 'reconciliation' });

beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
  stripe = emulatorClient(stack);
  send = sender(stack);
});
afterAll(async () => {
  await stack?.stop();
});

/** A run an hour from now: what was just made is past the settling margin. */
const reconcile = () => runReconciliation(new Date(Date.now() + 3_600_000), log);

async function fundedEmployee(budget = 30): Promise<{
  manager: SignedIn;
  teamId: string;
  customerId: string;
  employee: SignedIn & { cardId: string };
}> {
  const team = await setUpTeam(stack);
  const employee = await joinTeam(stack, team.manager, budget);
  return { ...team, employee };
}

describe('charges whose ledger write never happened', () => {
  it('a deposit charged but never credited is credited once, and the request retried later adds nothing', async () => {
    const { manager, teamId, customerId, employee } = await fundedEmployee(30);
    const key = `deposit-${randomUUID()}`;
    const purpose = `DEPOSIT#${key}#${employee.userId}`;
    // The deposit flow's charge, exactly as it makes it, and then no posting (the Lambda died).
    const made = await charge(
      {
        customerId,
        amountCents: 1500,
        description: 'Extra deposit',
        purpose,
        metadata: { teamId, userId: employee.userId, reason: 'deposit' },
      },
      purpose,
    );
    expect(made.status).toBe('succeeded');
    expect(await balanceOf(cardAccount(employee.userId))).toBe(3000);

    const first = await reconcile();
    expect(first.posted).toBeGreaterThanOrEqual(1);
    expect(await balanceOf(cardAccount(employee.userId))).toBe(4500);
    expect((await getJournal(purpose))?.references?.charge).toBe((made as { chargeId: string }).chargeId);

    const second = await reconcile();
    expect(second.posted).toBe(0);
    expect(second.examined).toBeGreaterThanOrEqual(first.examined);

    // The manager's retry of the same request finds the charge and the credit: nothing moves again.
    const retry = await send(
      'POST',
      '/funds/deposit',
      manager.accessToken,
      { userIds: [employee.userId], amount: 1500 },
      key,
    );
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(await balanceOf(cardAccount(employee.userId))).toBe(4500);
    const charges = await stripe.charges.list({ customer: customerId });
    expect(charges.data.map((c) => c.amount).sort()).toEqual([1500, 3000]);
  });

  it('a joining charge cut off before its credit is funded once, by the join flow itself', async () => {
    const { manager, teamId, customerId } = await setUpTeam(stack);
    const email = uniqueEmail('emp');
    expect(
      (await send('POST', '/invitations', manager.accessToken, { emails: email, budget: 25 })).status,
    ).toBe(200);
    const userId = await createInvitedMember(email, teamId, 2500);

    // What activateEmployee stores before charging, then its charge; the Lambda dies before the credit.
    const attempt = { n: 1, key: `JOIN#${userId}#1`, status: 'pending', cents: 2500 };
    await setUserFields(userId, { joinAttempt: attempt, fundingPending: true });
    const made = await charge(
      {
        customerId,
        amountCents: 2500,
        description: 'Learning budget for Ada Byron',
        purpose: `JOIN#${userId}`,
        metadata: { teamId, userId, reason: 'join' },
      },
      attempt.key,
    );
    expect(made.status).toBe('succeeded');
    expect(await balanceOf(cardAccount(userId))).toBe(0);

    await reconcile();
    expect(await balanceOf(cardAccount(userId))).toBe(2500);
    expect(await stack.getItem(keys.user(userId))).toMatchObject({ fundingPending: false });
    expect((await reconcile()).posted).toBe(0);
    expect(await balanceOf(cardAccount(userId))).toBe(2500);
    const charges = await stripe.charges.list({ customer: customerId });
    expect(charges.data.filter((c) => c.metadata?.purpose === `JOIN#${userId}`)).toHaveLength(1);
  });

  it('a renewal charged under its stored plan but cut off before its credits is finished by that plan', async () => {
    const { teamId, customerId, employee } = await fundedEmployee(40);
    const month = monthOfDate(new Date(Date.now() + 40 * 86_400_000));
    const plan = {
      month,
      purpose: `CYCLE#${teamId}#${month}`,
      n: 1,
      key: `CYCLE#${teamId}#${month}#1`,
      status: 'pending' as const,
      members: [{ userId: employee.userId, cents: 4000 }],
      totalCents: 4000,
    };
    // What renewTeam stores before charging, then the charge it makes; the credits never follow.
    await setTeamFields(teamId, { cycleAttempt: plan });
    const made = await charge(
      {
        customerId,
        amountCents: 4000,
        description: `Learning budgets for ${month}`,
        purpose: plan.purpose,
        metadata: { teamId, cycle: month },
      },
      plan.key,
    );
    expect(made.status).toBe('succeeded');

    await reconcile();
    expect(await balanceOf(cardAccount(employee.userId))).toBe(8000);
    expect(await getJournal(`FUNDING#${teamId}#${employee.userId}#${month}`)).toBeDefined();
    const team = await stack.getItem(keys.team(teamId));
    expect(team?.lastRenewedMonth).toBe(month);

    expect((await reconcile()).posted).toBe(0);
    expect(await balanceOf(cardAccount(employee.userId))).toBe(8000);
    expect(await balanceOf(externalAccount(teamId))).toBe(-8000);
  });
});

describe('issuing activity whose webhooks were never delivered', () => {
  it('a capture and a dashboard refund are posted once, and the late webhooks then change nothing', async () => {
    const { teamId, employee } = await fundedEmployee(30);
    const admin = stack.stripe?.admin;
    if (!admin) throw new Error('no emulator');
    admin.setAutoCapture(false);
    const details = admin.cardDetails(employee.cardId);
    const outcome = await admin.authorize({
      number: details.number,
      expMonth: details.exp_month,
      expYear: details.exp_year,
      cvc: details.cvc,
      amount: 1200,
      merchant: { name: 'Powell’s Books', category: 'book_stores' },
    });
    await admin.idle();
    const authorizationId = outcome.authorization?.id as string;
    expect(await balanceOf(holdAccount(employee.userId))).toBe(1200);

    // Webhooks stop reaching us: the capture and the refund happen only at Stripe.
    const eventsBefore = admin.events().length;
    stack.stripe?.setWebhook(undefined, TEST_WEBHOOK_SECRET);
    let captureId: string;
    try {
      captureId = admin.capture(authorizationId).id;
      // The refund button on the emulator's dashboard posts here.
      const res = await fetch(`${stack.stripe?.url}/_emulator/transactions/${captureId}/refund`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 500 }),
      });
      expect(res.status).toBe(200);
      await admin.idle();
    } finally {
      stack.stripe?.setWebhook(`${stack.apiUrl}/webhooks/stripe`, TEST_WEBHOOK_SECRET);
      admin.setAutoCapture(50);
    }
    const missed = admin.events().slice(eventsBefore);
    expect(missed.map((e) => e.type)).toContain('issuing_transaction.created');
    expect(await balanceOf(cardAccount(employee.userId))).toBe(1800);

    const first = await reconcile();
    expect(first.posted).toBeGreaterThanOrEqual(2);
    expect(await getJournal(`CAPTURE#${captureId}`)).toBeDefined();
    expect(await balanceOf(holdAccount(employee.userId))).toBe(0);
    expect(await balanceOf(cardAccount(employee.userId))).toBe(2300);
    expect(await balanceOf(networkAccount(teamId))).toBe(700);

    expect((await reconcile()).posted).toBe(0);
    // The webhooks arrive after all: every posting is a duplicate.
    await admin.deliver(missed.map((e) => e.id));
    await admin.idle();
    expect(await balanceOf(cardAccount(employee.userId))).toBe(2300);
    expect(await balanceOf(holdAccount(employee.userId))).toBe(0);
    expect(await balanceOf(networkAccount(teamId))).toBe(700);
  });
});

describe('differences no flow explains', () => {
  it('are recorded and e-mailed to operations once, and the ledger is not "fixed"', async () => {
    const { teamId, customerId, employee } = await fundedEmployee(30);
    // Someone charges the manager in Stripe's dashboard, and refunds part of the joining charge there.
    const stray = await stripe.charges.create({ customer: customerId, amount: 777, currency: 'usd' });
    const joinCharge = (await stripe.charges.list({ customer: customerId })).data.find(
      (c) => c.metadata?.purpose === `JOIN#${employee.userId}`,
    );
    const strayRefund = await stripe.refunds.create({ charge: joinCharge?.id as string, amount: 300 });

    const first = await reconcile();
    expect(first.differences).toBeGreaterThanOrEqual(2);
    for (const id of [stray.id, strayRefund.id]) {
      const item = await stack.getItem(keys.reconDifference(id));
      expect(item?.teamId ?? teamId).toBe(teamId);
      expect(item?.kind).toBe(id === stray.id ? 'unknownCharge' : 'unknownRefund');
    }
    expect(await balanceOf(externalAccount(teamId))).toBe(-3000);
    expect(await balanceOf(cardAccount(employee.userId))).toBe(3000);
    const reports = (await stack.mailbox.to(TEST_SUPPORT_INBOX)).filter((m) =>
      m.body.text?.includes(stray.id),
    );
    expect(reports).toHaveLength(1);
    expect(reports[0]?.body.text).toContain(strayRefund.id);

    const second = await reconcile();
    expect(second.posted).toBe(0);
    expect(second.differences).toBe(0);
    const again = (await stack.mailbox.to(TEST_SUPPORT_INBOX)).filter((m) => m.body.text?.includes(stray.id));
    expect(again).toHaveLength(1);
    expect(await balanceOf(externalAccount(teamId))).toBe(-3000);
  });
});
