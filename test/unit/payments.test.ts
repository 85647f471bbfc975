/**
 * The payments history's rows (shared/src/domain/payments.ts), built from the
 * ledger's own posting builders: one row per charge (a month's renewal is one
 * charge for everyone), per deposit request, per redemption and closing, in
 * plain words, refunds as money back with their fee, newest first.
 */

import { capture, funding, type Posting, redemption, toPool } from '@shared/domain/ledger';
import { type PaymentEntry, paymentRows } from '@shared/domain/payments';
import { describe, expect, it } from 'vitest';

const team = 'T1';
const names: Record<string, string> = { alex: 'Alex Kim', bo: 'Bo Diaz', cy: 'Cy Ng' };
const nameOf = (id: string) => names[id] ?? 'an employee';
const at = (p: Posting, postedAt: string): PaymentEntry => ({ ...p, postedAt });
const visa = { cardBrand: 'Visa', cardLast4: '4242' };

function credit(entryId: string, userId: string, cents: number, chargeId: string, kind?: 'deposit') {
  return funding({ entryId, teamId: team, userId, amountCents: cents, description: 'x', chargeId, kind });
}

describe('payment rows', () => {
  it('has no rows for a team with nothing charged, and ignores purchases and pool moves', () => {
    expect(paymentRows([], nameOf)).toEqual([]);
    const purchase = capture({
      entryId: 'CAPTURE#ipi_1',
      teamId: team,
      userId: 'alex',
      capturedCents: 500,
      heldCents: 500,
      merchant: 'Books',
      transactionId: 'ipi_1',
    });
    const pooled = toPool({
      entryId: 'POOL#alex#1',
      teamId: team,
      userId: 'alex',
      amountCents: 100,
      reason: 'removed',
    });
    expect(
      paymentRows([at(purchase, '2026-12-02T00:00:00Z'), at(pooled, '2026-12-03T00:00:00Z')], nameOf),
    ).toEqual([]);
  });

  it('makes one row of a month’s charge, however many people it funded', () => {
    const rows = paymentRows(
      ['alex', 'bo', 'cy'].map((u, i) =>
        at(credit(`FUNDING#${team}#${u}#2026-12`, u, 2500 + i * 500, 'ch_month'), '2026-12-05T06:00:00.000Z'),
      ),
      nameOf,
    );
    expect(rows).toEqual([
      {
        id: 'ch_month',
        kind: 'monthly',
        direction: 'charge',
        date: '2026-12-05T06:00:00.000Z',
        description: 'Monthly budgets for December 2026, 3 employees',
        amountCents: 9000,
        people: 3,
      },
    ]);
  });

  it('names who joined, and who one deposit was for; counts the people and the charges of a larger deposit', () => {
    const joined = at(credit('JOIN#alex', 'alex', 6000, 'ch_join'), '2026-11-20T10:00:00.000Z');
    const one = at(credit('DEPOSIT#k1#bo', 'bo', 1000, 'ch_d1', 'deposit'), '2026-11-21T10:00:00.000Z');
    const two = ['alex', 'cy'].map((u) =>
      at(credit(`DEPOSIT#k2#${u}`, u, 5000, `ch_d2_${u}`, 'deposit'), '2026-11-22T10:00:00.000Z'),
    );
    const rows = paymentRows([joined, one, ...two], nameOf);
    expect(rows.map((r) => [r.description, r.amountCents, r.note])).toEqual([
      ['Extra deposit, 2 employees', 10000, '2 charges of $50.00'],
      ['Extra deposit: Bo Diaz', 1000, undefined],
      ['Joining: Alex Kim', 6000, undefined],
    ]);
    expect(rows.map((r) => r.id)).toEqual(['DEPOSIT#k2', 'DEPOSIT#k1', 'ch_join']);
  });

  it('shows a redemption and the closing refund as money back, net of the fee the words name', () => {
    const charge = at(
      { ...credit('JOIN#alex', 'alex', 6000, 'ch_join'), references: { charge: 'ch_join', ...visa } },
      '2026-11-01T00:00:00.000Z',
    );
    const redeemed = redemption({
      entryId: 'REDEEM#alex#1',
      teamId: team,
      amountCents: 2000,
      refunds: [{ chargeId: 'ch_join', refundId: 're_1', amountCents: 1500 }],
      fromUserId: 'alex',
    });
    const closed = redemption({
      entryId: `CLOSE#${team}`,
      teamId: team,
      amountCents: 4000,
      refunds: [
        { chargeId: 'ch_join', refundId: 're_2', amountCents: 3000 },
        { chargeId: 'ch_other', refundId: 're_3', amountCents: 400 },
      ],
    });
    const rows = paymentRows(
      [charge, at(redeemed, '2026-11-10T00:00:00.000Z'), at(closed, '2026-11-30T00:00:00.000Z')],
      nameOf,
    );
    expect(rows.slice(0, 2)).toEqual([
      {
        id: `CLOSE#${team}`,
        kind: 'closing',
        direction: 'refund',
        date: '2026-11-30T00:00:00.000Z',
        description: 'Refund of the balance left on closing (fee $6.00)',
        amountCents: 3400,
        people: 0,
        feeCents: 600,
        note: '2 refunds to the card, one per charge it came from',
        card: { brand: 'Visa', last4: '4242' },
      },
      {
        id: 'REDEEM#alex#1',
        kind: 'redemption',
        direction: 'refund',
        date: '2026-11-10T00:00:00.000Z',
        description: 'Refund of redeemed balance: Alex Kim (fee $5.00)',
        amountCents: 1500,
        people: 1,
        feeCents: 500,
        card: { brand: 'Visa', last4: '4242' },
      },
    ]);
    expect(rows[2]).toMatchObject({
      description: 'Joining: Alex Kim',
      card: { brand: 'Visa', last4: '4242' },
    });
  });

  it('dates a charge credited in parts by its first credit, and adds every part', () => {
    const rows = paymentRows(
      [
        at(credit(`FUNDING#${team}#bo#2027-01`, 'bo', 2500, 'ch_jan'), '2027-01-05T08:00:00.000Z'),
        at(credit(`FUNDING#${team}#alex#2027-01`, 'alex', 2500, 'ch_jan'), '2027-01-05T06:00:00.000Z'),
      ],
      nameOf,
    );
    expect(rows).toEqual([
      expect.objectContaining({
        date: '2027-01-05T06:00:00.000Z',
        amountCents: 5000,
        description: 'Monthly budgets for January 2027, 2 employees',
      }),
    ]);
  });

  it('orders newest first, and rows of the same moment by id, so pages neither overlap nor skip', () => {
    const same = '2026-12-01T00:00:00.000Z';
    const rows = paymentRows(
      [
        at(credit('JOIN#alex', 'alex', 100, 'ch_a'), same),
        at(credit('JOIN#bo', 'bo', 100, 'ch_b'), same),
        at(credit('JOIN#cy', 'cy', 100, 'ch_c'), '2026-12-02T00:00:00.000Z'),
      ],
      nameOf,
    );
    expect(rows.map((r) => r.id)).toEqual(['ch_c', 'ch_b', 'ch_a']);
  });
});
