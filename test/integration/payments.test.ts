/**
 * The payments history (GET /subscription's `payments`) against the Stripe emulator: a
 * team joins people, renews a month, deposits and redeems, and the rows say
 * what was charged and refunded, in words, one row per charge, newest first,
 * a page at a time; and they add up to what Stripe charged less what it refunded.
 */
import { randomUUID } from 'node:crypto';
import { monthInWords } from '@shared/domain/monthWords';
import type { PaymentRowOutput } from '@shared/schemas/subscription';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteAndRegisterEmployee } from '../support/accountFlows';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { emulatorClient, sender, setUpTeam } from '../support/teams';

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

/** The next billing day of a team whose cycle day is `cycleDay`, at 06:00 UTC, as the monthly job runs. */
function nextCycle(cycleDay: number): Date {
  const now = new Date();
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 6));
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(cycleDay, lastDay));
  return next;
}

async function allPages(token: string, limit: number): Promise<PaymentRowOutput[]> {
  const rows: PaymentRowOutput[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&paymentsCursor=${encodeURIComponent(cursor)}` : '';
    const page = await send('GET', `/subscription?paymentsLimit=${limit}${query}`, token);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.payments.rows.length).toBeLessThanOrEqual(limit);
    rows.push(...page.body.payments.rows);
    cursor = page.body.payments.nextCursor;
  } while (cursor);
  return rows;
}

describe('the payments history', () => {
  it('is empty before anything was charged', async () => {
    const { manager } = await setUpTeam(stack);
    const res = await send('GET', '/subscription', manager.accessToken);
    expect(res.status).toBe(200);
    expect(res.body.payments).toEqual({ rows: [], nextCursor: null });
  });

  it('lists joining, the month, a deposit and a redemption in words, and adds up to what Stripe charged less what it refunded', async () => {
    const { manager, customerId, cycleDay } = await setUpTeam(stack);
    const people = [
      { firstName: 'Alex', lastName: 'Kim', budget: 60 },
      { firstName: 'Bo', lastName: 'Diaz', budget: 25 },
      { firstName: 'Cy', lastName: 'Ng', budget: 40 },
    ];
    const joined: Awaited<ReturnType<typeof inviteAndRegisterEmployee>>[] = [];
    for (const p of people)
      joined.push(
        await inviteAndRegisterEmployee(stack.apiUrl, manager, p.budget, {
          mailbox: stack.mailbox,
          firstName: p.firstName,
          lastName: p.lastName,
        }),
      );
    const [kim, diaz, ng] = joined as [(typeof joined)[0], (typeof joined)[0], (typeof joined)[0]];

    const cycle = nextCycle(cycleDay);
    const { handler } = await import('../../lambdas/src/jobs/monthlyFunding');
    expect((await handler({ time: cycle.toISOString() })).status).toBe('done');

    const deposited = await send(
      'POST',
      '/funds/deposit',
      manager.accessToken,
      { userIds: [kim.userId, diaz.userId], amount: 15 },
      `d-${randomUUID()}`,
    );
    expect(deposited.status, JSON.stringify(deposited.body)).toBe(200);

    expect(
      (await send('POST', '/employees/delete', manager.accessToken, { userIds: [ng.userId] })).status,
    ).toBe(200);
    const redeemed = await send(
      'POST',
      '/funds/redeem',
      manager.accessToken,
      { deletedUserIds: [ng.userId] },
      `x-${randomUUID()}`,
    );
    expect(redeemed.status, JSON.stringify(redeemed.body)).toBe(200);
    // Cy's $40 joining + $40 month = $80: the fee is 15 %, $12.00.
    expect(redeemed.body).toEqual({ amountCents: 8000, feeCents: 1200 });

    // A new primary card: later charges name it, earlier ones keep the card they went to.
    const added = await send(
      'POST',
      '/billing/cards',
      manager.accessToken,
      { token: 'tok_mastercard' },
      `card-${randomUUID()}`,
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const mastercard = added.body.cards.find((c: { last4: string }) => c.last4 === '4444');
    expect(
      (await send('PUT', '/billing/customer', manager.accessToken, { defaultCardId: mastercard.id })).status,
    ).toBe(200);
    const topUp = await send(
      'POST',
      '/funds/deposit',
      manager.accessToken,
      { userIds: [kim.userId], amount: 10 },
      `d-${randomUUID()}`,
    );
    expect(topUp.status, JSON.stringify(topUp.body)).toBe(200);

    const rows = await allPages(manager.accessToken, 2);
    const month = monthInWords(cycle.toISOString().slice(0, 7));
    expect(
      rows.map((r) => [
        r.direction,
        r.description,
        r.amountCents,
        r.note ?? null,
        r.card ? `${r.card.brand} ${r.card.last4}` : null,
      ]),
    ).toEqual([
      // The month was renewed by the job at its (coming) billing day, so it is the newest.
      ['charge', `Monthly budgets for ${month}, 3 employees`, 12500, null, 'Visa 4242'],
      ['charge', 'Extra deposit: Alex Kim', 1000, null, 'MasterCard 4444'],
      ['refund', 'Refund of redeemed balance: Cy Ng (fee $12.00)', 6800, null, 'Visa 4242'],
      ['charge', 'Extra deposit, 2 employees', 3000, '2 charges of $15.00', 'Visa 4242'],
      ['charge', 'Joining: Cy Ng', 4000, null, 'Visa 4242'],
      ['charge', 'Joining: Bo Diaz', 2500, null, 'Visa 4242'],
      ['charge', 'Joining: Alex Kim', 6000, null, 'Visa 4242'],
    ]);
    // Paged two at a time: every row once, newest first.
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    expect(rows.map((r) => r.date)).toEqual([...rows.map((r) => r.date)].sort().reverse());

    const charges = (await stripe.charges.list({ customer: customerId, limit: 100 })).data.filter(
      (c) => c.status === 'succeeded',
    );
    const refunds = (await stripe.refunds.list({ limit: 100 })).data.filter((r) =>
      charges.some((c) => c.id === r.charge),
    );
    const stripeNet = charges.reduce((s, c) => s + c.amount, 0) - refunds.reduce((s, r) => s + r.amount, 0);
    const rowsNet = rows.reduce((s, r) => s + (r.direction === 'charge' ? r.amountCents : -r.amountCents), 0);
    expect(charges).toHaveLength(7);
    expect(rowsNet).toBe(stripeNet);
    expect(rowsNet).toBe(6000 + 2500 + 4000 + 12500 + 3000 + 1000 - 6800);
  });

  it('shows a manager only their own team’s payments, and refuses a cursor it did not make', async () => {
    const mine = await setUpTeam(stack);
    const theirs = await setUpTeam(stack);
    await inviteAndRegisterEmployee(stack.apiUrl, theirs.manager, 30, { mailbox: stack.mailbox });
    const own = await send('GET', '/subscription', mine.manager.accessToken);
    expect(own.body.payments.rows).toEqual([]);
    const other = await send('GET', '/subscription', theirs.manager.accessToken);
    expect(other.body.payments.rows).toHaveLength(1);

    const bad = await send('GET', '/subscription?paymentsCursor=not-ours', mine.manager.accessToken);
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({ paymentsCursor: 'Invalid cursor' });
  });
});
