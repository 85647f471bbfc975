/**
 * The statement's rows from ledger entries (shared/src/domain/statement.ts):
 * one row per movement, newest first, available balance and on-hold after each,
 * a captured purchase called a purchase, and no balance ever below zero even for
 * entries written before the ledger kept its writing order.
 */

import type { PostingKind } from '@shared/domain/ledger';
import { type AccountEntry, statementRows } from '@shared/domain/statement';
import { describe, expect, it } from 'vitest';

let clock = 0;
function entry(
  entryId: string,
  kind: PostingKind,
  description: string,
  amountCents: number,
  extra: Partial<AccountEntry> = {},
): AccountEntry {
  clock += 1;
  return {
    entryId,
    kind,
    description,
    postedAt: '2026-11-25T12:00:00.000Z',
    sequence: `SEQ${String(clock).padStart(4, '0')}`,
    amountCents,
    ...extra,
  };
}

/** A posting's legs on the card, hold and debt accounts, written at one moment. */
function movement(
  entryId: string,
  kind: PostingKind,
  description: string,
  legs: { card?: number; hold?: number; debt?: number },
  extra: Partial<AccountEntry> = {},
) {
  clock += 1;
  const sequence = `SEQ${String(clock).padStart(4, '0')}`;
  const make = (cents: number | undefined) =>
    cents ? [entry(entryId, kind, description, cents, { sequence, ...extra })] : [];
  return { card: make(legs.card), hold: make(legs.hold), debt: make(legs.debt) };
}

function books(...movements: ReturnType<typeof movement>[]) {
  return {
    card: movements.flatMap((m) => m.card),
    hold: movements.flatMap((m) => m.hold),
    debt: movements.flatMap((m) => m.debt),
  };
}

const brief = (rows: ReturnType<typeof statementRows>) =>
  rows.map((r) => [r.label, r.description, r.amountCents, r.availableCents, r.onHoldCents, r.owedCents]);

describe('statement rows', () => {
  it('puts each declined purchase where it happened, its price shown, the balances as they stood, nothing moved', () => {
    const at = (minute: number) => `2026-11-25T12:${String(minute).padStart(2, '0')}:00.000Z`;
    const rows = statementRows(
      books(
        movement('JOIN#u', 'funding', 'First learning budget', { card: 2500 }, { postedAt: at(0) }),
        movement(
          'AUTH#iauth_1',
          'authorization',
          'Hold for Walk Books',
          { card: -525, hold: 525 },
          { postedAt: at(10) },
        ),
      ),
      [
        {
          authorizationId: 'iauth_3',
          amountCents: 9000,
          merchant: 'Udemy',
          reason: 'Late.',
          decidedAt: at(20),
        },
        {
          authorizationId: 'iauth_2',
          amountCents: 4120,
          merchant: 'Audible',
          reason: 'Early.',
          decidedAt: at(5),
        },
      ],
    );
    expect(brief(rows)).toEqual([
      ['Declined', 'Purchase at Udemy', 0, 1975, 525, 0],
      ['Hold', 'Hold for Walk Books', -525, 1975, 525, 0],
      ['Declined', 'Purchase at Audible', 0, 2500, 0, 0],
      ['Credit', 'First learning budget', 2500, 2500, 0, 0],
    ]);
    expect(rows[2]).toMatchObject({
      type: 'declined',
      entryId: 'decline#iauth_2',
      declinedCents: 4120,
      detail: 'Early. Nothing was taken from your balance.',
    });
  });

  it('reads a monthly credit stored with its raw month in words, and one stored in words as it is', () => {
    const rows = statementRows(
      books(
        movement('FUNDING#t#u#2026-11', 'funding', 'Learning budget for 2026-11', { card: 2500 }),
        movement('FUNDING#t#u#2026-12', 'funding', 'Learning budget for December 2026', { card: 2500 }),
      ),
    );
    expect(brief(rows)).toEqual([
      ['Credit', 'Learning budget for December 2026', 2500, 5000, 0, 0],
      ['Credit', 'Learning budget for November 2026', 2500, 2500, 0, 0],
    ]);
  });

  it('one row per movement, newest first: the hold takes from available, the purchase takes from the hold', () => {
    const rows = statementRows(
      books(
        movement('JOIN#u', 'funding', 'First learning budget', { card: 2500 }),
        movement('AUTH#iauth_1', 'authorization', 'Hold for Walk Books', { card: -525, hold: 525 }),
        movement(
          'CAPTURE#ipi_1',
          'capture',
          'Purchase at Walk Books',
          { hold: -525 },
          { references: { transaction: 'ipi_1', authorization: 'iauth_1' } },
        ),
      ),
    );
    expect(brief(rows)).toEqual([
      ['Purchase', 'Purchase at Walk Books', -525, 1975, 0, 0],
      ['Hold', 'Hold for Walk Books', -525, 1975, 525, 0],
      ['Credit', 'First learning budget', 2500, 2500, 0, 0],
    ]);
    expect(rows[0]?.detail).toBe(
      'Paid from its hold: the hold became this purchase, so your balance did not change.',
    );
    expect(rows[1]?.detail).toBe('Settled: this hold became the purchase.');
    expect(rows.map((r) => r.type)).toEqual(['purchase', 'hold', 'credit']);
  });

  it('names the merchant of a released or expired hold, and says what is still on hold', () => {
    const rows = statementRows(
      books(
        movement('JOIN#u', 'funding', 'First learning budget', { card: 2500 }),
        movement('AUTH#iauth_a', 'authorization', 'Hold for Udemy', { card: -250, hold: 250 }),
        movement('AUTH#iauth_b', 'authorization', 'Hold for Audible', { card: -399, hold: 399 }),
        movement('AUTH#iauth_c', 'authorization', 'Hold for Coursera', { card: -1000, hold: 1000 }),
        movement('RELEASE#iauth_b#0', 'release', 'Hold released', { card: 399, hold: -399 }),
        movement('RELEASE#iauth_c#0', 'release', 'Hold expired', { card: 1000, hold: -1000 }),
      ),
    );
    expect(brief(rows)).toEqual([
      ['Hold expired', 'Hold for Coursera expired', 1000, 2250, 250, 0],
      ['Hold released', 'Hold for Audible released', 399, 1250, 1250, 0],
      ['Hold', 'Hold for Coursera', -1000, 851, 1649, 0],
      ['Hold', 'Hold for Audible', -399, 1851, 649, 0],
      ['Hold', 'Hold for Udemy', -250, 2250, 250, 0],
      ['Credit', 'First learning budget', 2500, 2500, 0, 0],
    ]);
    expect(rows.find((r) => r.description === 'Hold for Udemy')?.detail).toBe(
      '$2.50 still on hold until the merchant settles the purchase.',
    );
    expect(rows.find((r) => r.description === 'Hold for Audible')?.detail).toBe(
      'Released: the money came back to your balance.',
    );
  });

  it('a purchase above its hold is owed, and the debt collected from the next credit', () => {
    const rows = statementRows(
      books(
        movement('JOIN#u', 'funding', 'First learning budget', { card: 3000 }),
        movement('AUTH#iauth_1', 'authorization', 'Hold for Walk Books', { card: -1000, hold: 1000 }),
        movement('CAPTURE#ipi_1', 'capture', 'Purchase at Walk Books', { hold: -1000, debt: -200 }),
        movement('DEPOSIT#k#u', 'deposit', 'Extra deposit', { card: 1000 }),
        movement('DEBT#u#1', 'debtRepayment', 'Paid back: a purchase that settled above its hold', {
          card: -200,
          debt: 200,
        }),
      ),
    );
    expect(brief(rows)).toEqual([
      ['Debt collected', 'Paid back: a purchase that settled above its hold', -200, 2800, 0, 0],
      ['Credit', 'Extra deposit', 1000, 3000, 0, 200],
      ['Purchase', 'Purchase at Walk Books', -1200, 2000, 0, 200],
      ['Hold', 'Hold for Walk Books', -1000, 2000, 1000, 0],
      ['Credit', 'First learning budget', 3000, 3000, 0, 0],
    ]);
    expect(rows[2]?.detail).toBe(
      'Its $10.00 hold became this purchase; the $2.00 above it is owed and comes out of your next credit.',
    );
  });

  it('entries written before the ledger kept its order (a capture stamped before its hold) never show a balance below zero', () => {
    // Stripe's whole-second capture time sorts before the hold decided in the same second.
    const credit = movement('JOIN#u', 'funding', 'First learning budget', { card: 2500 });
    const capture = movement('CAPTURE#ipi_1', 'capture', 'Purchase at Walk Books', { hold: -525 });
    const hold = movement('AUTH#iauth_1', 'authorization', 'Hold for Walk Books', { card: -525, hold: 525 });
    const refund = movement('REFUND#ipi_2', 'refund', 'Refund from Walk Books', { card: 525 });
    const rows = statementRows(books(credit, capture, hold, refund));
    expect(rows.map((r) => r.label)).toEqual(['Refund', 'Purchase', 'Hold', 'Credit']);
    for (const row of rows) {
      expect(row.availableCents).toBeGreaterThanOrEqual(0);
      expect(row.onHoldCents).toBeGreaterThanOrEqual(0);
      expect(row.owedCents).toBeGreaterThanOrEqual(0);
    }
    expect(rows[0]).toMatchObject({ availableCents: 2500, onHoldCents: 0 });
    // An old capture names no authorization: it settles the open hold at its merchant.
    expect(rows[2]?.detail).toBe('Settled: this hold became the purchase.');
  });

  it('reallocations in and out', () => {
    const rows = statementRows(
      books(
        movement('REALLOCATE#x#1#0', 'reallocation', 'Reallocated funds', { card: 700 }),
        movement('POOL#u#1', 'poolTransfer', 'Balance of a removed employee moved to the team pool', {
          card: -700,
        }),
      ),
    );
    expect(rows.map((r) => [r.type, r.label, r.amountCents, r.availableCents])).toEqual([
      ['reallocationOut', 'Reallocation out', -700, 0],
      ['reallocationIn', 'Reallocation in', 700, 700],
    ]);
  });
});
