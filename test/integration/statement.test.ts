/**
 * The employee's statement (GET /me/statement) built from a real history at
 * the emulator's card network: a credit, a purchase held then captured, a
 * decline, a hold released by the merchant, one expired, and one still held.
 * One row per movement, newest first, in the order the ledger wrote them (the
 * capture carries Stripe's whole-second time, which can fall before its hold),
 * the available balance after each agreeing with GET /me/balance at the top,
 * and no balance ever below zero.
 */

import { randomUUID } from 'node:crypto';
import { authorizationHold, capture, cardAccount, funding, holdAccount } from '@shared/domain/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, statement } from '../../lambdas/src/data/ledger';
import type { Actor } from '../../lambdas/src/platform/auth';
import { myStatement } from '../../lambdas/src/services/cards';
import { BOOKSHOP, payWithCard } from '../support/cardNetwork';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { joinTeam, sender, setUpTeam } from '../support/teams';

let stack: IntegrationStack;
let send: ReturnType<typeof sender>;

beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
  send = sender(stack);
});
afterAll(async () => {
  await stack?.stop();
});

interface Row {
  entryId: string;
  type: string;
  label: string;
  description: string;
  detail?: string;
  amountCents: number;
  availableCents: number;
  onHoldCents: number;
  owedCents: number;
}

describe('the employee statement', () => {
  it('reads like a card statement: one row per movement, newest first, available and on hold after each', async () => {
    const { manager } = await setUpTeam(stack);
    const employee = await join(manager);
    const admin = stack.stripe?.admin;
    if (!admin) throw new Error('no emulator');
    const pay = async (cents: number, name: string) => {
      const outcome = await payWithCard(stack, employee.cardId, cents, { ...BOOKSHOP, name });
      return outcome?.authorization?.id as string;
    };
    // The merchant settles by hand here, so each step is the one the test takes.
    admin.setAutoCapture(false);
    try {
      const walkBooks = await pay(525, 'Walk Books');
      admin.capture(walkBooks);
      await admin.idle();
      const declined = await payWithCard(stack, employee.cardId, 5000, { ...BOOKSHOP, name: 'Big Books' });
      expect(declined?.approved).toBe(false);
      const udemy = await pay(250, 'Udemy');
      admin.reverse(udemy);
      await admin.idle();
      const coursera = await pay(1000, 'Coursera');
      admin.expire(coursera);
      await admin.idle();
      await pay(399, 'Audible');
    } finally {
      admin.setAutoCapture(50);
    }

    const answer = await send('GET', '/me/statement', employee.accessToken);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const rows = answer.body.lines as Row[];
    expect(
      rows.map((r) => [r.label, r.description, r.amountCents, r.availableCents, r.onHoldCents, r.owedCents]),
    ).toEqual([
      ['Hold', 'Hold for Audible', -399, 1576, 399, 0],
      ['Hold expired', 'Hold for Coursera expired', 1000, 1975, 0, 0],
      ['Hold', 'Hold for Coursera', -1000, 975, 1000, 0],
      ['Hold released', 'Hold for Udemy released', 250, 1975, 0, 0],
      ['Hold', 'Hold for Udemy', -250, 1725, 250, 0],
      // The decline moved no money: listed where it happened, with the balances as they stood (issue 25).
      ['Declined', 'Purchase at Big Books', 0, 1975, 0, 0],
      ['Purchase', 'Purchase at Walk Books', -525, 1975, 0, 0],
      ['Hold', 'Hold for Walk Books', -525, 1975, 525, 0],
      ['Credit', 'First learning budget', 2500, 2500, 0, 0],
    ]);
    expect(rows.map((r) => r.type)).toEqual([
      'hold',
      'holdExpired',
      'hold',
      'holdReleased',
      'hold',
      'declined',
      'purchase',
      'hold',
      'credit',
    ]);
    // The captured purchase is a purchase, paid from its hold; the hold says it became the purchase.
    const purchase = rows.find((r) => r.type === 'purchase');
    expect(purchase?.detail).toBe(
      'Paid from its hold: the hold became this purchase, so your balance did not change.',
    );
    expect(rows.find((r) => r.description === 'Hold for Walk Books')?.detail).toBe(
      'Settled: this hold became the purchase.',
    );
    expect(rows.find((r) => r.description === 'Hold for Audible')?.detail).toBe(
      '$3.99 still on hold until the merchant settles the purchase.',
    );
    expect(JSON.stringify(rows)).not.toContain('(on hold)');
    // The decline says why, and that it took nothing.
    expect(rows.find((r) => r.type === 'declined')?.detail).toBe(
      '$50.00 is above your $19.75 balance. Nothing was taken from your balance.',
    );
    for (const row of rows) {
      expect(row.availableCents, row.description).toBeGreaterThanOrEqual(0);
      expect(row.onHoldCents, row.description).toBeGreaterThanOrEqual(0);
      expect(row.owedCents, row.description).toBeGreaterThanOrEqual(0);
    }
    // The ledger's own statement of the hold account runs in the order it was written: the capture
    // (stamped with Stripe's whole second, often before the decision's millisecond) after its hold.
    const held = await statement(holdAccount(employee.userId));
    expect(held.map((l) => l.kind)).toEqual([
      'authorization',
      'capture',
      'authorization',
      'release',
      'authorization',
      'release',
      'authorization',
    ]);
    for (const line of held) expect(line.balanceCents, line.entryId).toBeGreaterThanOrEqual(0);
    // The newest row agrees with the balance the header chip and the card dialog show.
    const balance = await send('GET', '/me/balance', employee.accessToken);
    expect(balance.body).toMatchObject({
      availableCents: rows[0]?.availableCents,
      onHoldCents: rows[0]?.onHoldCents,
      owedCents: 0,
    });
  });

  it('a purchase settled above its hold shows what is owed, and its collection from the next credit', async () => {
    const { manager } = await setUpTeam(stack);
    const employee = await join(manager, 30);
    const admin = stack.stripe?.admin;
    if (!admin) throw new Error('no emulator');
    admin.setAutoCapture(false);
    try {
      const auth = await payWithCard(stack, employee.cardId, 1000, BOOKSHOP);
      admin.capture(auth?.authorization?.id as string, 1200);
      await admin.idle();
    } finally {
      admin.setAutoCapture(50);
    }
    const deposit = await send(
      'POST',
      '/funds/deposit',
      manager.accessToken,
      { userIds: [employee.userId], amount: 10 },
      `deposit-${employee.userId}`,
    );
    expect(deposit.status, JSON.stringify(deposit.body)).toBe(200);

    const rows = (await send('GET', '/me/statement', employee.accessToken)).body.lines as Row[];
    expect(rows.map((r) => [r.label, r.amountCents, r.availableCents, r.onHoldCents, r.owedCents])).toEqual([
      ['Debt collected', -200, 2800, 0, 0],
      ['Credit', 1000, 3000, 0, 200],
      ['Purchase', -1200, 2000, 0, 200],
      ['Hold', -1000, 2000, 1000, 0],
      ['Credit', 3000, 3000, 0, 0],
    ]);
    expect(rows[2]?.detail).toBe(
      'Its $10.00 hold became this purchase; the $2.00 above it is owed and comes out of your next credit.',
    );
    expect((await send('GET', '/me/balance', employee.accessToken)).body.availableCents).toBe(2800);
  });
});

describe('the order of a statement', () => {
  it('is the order the ledger wrote the movements, not their event times: a capture stamped before its hold comes after it', async () => {
    const userId = `u-${randomUUID()}`;
    const teamId = `t-${randomUUID()}`;
    // Stripe stamps a capture with its whole second; the decision that held the money has
    // milliseconds, so in the same second the capture's time is the earlier one.
    await post(
      funding({
        entryId: `JOIN#${userId}`,
        teamId,
        userId,
        amountCents: 2500,
        description: 'First learning budget',
        chargeId: 'ch_1',
      }),
      '2026-11-25T12:00:00.000Z',
    );
    await post(
      authorizationHold({
        authorizationId: 'iauth_same_second',
        teamId,
        userId,
        amountCents: 525,
        merchant: 'Walk Books',
      }),
      '2026-11-25T12:00:01.900Z',
    );
    await post(
      capture({
        entryId: `CAPTURE#ipi_${userId}`,
        teamId,
        userId,
        capturedCents: 525,
        heldCents: 525,
        merchant: 'Walk Books',
        transactionId: `ipi_${userId}`,
        authorizationId: 'iauth_same_second',
      }),
      '2026-11-25T12:00:01.000Z',
    );
    const held = await statement(holdAccount(userId));
    expect(held.map((l) => [l.kind, l.balanceCents])).toEqual([
      ['authorization', 525],
      ['capture', 0],
    ]);
    const { lines } = await myStatement({ userId } as Actor);
    expect(lines.map((l) => [l.label, l.amountCents, l.availableCents, l.onHoldCents])).toEqual([
      ['Purchase', -525, 1975, 0],
      ['Hold', -525, 1975, 525],
      ['Credit', 2500, 2500, 0],
    ]);
  });
});

describe('a monthly credit posted with its month as yyyy-mm', () => {
  it('reads in words on the statement, while the ledger keeps the entry as it was written', async () => {
    const userId = `u-${randomUUID()}`;
    const teamId = `t-${randomUUID()}`;
    // What the renewal posted before it named the month in words.
    await post(
      funding({
        entryId: `FUNDING#${teamId}#${userId}#2026-12`,
        teamId,
        userId,
        amountCents: 2500,
        description: 'Learning budget for 2026-12',
        chargeId: 'ch_old',
      }),
      '2026-12-01T06:00:00.000Z',
    );
    const { lines } = await myStatement({ userId } as Actor);
    expect(lines.map((l) => [l.label, l.description, l.amountCents])).toEqual([
      ['Credit', 'Learning budget for December 2026', 2500],
    ]);
    const stored = await statement(cardAccount(userId));
    expect(stored.map((l) => l.description)).toEqual(['Learning budget for 2026-12']);
  });
});

const join = (manager: Parameters<typeof joinTeam>[1], budget = 25) => joinTeam(stack, manager, budget);
