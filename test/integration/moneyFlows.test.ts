/**
 * The money core end to end: real handlers, DynamoDB Local, cognito-local and
 * the Stripe emulator driven through the real SDK. No mocks, no shortcuts:
 * money enters only as charges posted to the ledger.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { cardAccount, debtAccount, poolAccount } from '@shared/domain/ledger';
import { monthInWords } from '@shared/domain/monthWords';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../lambdas/src/data/keys';
import { balanceOf, statement, teamJournal } from '../../lambdas/src/data/ledger';
import { openPoolClaim } from '../../lambdas/src/data/poolClaims';
import { pooledFrom } from '../../lambdas/src/services/money';
import type { SignedIn } from '../support/accountFlows';
import { BOOKSHOP, payWithCard } from '../support/cardNetwork';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { emulatorClient, joinTeam, sender, setUpTeam as setUpTeamOn } from '../support/teams';

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

const setUpTeam = (token?: string) => setUpTeamOn(stack, token);
const join = (manager: SignedIn, budget = 30) => joinTeam(stack, manager, budget);

const pay = (cardId: string, cents: number, merchant = BOOKSHOP) =>
  payWithCard(stack, cardId, cents, merchant);

describe('a manager adds a card, an employee joins and is charged, issued and funded in one flow', () => {
  it('charges the budget to the team’s card, issues an active virtual card and credits it', async () => {
    const { manager, teamId } = await setUpTeam();
    const employee = await join(manager, 30);
    expect(employee.cardId).toMatch(/^ic_/);

    const balance = await send('GET', '/me/balance', employee.accessToken);
    expect(balance.body).toMatchObject({ availableCents: 3000, onHoldCents: 0, cardStatus: 'active' });

    const team = await stack.getItem(keys.team(teamId));
    const charges = await stripe.charges.list({ customer: team?.stripeCustomerId as string });
    expect(charges.data.map((c) => [c.amount, c.status])).toEqual([[3000, 'succeeded']]);

    const card = await stripe.issuing.cards.retrieve(employee.cardId);
    expect(card.status).toBe('active');
    // The backstop mirrors the ledger: the card can never spend more than it was given.
    expect(card.spending_controls.spending_limits).toEqual([
      expect.objectContaining({ amount: 3000, interval: 'all_time' }),
    ]);
    expect(card.spending_controls.allowed_categories).toContain('book_stores');

    const journal = await teamJournal(teamId);
    expect(journal.map((e) => e.entryId)).toEqual([`JOIN#${employee.userId}`]);
  });

  it('keeps the employee pending, marks the team past due and e-mails the manager when the card is declined', async () => {
    const { manager, teamId } = await setUpTeam('tok_chargeCustomerFail');
    const employee = await join(manager, 25);
    expect(await stack.getItem(keys.user(employee.userId))).toMatchObject({ fundingPending: true });
    expect(await stack.getItem(keys.team(teamId))).toMatchObject({ status: 'pastDue' });
    expect(await balanceOf(cardAccount(employee.userId))).toBe(0);
    const mails = await stack.mailbox.to(manager.email);
    expect(mails.some((m) => m.subject.includes('declined'))).toBe(true);
  });
});

describe('purchases at the card network', () => {
  it('approves under the balance, declines over it with the reason, and the balance follows', async () => {
    const { manager } = await setUpTeam();
    const employee = await join(manager, 30);

    const ok = await pay(employee.cardId, 1200);
    expect(ok?.approved).toBe(true);
    const after = await send('GET', '/me/balance', employee.accessToken);
    expect(after.body).toMatchObject({ availableCents: 1800, onHoldCents: 0 });
    const purchases = (await stack.queryIndex('gsi2', `USER#${employee.userId}`)).filter(
      (i) => i.entity === 'Purchase',
    );
    expect(purchases).toEqual([expect.objectContaining({ amountCents: 1200, receiptStatus: 'awaiting' })]);

    // The issuer's backstop (all-time limit = everything funded) catches this before asking us;
    // we still record the decline with the reason the employee is shown.
    const tooMuch = await pay(employee.cardId, 2500);
    expect(tooMuch?.approved).toBe(false);
    const decision = await stack.getItem(keys.authorization(tooMuch?.authorization?.id as string));
    expect(decision).toMatchObject({ approved: false, reason: '$25.00 is above your $18.00 balance.' });

    const casino = await pay(employee.cardId, 100, {
      name: 'Lucky Casino',
      category: 'betting_casino_gambling',
    });
    expect(casino?.approved).toBe(false);

    expect((await send('GET', '/me/balance', employee.accessToken)).body.availableCents).toBe(1800);
  });

  it('a manager’s freeze declines purchases until the card is activated again', async () => {
    const { manager } = await setUpTeam();
    const employee = await join(manager, 30);
    const freeze = await send('POST', '/employees/cardStatus', manager.accessToken, {
      userIds: [employee.userId],
      status: 'inactive',
    });
    expect(freeze.body.results).toEqual([{ userId: employee.userId, status: 'inactive' }]);
    expect((await stripe.issuing.cards.retrieve(employee.cardId)).status).toBe('inactive');
    const listed = await send('GET', '/employees', manager.accessToken);
    expect(listed.body.employees.find((e: { userId: string }) => e.userId === employee.userId)).toMatchObject(
      {
        cardStatus: 'inactive',
        remainingBudgetCents: 3000,
      },
    );
    expect((await pay(employee.cardId, 100))?.approved).toBe(false);
    await send('POST', '/employees/cardStatus', manager.accessToken, {
      userIds: [employee.userId],
      status: 'active',
    });
    expect((await pay(employee.cardId, 100))?.approved).toBe(true);
  });

  it('shows the card in the issuer’s frame only with the ephemeral key minted for its owner', async () => {
    const { manager } = await setUpTeam();
    const employee = await join(manager, 30);
    const key = await send('POST', '/me/cardKey', employee.accessToken, {});
    expect(key.status).toBe(200);
    const frame = await fetch(key.body.frameUrl);
    const html = await frame.text();
    const number = stack.stripe?.admin.cardDetails(employee.cardId).number as string;
    expect(html.replace(/\s/g, '')).toContain(number);
    const forged = await fetch(
      key.body.frameUrl.replace(/ephemeral_key=[^&]+/, 'ephemeral_key=ek_test_forged'),
    );
    expect(forged.status).toBe(403);
    // Our API never answers with the number.
    expect(JSON.stringify(key.body)).not.toContain(number);
  });
});

describe('deposits, idempotency and the monthly cycle', () => {
  it('an extra deposit is charged once per Idempotency-Key; another body with the same key is refused', async () => {
    const { manager, teamId } = await setUpTeam();
    const employee = await join(manager, 25);
    const key = `deposit-${randomUUID()}`;
    const body = { userIds: [employee.userId], amount: '$10' };
    const first = await send('POST', '/funds/deposit', manager.accessToken, body, key);
    const again = await send('POST', '/funds/deposit', manager.accessToken, body, key);
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const other = await send('POST', '/funds/deposit', manager.accessToken, { ...body, amount: 20 }, key);
    expect(other.status).toBe(409);
    expect(await balanceOf(cardAccount(employee.userId))).toBe(3500);
    const team = await stack.getItem(keys.team(teamId));
    const charges = await stripe.charges.list({ customer: team?.stripeCustomerId as string });
    expect(charges.data.map((c) => c.amount).sort()).toEqual([1000, 2500]);
    const missingKey = await send('POST', '/funds/deposit', manager.accessToken, body);
    expect(missingKey.status).toBe(400);
  });

  it('renews each cycle once: next month’s budget, paused employees skipped, a second run charges nothing', async () => {
    const { manager, teamId } = await setUpTeam();
    const active = await join(manager, 25);
    const paused = await join(manager, 25);
    await send('PUT', `/users/${active.userId}`, manager.accessToken, {
      firstName: 'Ada',
      lastName: 'Byron',
      budget: 40,
    });
    await send('POST', '/employees/pause', manager.accessToken, {
      userIds: [paused.userId],
      action: 'pause',
    });

    const team = await stack.getItem(keys.team(teamId));
    const cycleDay = Number(team?.cycleDay);
    const now = new Date();
    const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 6));
    const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
    next.setUTCDate(Math.min(cycleDay, lastDay));
    const { handler } = await import('../../lambdas/src/jobs/monthlyFunding');
    const { renewTeam } = await import('../../lambdas/src/services/billing/renewals');
    const { createLogger } = await import('../../lambdas/src/platform/log');

    const first = await handler({ time: next.toISOString() });
    expect(first.status).toBe('done');
    expect((await handler({ time: next.toISOString() })).status).toBe('skipped');
    // Even called directly again, later that month, the team is not charged twice.
    const fresh = await stack.getItem(keys.team(teamId));
    expect(
      await renewTeam(
        fresh as never,
        next.toISOString().slice(0, 7),
        new Date(next.getTime() + 86_400_000),
        createLogger(),
      ),
    ).toBe('nothing');

    expect(await balanceOf(cardAccount(active.userId))).toBe(2500 + 4000);
    expect(await balanceOf(cardAccount(paused.userId))).toBe(2500);
    const charges = await stripe.charges.list({ customer: team?.stripeCustomerId as string });
    expect(charges.data.map((c) => c.amount).sort((a, b) => a - b)).toEqual([2500, 2500, 4000]);
    // The month in words, where the ledger keeps it and where the employee and the bank read it.
    const month = monthInWords(next.toISOString().slice(0, 7));
    const credits = (await statement(cardAccount(active.userId))).filter((l) => l.kind === 'funding');
    expect(credits.map((l) => l.description)).toContain(`Learning budget for ${month}`);
    const mine = await send('GET', '/me/statement', active.accessToken);
    expect(mine.body.lines[0]).toMatchObject({
      label: 'Credit',
      description: `Learning budget for ${month}`,
    });
    expect(charges.data.find((c) => c.amount === 4000)?.description).toBe(
      `Learning budgets for ${month} (1 employee)`,
    );
  });
});

describe('captures above the hold', () => {
  it('records the excess as debt and collects it from the next credit', async () => {
    const { manager } = await setUpTeam();
    const employee = await join(manager, 30);
    stack.stripe?.admin.setAutoCapture(false);
    try {
      const auth = await pay(employee.cardId, 1000);
      expect(auth?.approved).toBe(true);
      await stack.stripe?.admin.capture(auth?.authorization?.id as string, 1200);
      await stack.stripe?.admin.idle();
    } finally {
      stack.stripe?.admin.setAutoCapture(50);
    }
    expect(await balanceOf(debtAccount(employee.userId))).toBe(-200);
    expect((await send('GET', '/me/balance', employee.accessToken)).body).toMatchObject({
      availableCents: 2000,
      owedCents: 200,
    });

    await send(
      'POST',
      '/funds/deposit',
      manager.accessToken,
      { userIds: [employee.userId], amount: 10 },
      `d-${randomUUID()}`,
    );
    expect(await balanceOf(debtAccount(employee.userId))).toBe(0);
    expect(await balanceOf(cardAccount(employee.userId))).toBe(2800);
  });
});

describe('removal, reallocation and redemption', () => {
  it('cancels a removed employee’s card, pools the money, reallocates it evenly, redeems the rest with the fee', async () => {
    const { manager, teamId } = await setUpTeam();
    const leaving = await join(manager, 50);
    const leavingToo = await join(manager, 20);
    const staying = await join(manager, 25);
    const stayingToo = await join(manager, 25);

    const removed = await send('POST', '/employees/delete', manager.accessToken, {
      userIds: [leaving.userId, leavingToo.userId],
    });
    expect(removed.status).toBe(200);
    expect((await stripe.issuing.cards.retrieve(leaving.cardId)).status).toBe('canceled');
    expect(await balanceOf(poolAccount(teamId))).toBe(7000);
    expect((await pay(leaving.cardId, 100))?.approved).toBe(false);

    const none = await send(
      'POST',
      '/funds/reallocate',
      manager.accessToken,
      { deletedUserIds: [leaving.userId] },
      `r-${randomUUID()}`,
    );
    expect(none.status).toBe(400);
    expect(none.body.error.message).toBe('Please select at least one employee to receive the reallocation');

    const realloc = await send(
      'POST',
      '/funds/reallocate',
      manager.accessToken,
      { deletedUserIds: [leaving.userId], receiverIds: [staying.userId, stayingToo.userId] },
      `r-${randomUUID()}`,
    );
    expect(realloc.status, JSON.stringify(realloc.body)).toBe(200);
    expect(realloc.body.amountCents).toBe(5000);
    expect(await balanceOf(cardAccount(staying.userId))).toBe(2500 + 2500);
    expect(await balanceOf(cardAccount(stayingToo.userId))).toBe(2500 + 2500);

    const redeemed = await send(
      'POST',
      '/funds/redeem',
      manager.accessToken,
      { deletedUserIds: [leavingToo.userId] },
      `x-${randomUUID()}`,
    );
    expect(redeemed.status, JSON.stringify(redeemed.body)).toBe(200);
    // $20.00: 15 % is $3.00, less than the $5.00 minimum fee.
    expect(redeemed.body).toEqual({ amountCents: 2000, feeCents: 500 });
    expect(await balanceOf(poolAccount(teamId))).toBe(0);
    const refunds = await stripe.refunds.list({ limit: 100 });
    expect(refunds.data.some((r) => r.amount === 1500)).toBe(true);

    const audit = await send('GET', '/team/audit', manager.accessToken);
    const actions = audit.body.events.map((e: { action: string }) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['employee.deleted', 'funds.reallocated', 'funds.redeemed', 'billing.setup']),
    );
  });

  it('splits a redemption over several charges when none can take it all, and refunds once however often it is sent', async () => {
    const { manager, teamId } = await setUpTeam();
    const leaving = await join(manager, 10); // joining charge: $10.00
    const deposit = await send(
      'POST',
      '/funds/deposit',
      manager.accessToken,
      { userIds: [leaving.userId], amount: 30 },
      `d-${randomUUID()}`,
    );
    expect(deposit.status, JSON.stringify(deposit.body)).toBe(200); // a second charge: $30.00
    expect(
      (await send('POST', '/employees/delete', manager.accessToken, { userIds: [leaving.userId] })).status,
    ).toBe(200);
    expect(await balanceOf(poolAccount(teamId))).toBe(4000);

    // $40.00 less the $6.00 fee (15 %) is $34.00: more than either charge.
    const body = { deletedUserIds: [leaving.userId] };
    const [first, racing] = await Promise.all([
      send('POST', '/funds/redeem', manager.accessToken, body, `x-${randomUUID()}`),
      send('POST', '/funds/redeem', manager.accessToken, body, `x-${randomUUID()}`),
    ]);
    expect([first.status, racing.status], JSON.stringify([first.body, racing.body])).toContain(200);
    const later = await send('POST', '/funds/redeem', manager.accessToken, body, `x-${randomUUID()}`);
    expect(later.status).toBe(422);
    expect(later.body.error.message).toBe('Refund is not available for balances under $5.');

    const team = await stack.getItem(keys.team(teamId));
    const charges = await stripe.charges.list({ customer: team?.stripeCustomerId as string });
    const refunded = Object.fromEntries(charges.data.map((c) => [c.amount, c.amount_refunded]));
    expect(refunded).toEqual({ 1000: 400, 3000: 3000 }); // newest charge first, then the rest from the older
    const entries = (await teamJournal(teamId)).filter((e) => e.kind === 'redemption');
    expect(entries).toHaveLength(1);
    expect(entries[0]?.legs).toEqual([
      { account: poolAccount(teamId), amountCents: -4000 },
      { account: `revenue:${teamId}`, amountCents: 600 },
      { account: `external:${teamId}`, amountCents: 3400 },
    ]);
    expect(entries[0]?.refunds?.map((r) => r.amountCents)).toEqual([3000, 400]);
    expect(await balanceOf(poolAccount(teamId))).toBe(0);
  });

  it('lets one operation at a time take a removed person’s money: reallocate and redeem racing move it once', async () => {
    const { manager, teamId } = await setUpTeam();
    const leaving = await join(manager, 40);
    const alsoLeaving = await join(manager, 30); // their money shares the pool and must stay untouched
    const staying = await join(manager, 10);
    await send('POST', '/employees/delete', manager.accessToken, {
      userIds: [leaving.userId, alsoLeaving.userId],
    });
    expect(await balanceOf(poolAccount(teamId))).toBe(7000);

    const [moved, redeemed] = await Promise.all([
      send(
        'POST',
        '/funds/reallocate',
        manager.accessToken,
        { deletedUserIds: [leaving.userId], receiverIds: [staying.userId] },
        `r-${randomUUID()}`,
      ),
      send(
        'POST',
        '/funds/redeem',
        manager.accessToken,
        { deletedUserIds: [leaving.userId] },
        `x-${randomUUID()}`,
      ),
    ]);
    const winners = [moved, redeemed].filter((r) => r.status === 200);
    expect(winners, JSON.stringify([moved.body, redeemed.body])).toHaveLength(1);
    for (const loser of [moved, redeemed].filter((r) => r.status !== 200))
      expect([409, 422]).toContain(loser.status);

    // The other person's $30.00 is still in the pool; the leaving person's $40.00 went one way only.
    expect(await balanceOf(poolAccount(teamId))).toBe(3000);
    const refundedCents = (await stripe.refunds.list({ limit: 100 })).data
      .filter((r) => r.metadata?.userId === leaving.userId)
      .reduce((sum, r) => sum + r.amount, 0);
    if (moved.status === 200) {
      expect(await balanceOf(cardAccount(staying.userId))).toBe(1000 + 4000);
      expect(refundedCents).toBe(0);
    } else {
      expect(await balanceOf(cardAccount(staying.userId))).toBe(1000);
      expect(refundedCents).toBe(4000 - 600);
    }
  });

  it('finishes an interrupted reallocation the way it was planned before doing anything else', async () => {
    const { manager, teamId } = await setUpTeam();
    const leaving = await join(manager, 40);
    const planned = await join(manager, 10);
    const asked = await join(manager, 10);
    await send('POST', '/employees/delete', manager.accessToken, { userIds: [leaving.userId] });
    // A request planned "all to `planned`", opened its claim, and crashed before posting.
    const { stateId } = await pooledFrom(teamId, leaving.userId);
    await openPoolClaim({
      userId: leaving.userId,
      teamId,
      stateId: stateId as string,
      amountCents: 4000,
      plan: { op: 'reallocate', shares: [{ userId: planned.userId, amountCents: 4000 }] },
      openedAt: new Date().toISOString(),
    });
    const busy = await send(
      'POST',
      '/funds/redeem',
      manager.accessToken,
      { deletedUserIds: [leaving.userId] },
      `x-${randomUUID()}`,
    );
    expect(busy.status).toBe(409);
    const resumed = await send(
      'POST',
      '/funds/reallocate',
      manager.accessToken,
      { deletedUserIds: [leaving.userId], receiverIds: [asked.userId] },
      `r-${randomUUID()}`,
    );
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect(resumed.body.shares).toEqual([{ userId: planned.userId, amountCents: 4000 }]);
    expect(await balanceOf(cardAccount(planned.userId))).toBe(5000);
    expect(await balanceOf(cardAccount(asked.userId))).toBe(1000);
    expect(await balanceOf(poolAccount(teamId))).toBe(0);
  });

  it('redeems several people all or nothing, and a repeat skips the ones already returned', async () => {
    const { manager, teamId } = await setUpTeam();
    const [large, small, later] = [await join(manager, 40), await join(manager, 3), await join(manager, 20)];
    await send('POST', '/employees/delete', manager.accessToken, {
      userIds: [large.userId, small.userId, later.userId],
    });
    const redeem = (ids: string[]) =>
      send('POST', '/funds/redeem', manager.accessToken, { deletedUserIds: ids }, `x-${randomUUID()}`);

    const refused = await redeem([large.userId, small.userId]);
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toBe('Refund is not available for balances under $5.');
    expect(await balanceOf(poolAccount(teamId))).toBe(6300); // nothing moved, not even the large one

    expect((await redeem([large.userId])).body).toEqual({ amountCents: 4000, feeCents: 600 });
    const again = await redeem([large.userId, later.userId]);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toEqual({ amountCents: 2000, feeCents: 500 });
    expect(await balanceOf(poolAccount(teamId))).toBe(300);
  });

  it('reallocates several people all or nothing: one who was never removed refuses the whole request', async () => {
    const { manager, teamId } = await setUpTeam();
    const [leaving, stillHere, receiver] = [
      await join(manager, 30),
      await join(manager, 25),
      await join(manager, 20),
    ];
    await send('POST', '/employees/delete', manager.accessToken, { userIds: [leaving.userId] });
    const journalBefore = (await teamJournal(teamId)).length;

    const refused = await send(
      'POST',
      '/funds/reallocate',
      manager.accessToken,
      { deletedUserIds: [leaving.userId, stillHere.userId], receiverIds: [receiver.userId] },
      `r-${randomUUID()}`,
    );
    expect(refused.status).toBe(404);
    expect(refused.body.error.message).toBe(
      'Only removed or dormant employees of your team can be reallocated.',
    );
    // Nothing moved, not even the removed person's money named first.
    expect(await balanceOf(poolAccount(teamId))).toBe(3000);
    expect(await balanceOf(cardAccount(receiver.userId))).toBe(2000);
    expect((await teamJournal(teamId)).length).toBe(journalBefore);

    const allowed = await send(
      'POST',
      '/funds/reallocate',
      manager.accessToken,
      { deletedUserIds: [leaving.userId], receiverIds: [receiver.userId] },
      `r-${randomUUID()}`,
    );
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);
    expect(await balanceOf(cardAccount(receiver.userId))).toBe(2000 + 3000);
  });

  it('reallocates to more people than one posting can hold, to the cent', async () => {
    const { manager, teamId } = await setUpTeam();
    const leaving = await join(manager, 61);
    await send('POST', '/employees/delete', manager.accessToken, { userIds: [leaving.userId] });
    // Sixty more active team members (records only: they have no card yet, their balances live in the ledger).
    const receivers = Array.from({ length: 60 }, (_, i) => `r${String(i).padStart(2, '0')}-${randomUUID()}`);
    for (const userId of receivers) {
      await stack.doc.send(
        new PutCommand({
          TableName: stack.tableName,
          Item: {
            ...keys.user(userId),
            ...keys.userByTeam(teamId, userId),
            entity: 'User',
            userId,
            email: `${userId}@example.com`,
            firstName: 'R',
            lastName: 'R',
            role: 'employee',
            teamId,
            status: 'active',
            emailVerified: true,
            finishedWalkthrough: false,
            createdAt: new Date().toISOString(),
          },
        }),
      );
    }
    const res = await send(
      'POST',
      '/funds/reallocate',
      manager.accessToken,
      { deletedUserIds: [leaving.userId], allEmployees: true },
      `r-${randomUUID()}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.amountCents).toBe(6100);
    // $61.00 over 60 people: $1.01 each, and the first 40 by id get one cent more.
    const sorted = [...receivers].sort();
    for (const [i, userId] of sorted.entries())
      expect(await balanceOf(cardAccount(userId)), userId).toBe(i < 40 ? 102 : 101);
    expect(await balanceOf(poolAccount(teamId))).toBe(0);
    const parts = (await teamJournal(teamId)).filter((e) => e.kind === 'reallocation');
    // Parts of at most 47 receivers (48 legs with the pool's), leaving room for the insights aggregates.
    expect(parts.map((p) => p.legs.length - 1).sort()).toEqual([13, 47]);
  });
});
