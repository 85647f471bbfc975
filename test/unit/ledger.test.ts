import {
  authorizationHold,
  capture,
  fromPool,
  funding,
  InvalidPosting,
  mayGoNegative,
  planRedemptionRefunds,
  reallocation,
  redemption,
  redemptionFee,
  validatePosting,
} from '@shared/domain/ledger';
import { feeCents, formatCents, parseDollars, splitEvenly } from '@shared/domain/money';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

describe('money', () => {
  it.each([
    [0, '$0.00'],
    [5, '$0.05'],
    [1240, '$12.40'],
    [-305, '-$3.05'],
    [123456789, '$1,234,567.89'],
  ])('formats %i cents as %s', (cents, text) => {
    expect(formatCents(cents)).toBe(text);
  });

  it.each([
    ['12', 1200],
    ['12.5', 1250],
    ['12.50', 1250],
    ['$0.99', 99],
    ['$ 7', 700],
    ['1,234.05', 123405],
    [' 41.20 ', 4120],
    ['0', 0],
    ['12.345', undefined],
    ['-5', undefined],
    ['1,23', undefined],
    ['12,5', undefined],
    ['abc', undefined],
    ['', undefined],
    ['.50', undefined],
  ])('reads %j dollars as %s cents', (text, cents) => {
    expect(parseDollars(text)).toBe(cents);
  });

  it('refuses fractional cents', () => {
    expect(() => formatCents(1.5)).toThrow();
  });

  it.each([
    [1000, 1500, 150],
    [333, 1500, 50], // 49.95 rounds half up to 50
    [1, 1500, 0],
    [0, 1500, 0],
  ])('fee on %i cents at %i bp is %i', (amount, bps, fee) => {
    expect(feeCents(amount, bps)).toBe(fee);
  });

  it('splits evenly, the first parts taking the remainder, always summing to the total', () => {
    expect(splitEvenly(100, 3)).toEqual([34, 33, 33]);
    expect(splitEvenly(2, 3)).toEqual([1, 1, 0]);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 1, max: 500 }),
        (total, parts) => {
          const shares = splitEvenly(total, parts);
          expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
          expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
        },
      ),
    );
  });
});

describe('postings', () => {
  it('must balance, use whole cents, and name each account once', () => {
    const base = { entryId: 'e', kind: 'funding' as const, teamId: 't', description: 'd' };
    expect(() =>
      validatePosting({
        ...base,
        legs: [
          { account: 'card:a', amountCents: 5 },
          { account: 'external:t', amountCents: -4 },
        ],
      }),
    ).toThrow(InvalidPosting);
    expect(() =>
      validatePosting({
        ...base,
        legs: [
          { account: 'card:a', amountCents: 0.5 },
          { account: 'external:t', amountCents: -0.5 },
        ],
      }),
    ).toThrow();
    expect(() =>
      validatePosting({
        ...base,
        legs: [
          { account: 'card:a', amountCents: 5 },
          { account: 'card:a', amountCents: -5 },
        ],
      }),
    ).toThrow(InvalidPosting);
  });

  it('only outside-world accounts may go negative', () => {
    expect(mayGoNegative('external:t')).toBe(true);
    expect(mayGoNegative('network:t')).toBe(true);
    expect(mayGoNegative('debt:u')).toBe(true);
    expect(mayGoNegative('card:u')).toBe(false);
    expect(mayGoNegative('hold:u')).toBe(false);
    expect(mayGoNegative('pool:t')).toBe(false);
    expect(mayGoNegative('revenue:t')).toBe(false);
  });

  it('funding takes from the manager’s card and credits the employee’s card', () => {
    const p = funding({
      entryId: 'F',
      teamId: 't',
      userId: 'u',
      amountCents: 2500,
      description: 'x',
      chargeId: 'ch_1',
    });
    expect(p.legs).toEqual([
      { account: 'external:t', amountCents: -2500 },
      { account: 'card:u', amountCents: 2500 },
    ]);
  });

  it('an authorization moves money from spendable to held, keyed by the authorization id', () => {
    const p = authorizationHold({
      authorizationId: 'iauth_1',
      teamId: 't',
      userId: 'u',
      amountCents: 999,
      merchant: 'M',
    });
    expect(p.entryId).toBe('AUTH#iauth_1');
    expect(p.legs).toEqual([
      { account: 'card:u', amountCents: -999 },
      { account: 'hold:u', amountCents: 999 },
    ]);
  });

  it.each([
    ['exact', 1000, 1000, { hold: -1000 }],
    ['partial', 600, 1000, { hold: -600 }],
    ['over the hold', 1200, 1000, { hold: -1000, debt: -200 }],
    ['without a hold', 700, 0, { debt: -700 }],
  ])(
    'a capture %s settles against the hold and records any excess as debt',
    (_name, captured, held, expected) => {
      const p = capture({
        entryId: 'C',
        teamId: 't',
        userId: 'u',
        capturedCents: captured,
        heldCents: held,
        merchant: 'M',
        transactionId: 'ipi_1',
      });
      const byAccount = Object.fromEntries(p.legs.map((l) => [l.account.split(':')[0], l.amountCents]));
      expect(byAccount).toEqual({ network: captured, ...expected });
    },
  );

  it('a pool return gives a reactivated person their pooled money back, naming them', () => {
    const p = fromPool({ entryId: 'RESTORE#u#s', teamId: 't', userId: 'u', amountCents: 1234 });
    expect(p.kind).toBe('poolReturn');
    expect(p.references).toEqual({ user: 'u' });
    expect(p.legs).toEqual([
      { account: 'pool:t', amountCents: -1234 },
      { account: 'card:u', amountCents: 1234 },
    ]);
    expect(() => fromPool({ entryId: 'R', teamId: 't', userId: 'u', amountCents: 0 })).toThrow(
      InvalidPosting,
    );
  });
});

describe('reallocation and redemption arithmetic, to the cent', () => {
  it.each([
    [1000, ['b', 'a'], { 'card:a': 500, 'card:b': 500 }],
    [1001, ['b', 'a'], { 'card:a': 501, 'card:b': 500 }],
    [100, ['c', 'a', 'b'], { 'card:a': 34, 'card:b': 33, 'card:c': 33 }],
    [2, ['c', 'a', 'b'], { 'card:a': 1, 'card:b': 1 }],
    [1000, ['a', 'a', 'b'], { 'card:a': 500, 'card:b': 500 }],
  ])('reallocating %i cents to %j', (amount, receivers, expected) => {
    const p = reallocation({ entryId: 'R', teamId: 't', amountCents: amount, receiverIds: receivers });
    const credited = Object.fromEntries(
      p.legs.filter((l) => l.amountCents > 0).map((l) => [l.account, l.amountCents]),
    );
    expect(credited).toEqual(expected);
    expect(p.legs.find((l) => l.account === 'pool:t')?.amountCents).toBe(-amount);
  });

  it('refuses a reallocation with no receiver, in the spec’s words', () => {
    expect(() => reallocation({ entryId: 'R', teamId: 't', amountCents: 100, receiverIds: [] })).toThrow(
      'Please select at least one employee to receive the reallocation',
    );
  });

  it.each([
    [499, 'refused'],
    [500, 'refused'], // the $5 minimum fee would take it all
    [501, 500],
    [3333, 500], // 15 % is $5.00 (rounded), equal to the minimum
    [3334, 500],
    [3337, 501], // 15 % = 500.55 -> 501
    [10000, 1500],
    [123457, 18519],
  ])('redeeming %i cents costs a fee of %s', (amount, fee) => {
    if (fee === 'refused') {
      expect(() =>
        redemption({
          entryId: 'X',
          teamId: 't',
          amountCents: amount,
          refunds: [{ chargeId: 'ch_1', refundId: 're_1', amountCents: 1 }],
        }),
      ).toThrow(InvalidPosting);
      return;
    }
    const net = amount - (fee as number);
    expect(redemptionFee(amount)).toBe(fee);
    const p = redemption({
      entryId: 'X',
      teamId: 't',
      amountCents: amount,
      refunds: [{ chargeId: 'ch_1', refundId: 're_1', amountCents: net }],
    });
    expect(p.legs).toEqual([
      { account: 'pool:t', amountCents: -amount },
      { account: 'revenue:t', amountCents: fee },
      { account: 'external:t', amountCents: net },
    ]);
  });

  it.each([
    [
      'one charge takes it all',
      800,
      [
        ['ch_3', 1000],
        ['ch_2', 5000],
      ],
      [['ch_3', 800]],
    ],
    [
      'exactly what the newest can take',
      1000,
      [
        ['ch_3', 1000],
        ['ch_2', 5000],
      ],
      [['ch_3', 1000]],
    ],
    [
      'split, newest first',
      2550,
      [
        ['ch_3', 1000],
        ['ch_2', 1000],
        ['ch_1', 1000],
      ],
      [
        ['ch_3', 1000],
        ['ch_2', 1000],
        ['ch_1', 550],
      ],
    ],
    [
      'skips spent charges',
      300,
      [
        ['ch_3', 0],
        ['ch_2', 200],
        ['ch_1', 200],
      ],
      [
        ['ch_2', 200],
        ['ch_1', 100],
      ],
    ],
  ] as const)('plans the refunds of a redemption: %s', (_, net, charges, expected) => {
    const plan = planRedemptionRefunds(
      net,
      charges.map(([chargeId, refundableCents]) => ({ chargeId, refundableCents })),
    );
    expect(plan.map((r) => [r.chargeId, r.amountCents])).toEqual(expected);
  });

  it('refuses a redemption that all earlier charges together cannot take', () => {
    expect(() => planRedemptionRefunds(2001, [{ chargeId: 'ch_1', refundableCents: 2000 }])).toThrow(
      'Your earlier charges cannot take this refund; please contact us.',
    );
  });

  it('refuses refunds that do not add up to the net, so the ledger matches what Stripe returned', () => {
    const refunds = [
      { chargeId: 'ch_2', refundId: 're_2', amountCents: 4000 },
      { chargeId: 'ch_1', refundId: 're_1', amountCents: 4000 },
    ];
    // 10000 cents less the 1500 fee is 8500, not 8000.
    expect(() => redemption({ entryId: 'X', teamId: 't', amountCents: 10000, refunds })).toThrow(
      InvalidPosting,
    );
    const p = redemption({
      entryId: 'X',
      teamId: 't',
      amountCents: 10000,
      refunds: [...refunds, { chargeId: 'ch_0', refundId: 're_0', amountCents: 500 }],
    });
    expect(p.refunds?.map((r) => r.amountCents)).toEqual([4000, 4000, 500]);
    expect(p.legs.find((l) => l.account === 'external:t')?.amountCents).toBe(8500);
  });
});
