import {
  type CardState,
  decidePurchase,
  declineCodeOf,
  declineWithNextStep,
  freezeReason,
  LEARNING_CATEGORIES,
  MERCHANT_KINDS,
  type OwnerState,
  type PurchaseAttempt,
} from '@shared/domain/spendPolicy';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const books: PurchaseAttempt = {
  amountCents: 1999,
  currency: 'usd',
  merchantCategory: 'book_stores',
  merchantName: 'Powell’s Books',
};
const active: CardState = { status: 'active' };
const owner: OwnerState = { status: 'active' };

describe('decidePurchase', () => {
  it.each<[string, PurchaseAttempt, CardState | undefined, OwnerState | undefined, number, unknown]>([
    ['approves within the balance', books, active, owner, 5000, { approved: true }],
    ['approves exactly the balance', books, active, owner, 1999, { approved: true }],
    [
      'declines a cent above the balance',
      books,
      active,
      owner,
      1998,
      { approved: false, code: 'over_balance', reason: '$19.99 is above your $19.98 balance.' },
    ],
    [
      'declines on an empty card',
      { ...books, amountCents: 4120 },
      active,
      owner,
      0,
      { approved: false, code: 'over_balance', reason: '$41.20 is above your $0.00 balance.' },
    ],
    [
      'a paused employee spends what the card holds',
      books,
      active,
      { status: 'paused' },
      5000,
      { approved: true },
    ],
    [
      'an unknown card',
      books,
      undefined,
      owner,
      5000,
      { approved: false, code: 'card_unknown', reason: 'This card is not recognized.' },
    ],
    [
      'a card with no owner',
      books,
      active,
      undefined,
      5000,
      { approved: false, code: 'card_unknown', reason: 'This card is not recognized.' },
    ],
    [
      'a cancelled card',
      books,
      { status: 'canceled' },
      owner,
      5000,
      { approved: false, code: 'card_cancelled', reason: 'This card has been cancelled.' },
    ],
    [
      'a deleted employee',
      books,
      active,
      { status: 'deleted' },
      5000,
      { approved: false, code: 'card_cancelled', reason: 'This card has been cancelled.' },
    ],
    [
      'frozen by the manager',
      books,
      { status: 'inactive', freeze: { manager: true } },
      owner,
      5000,
      { approved: false, code: 'frozen', reason: 'Your card is frozen. Please contact your manager.' },
    ],
    [
      'frozen for missing receipts',
      books,
      { status: 'inactive', freeze: { missingReceipt: true } },
      owner,
      5000,
      {
        approved: false,
        code: 'frozen_missing_receipts',
        reason: 'Your card is frozen until your missing receipts are uploaded.',
      },
    ],
    [
      'frozen by the manager and for receipts: receipts alone would not lift it',
      books,
      { status: 'inactive', freeze: { manager: true, missingReceipt: true } },
      owner,
      5000,
      { approved: false, code: 'frozen', reason: 'Your card is frozen. Please contact your manager.' },
    ],
    [
      'frozen with no reason recorded',
      books,
      { status: 'inactive' },
      owner,
      5000,
      { approved: false, code: 'frozen', reason: 'Your card is frozen. Please contact your manager.' },
    ],
    [
      'another currency',
      { ...books, currency: 'EUR' },
      active,
      owner,
      5000,
      { approved: false, code: 'currency', reason: 'Only purchases in US dollars are supported.' },
    ],
    [
      'a merchant that is not for learning, named',
      { ...books, merchantCategory: 'betting_casino_gambling', merchantName: 'Lucky Casino' },
      active,
      owner,
      5000,
      {
        approved: false,
        code: 'not_learning_merchant',
        reason: 'Lucky Casino (Betting and casinos) is not a learning merchant.',
      },
    ],
    [
      'a merchant that is not for learning, unnamed (the check before buying)',
      { amountCents: 500, currency: 'usd', merchantCategory: 'fast_food_restaurants' },
      active,
      owner,
      5000,
      {
        approved: false,
        code: 'not_learning_merchant',
        reason: 'A merchant of this kind (Fast food restaurants) is not a learning merchant.',
      },
    ],
    [
      'the card state is told before the merchant, the merchant before the amount',
      { ...books, merchantCategory: 'drinking_places', amountCents: 99999 },
      { status: 'inactive', freeze: { manager: true } },
      owner,
      0,
      { approved: false, code: 'frozen', reason: 'Your card is frozen. Please contact your manager.' },
    ],
  ])('%s', (_name, attempt, card, who, balance, expected) => {
    expect(decidePurchase(attempt, card, who, balance)).toEqual(expected);
  });

  it('never approves more than the balance, and approves any learning purchase within it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.constantFrom(...LEARNING_CATEGORIES),
        (amountCents, balanceCents, merchantCategory) => {
          const decision = decidePurchase(
            { amountCents, currency: 'usd', merchantCategory },
            active,
            owner,
            balanceCents,
          );
          expect(decision.approved).toBe(amountCents <= balanceCents);
        },
      ),
    );
  });

  it('offers every learning category among the merchant kinds, each once', () => {
    const offered = MERCHANT_KINDS.map((k) => k.category);
    expect(new Set(offered).size).toBe(offered.length);
    for (const category of LEARNING_CATEGORIES) expect(offered).toContain(category);
  });
});

describe('freezeReason', () => {
  it.each([
    [undefined, 'manager'],
    [{}, 'manager'],
    [{ manager: true }, 'manager'],
    [{ missingReceipt: true }, 'missingReceipt'],
    [{ missingReceipt: true, manager: true }, 'manager'],
    [{ dormant: true }, 'dormant'],
    [{ dormant: true, missingReceipt: true }, 'missingReceipt'],
  ])('%j -> %s', (freeze, reason) => {
    expect(freezeReason(freeze)).toBe(reason);
  });
});

describe('declineCodeOf (the metrics label of a reason)', () => {
  const cases: [PurchaseAttempt, CardState | undefined, OwnerState | undefined, number][] = [
    [books, undefined, owner, 5000],
    [books, { status: 'canceled' }, owner, 5000],
    [books, { status: 'inactive', freeze: { missingReceipt: true } }, owner, 5000],
    [books, { status: 'inactive', freeze: { manager: true } }, owner, 5000],
    [{ ...books, currency: 'eur' }, active, owner, 5000],
    [{ ...books, merchantCategory: 'eating_places_restaurants' }, active, owner, 5000],
    [
      { ...books, merchantCategory: 'eating_places_restaurants', merchantName: undefined },
      active,
      owner,
      5000,
    ],
    [books, active, owner, 100],
  ];
  it.each(cases)(
    'gives back the code of every reason decidePurchase writes (%#)',
    (attempt, card, who, cents) => {
      const decision = decidePurchase(attempt, card, who, cents);
      if (decision.approved) throw new Error('expected a decline');
      expect(declineCodeOf(decision.reason)).toBe(decision.code);
    },
  );

  it('labels every code once across the cases, and anything else as other', () => {
    const codes = cases.map(([a, c, o, b]) => {
      const d = decidePurchase(a, c, o, b);
      return d.approved ? 'approved' : d.code;
    });
    expect(new Set(codes).size).toBe(7);
    expect(declineCodeOf('Declined by the card’s spending limit.')).toBe('issuer_limit');
    expect(declineCodeOf('This purchase was declined.')).toBe('other');
    expect(declineCodeOf(undefined)).toBe('other');
  });
});

describe('declineWithNextStep (what the employee reads)', () => {
  it('tells an over-balance decline to ask the manager for funds (spec §8)', () => {
    const decision = decidePurchase(books, active, owner, 1240);
    if (decision.approved) throw new Error('expected a decline');
    expect(declineWithNextStep(decision.reason)).toBe(`${decision.reason} Ask your manager for more funds.`);
  });

  it('leaves a reason that already says what to do, or where nothing helps, as it is', () => {
    for (const card of [{ status: 'inactive', freeze: { manager: true } }, { status: 'canceled' }] as const) {
      const decision = decidePurchase(books, card, owner, 5000);
      if (decision.approved) throw new Error('expected a decline');
      expect(declineWithNextStep(decision.reason)).toBe(decision.reason);
    }
  });
});
