import {
  type CardFormValues,
  cardFormComplete,
  cardFormErrorsFromServer,
  cardTokenRequest,
  checkCardForm,
  checkCardNumber,
  checkCvc,
  checkExpiry,
  checkPostalCode,
  inviteEntries,
  luhnValid,
  cardFormMessages as m,
  monthlyTotalCents,
  parseBudgetDollars,
  parseExpiry,
  shouldInvite,
} from '@shared/domain/cardForm';
import { CARD_FORM_MAX, finalizeSetupInput } from '@shared/schemas/billing';
import { fieldErrorsOf } from '@shared/schemas/common';
import { describe, expect, it } from 'vitest';

const NOW = new Date('2026-05-15T12:00:00Z');

const filled: CardFormValues = {
  businessName: 'Acme Learning LLC',
  name: 'Mary Manager',
  number: '4242 4242 4242 4242',
  expiry: '12/2030',
  cvc: '123',
  address1: '500 Congress Ave',
  address2: '',
  country: 'US',
  state: 'TX',
  city: 'Austin',
  zip: '78701',
};

describe('card number (spec §5)', () => {
  it.each([
    ['4242424242424242', true],
    ['4000056655665556', true],
    ['378282246310005', true], // American Express, 15 digits
    ['5555555555554444', true],
    ['4242424242424241', false],
    ['1234567812345678', false],
    ['', false],
    ['abcd', false],
  ])('Luhn of %j is %s', (digits, valid) => {
    expect(luhnValid(digits)).toBe(valid);
  });

  it.each([
    ['', m.numberRequired],
    ['   ', m.numberRequired],
    ['4242 4242 4242 4242', undefined],
    ['4242-4242-4242-4242', undefined],
    ['4242 4242 4242 4241', m.numberInvalid],
    ['4242', m.numberInvalid],
    ['4242 4242 4242 424x', m.numberInvalid],
    ['00000000000000000000', m.numberInvalid], // Luhn-valid but 20 digits
  ])('%j -> %s', (number, message) => {
    expect(checkCardNumber(number)).toBe(message);
  });
});

describe('expiry MM/YYYY (spec §5)', () => {
  it.each([
    ['', m.expiryRequired],
    ['12/2030', undefined],
    ['12 / 2030', undefined],
    ['05/2026', undefined], // good through the end of its month
    ['04/2026', m.expired],
    ['12/2025', m.expired],
    ['12/30', m.expiryFormat],
    ['13/2030', m.expiryFormat],
    ['00/2030', m.expiryFormat],
    ['1/2030', m.expiryFormat],
    ['12-2030', m.expiryFormat],
  ])('%j -> %s', (text, message) => {
    expect(checkExpiry(text, NOW)).toBe(message);
  });

  it('parses month and year', () => {
    expect(parseExpiry('07/2031')).toEqual({ month: 7, year: 2031 });
  });
});

describe('CVC and postal code', () => {
  it.each([
    ['', m.cvcRequired],
    ['123', undefined],
    ['1234', undefined],
    ['12', m.cvcInvalid],
    ['12a', m.cvcInvalid],
    ['12345', m.cvcInvalid],
  ])('CVC %j -> %s', (cvc, message) => {
    expect(checkCvc(cvc)).toBe(message);
  });

  it.each([
    ['', m.postalCodeRequired],
    ['78701', undefined],
    ['78701-1234', undefined],
    ['7870', m.postalCodeInvalid],
  ])('ZIP %j -> %s', (zip, message) => {
    expect(checkPostalCode(zip)).toBe(message);
  });
});

describe('the whole form', () => {
  it('is complete only when every required field is non-blank; address2 is optional', () => {
    expect(cardFormComplete(filled, true)).toBe(true);
    expect(cardFormComplete({ ...filled, businessName: '  ' }, true)).toBe(false);
    // The add-card form has no business name.
    expect(cardFormComplete({ ...filled, businessName: undefined }, false)).toBe(true);
    for (const field of ['name', 'number', 'expiry', 'cvc', 'address1', 'state', 'city', 'zip'] as const) {
      expect(cardFormComplete({ ...filled, [field]: ' ' }, true), field).toBe(false);
    }
  });

  it('says every message of spec §5 for an empty form', () => {
    const empty = Object.fromEntries(Object.keys(filled).map((k) => [k, ''])) as unknown as CardFormValues;
    expect(checkCardForm(empty, true, NOW)).toEqual({
      businessName: m.businessNameRequired,
      name: m.nameRequired,
      number: m.numberRequired,
      expiry: m.expiryRequired,
      cvc: m.cvcRequired,
      address1: m.addressRequired,
      country: m.countryRequired,
      state: m.stateRequired,
      city: m.cityRequired,
      zip: m.postalCodeRequired,
    });
    expect(checkCardForm(filled, true, NOW)).toEqual({});
  });

  it("becomes the tokenizer's parameters, digits only and trimmed", () => {
    expect(cardTokenRequest({ ...filled, state: 'tx', address2: ' Suite 5 ' })).toEqual({
      number: '4242424242424242',
      exp_month: 12,
      exp_year: 2030,
      cvc: '123',
      name: 'Mary Manager',
      address_line1: '500 Congress Ave',
      address_line2: 'Suite 5',
      address_city: 'Austin',
      address_state: 'TX',
      address_zip: '78701',
      address_country: 'US',
    });
    expect(cardTokenRequest(filled)).not.toHaveProperty('address_line2');
  });
});

describe("the server's refusal on the form", () => {
  it('puts each refused field of the setup on its own input, naming the field', () => {
    const refused = finalizeSetupInput.safeParse({
      businessName: 'B'.repeat(CARD_FORM_MAX.businessName + 1),
      token: 'tok_visa',
      billingAddress: {
        address1: 'A'.repeat(CARD_FORM_MAX.address1 + 1),
        address2: 'S'.repeat(CARD_FORM_MAX.address2 + 1),
        city: 'C'.repeat(CARD_FORM_MAX.city + 1),
        state: 'TX',
        zip: '7870',
      },
    });
    expect(refused.success).toBe(false);
    if (refused.success) return;
    expect(cardFormErrorsFromServer(fieldErrorsOf(refused.error))).toEqual({
      businessName: 'Business name must be at most 120 characters',
      address1: 'Address must be at most 200 characters',
      address2: 'Address line 2 must be at most 200 characters',
      city: 'City must be at most 100 characters',
      zip: m.postalCodeInvalid,
    });
  });

  it('leaves out what the form does not show', () => {
    expect(
      cardFormErrorsFromServer({ token: 'Credit card number is not valid', 'invite.budget': 'Too much' }),
    ).toEqual({});
  });
});

describe('the invite step (spec §5 "Invite")', () => {
  it.each([
    ['25', 25],
    ['$25', 25],
    ['$ 40', 40],
    [' 0 ', 0],
    ['', undefined],
    ['$', undefined],
    ['25.50', undefined],
    ['-5', undefined],
    ['ten', undefined],
    ['10001', undefined],
  ])('budget %j -> %s dollars', (text, dollars) => {
    expect(parseBudgetDollars(text)).toBe(dollars);
  });

  it('splits e-mails on commas, skipping blanks and repeats', () => {
    expect(inviteEntries(' a@x.com, ,b@x.com,,A@X.com ,')).toEqual(['a@x.com', 'b@x.com']);
    expect(inviteEntries(' , ')).toEqual([]);
  });

  it.each([
    ['a@x.com, b@x.com, c@x.com', '25', 7500],
    ['a@x.com, b@x.com', '$40', 8000],
    ['a@x.com,, ', '25', 2500],
    ['', '25', 0],
    ['a@x.com', '', 0],
    ['a@x.com', 'lots', 0],
    // An address that cannot be invited is not charged for, so not counted.
    ['a@x.com, notanemail', '30', 3000],
  ])('monthly total of %j at %j is %i cents', (emails, budget, cents) => {
    expect(monthlyTotalCents(emails, budget)).toBe(cents);
  });

  it('invites only when both budget and e-mails are non-blank', () => {
    expect(shouldInvite('a@x.com', '25')).toBe(true);
    expect(shouldInvite(' , ', '25')).toBe(false);
    expect(shouldInvite('a@x.com', '  ')).toBe(false);
  });
});
