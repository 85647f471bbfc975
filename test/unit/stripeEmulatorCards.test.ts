import { describe, expect, it } from 'vitest';
import {
  behaviourOf,
  brandOf,
  cvcValid,
  groupPan,
  isExpired,
  luhnCheckDigit,
  luhnValid,
  normalizePan,
  parseExpiry,
} from '../../infra/local/stripe/cardNumbers';
import { formatCents, parseDollars } from '../../infra/local/stripe/money';

describe('card numbers in the Stripe emulator', () => {
  it.each([
    ['4242424242424242', true],
    ['4242424242424241', false],
    ['378282246310005', true],
    ['5555555555554444', true],
    ['1234', false],
    ['4242a24242424242', false],
  ])('Luhn(%s) is %s', (number, valid) => {
    expect(luhnValid(number)).toBe(valid);
  });

  it('completes a number with its check digit', () => {
    expect(luhnCheckDigit('424242424242424')).toBe('2');
    for (const partial of ['400000990000000', '400000991234567', '400000999999999']) {
      expect(luhnValid(partial + luhnCheckDigit(partial))).toBe(true);
    }
  });

  it.each([
    ['4242424242424242', 'Visa'],
    ['5555555555554444', 'MasterCard'],
    ['2223003122003222', 'MasterCard'],
    ['378282246310005', 'American Express'],
    ['6011111111111117', 'Discover'],
    ['3056930009020004', 'Diners Club'],
    ['3566002020360505', 'JCB'],
    ['6200000000000005', 'UnionPay'],
    ['9999999999999995', 'Unknown'],
  ])('%s is %s', (number, brand) => {
    expect(brandOf(number)).toBe(brand);
  });

  it('checks CVC length by brand', () => {
    expect(cvcValid('123', 'Visa')).toBe(true);
    expect(cvcValid('12', 'Visa')).toBe(false);
    expect(cvcValid('1234', 'American Express')).toBe(true);
    expect(cvcValid('123', 'American Express')).toBe(false);
  });

  it.each([
    ['08/29', { month: 8, year: 2029 }],
    ['8/29', { month: 8, year: 2029 }],
    ['08/2029', { month: 8, year: 2029 }],
    ['0829', { month: 8, year: 2029 }],
    [' 12 / 30 ', { month: 12, year: 2030 }],
    ['13/29', undefined],
    ['00/29', undefined],
    ['tomorrow', undefined],
  ])('reads expiry %j as %j', (input, expected) => {
    expect(parseExpiry(input)).toEqual(expected);
  });

  it('treats a card as valid through the end of its expiry month', () => {
    const may2030 = new Date(Date.UTC(2030, 4, 31, 23, 59));
    expect(isExpired(5, 2030, may2030)).toBe(false);
    expect(isExpired(4, 2030, may2030)).toBe(true);
    expect(isExpired(1, 2031, may2030)).toBe(false);
    expect(isExpired(12, 2029, may2030)).toBe(true);
  });

  it("knows how Stripe's test cards behave", () => {
    expect(behaviourOf('4242424242424242')).toEqual({ kind: 'ok' });
    expect(behaviourOf('4000000000009995')).toMatchObject({
      kind: 'decline',
      decline: { code: 'card_declined', declineCode: 'insufficient_funds' },
    });
    expect(behaviourOf('4000000000000341')).toMatchObject({ kind: 'decline_charges' });
    expect(behaviourOf('4000000000000127')).toMatchObject({
      decline: { code: 'incorrect_cvc', param: 'cvc' },
    });
  });

  it('groups and normalizes numbers', () => {
    expect(normalizePan('4242 4242-4242 4242')).toBe('4242424242424242');
    expect(groupPan('4000009912345678')).toBe('4000 0099 1234 5678');
    expect(groupPan('378282246310005')).toBe('3782 822463 10005');
  });
});

describe('dollar amounts typed on the checkout page', () => {
  it.each([
    ['12', 1200],
    ['12.5', 1250],
    ['12.34', 1234],
    ['$12.34', 1234],
    [' $ 0.01 ', 1],
    ['1,234.50', 123450],
    ['0.1', 10],
  ])('%j is %d cents', (input, cents) => {
    expect(parseDollars(input)).toBe(cents);
  });

  it.each(['', '0', '0.00', '-5', '12.345', '1,23.00', 'abc', '1e3', '12.'])('%j is refused', (input) => {
    expect(parseDollars(input)).toBeUndefined();
  });

  it('formats cents without floating point', () => {
    expect(formatCents(1234)).toBe('$12.34');
    expect(formatCents(5)).toBe('$0.05');
    expect(formatCents(-500)).toBe('-$5.00');
    expect(formatCents(123456789)).toBe('$1,234,567.89');
  });
});
